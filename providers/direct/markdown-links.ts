// Links and images of the markdown renderer (providers/direct/markdown.ts): the target resolved against the page,
// written inline or as a number into the page's reference list, or left out; a link that shows its own URL keeps
// just its text.

import type { El } from "./dom.ts";

export type LinkStyle = "references" | "inline" | "none";

/** What link rendering needs from the renderer's context. */
export interface LinkContext {
	links: LinkStyle;
	base?: URL;
	refs: Map<string, number>;
}

export function link(content: string, href: string | undefined, ctx: LinkContext): string {
	if (content.trim() === "") return "";
	const url = href && ctx.links !== "none" ? target(href, ctx) : undefined;
	if (!url) return content;
	const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(content.replace(/\s*\n\s*/g, " "))!;
	// A link that shows its own target (a bare URL or e-mail address) needs no second copy of it.
	if (sameTarget(match[2]!, url)) return content;
	return `${match[1]}[${match[2]}]${reference(url, ctx)}${match[3]}`;
}

function sameTarget(text: string, url: string): boolean {
	const bare = (value: string) =>
		value
			.replace(/^(?:https?:\/\/|mailto:)/i, "")
			.replace(/\/$/, "")
			.toLowerCase();
	if (text.length <= 3) return false;
	let decoded = url;
	try {
		decoded = decodeURI(url);
	} catch {
		// A malformed escape: compare the URL as it is.
	}
	return bare(text) === bare(decoded.replace(/%28/g, "(").replace(/%29/g, ")"));
}

export function image(element: El, ctx: LinkContext): string {
	const alt = (element.attrs.alt ?? "").replace(/\s+/g, " ").trim();
	if (alt === "") return "";
	const src = element.attrs.src;
	const url = src && ctx.links !== "none" && !src.startsWith("data:") ? target(src, ctx) : undefined;
	return url ? `![${alt.replace(/[[\]]/g, "\\$&")}]${reference(url, ctx)}` : alt;
}

function reference(url: string, ctx: LinkContext): string {
	if (ctx.links === "inline") return `(${url})`;
	let number = ctx.refs.get(url);
	if (number === undefined) {
		number = ctx.refs.size + 1;
		ctx.refs.set(url, number);
	}
	return `[${number}]`;
}

/** An absolute http(s)/mailto target with parentheses and spaces escaped; in-page anchors and scripts: none. */
function target(href: string, ctx: LinkContext): string | undefined {
	const value = href.trim();
	if (value === "" || value.startsWith("#") || /^(?:javascript|data|vbscript):/i.test(value)) return undefined;
	const url = ctx.base ? parseUrl(value, ctx.base) : parseUrl(value);
	if (!url) return ctx.base ? undefined : escapeUrl(value);
	if (!/^(?:https?|mailto|ftp):$/.test(url.protocol)) return undefined;
	return escapeUrl(url.href);
}

export function parseUrl(value: string, base?: URL): URL | undefined {
	try {
		return new URL(value, base);
	} catch {
		return undefined;
	}
}

function escapeUrl(url: string): string {
	return url.replace(/[()\s]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}
