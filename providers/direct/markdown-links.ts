// Links and images of the markdown renderer (providers/direct/markdown.ts): the target (providers/direct/
// link-targets.ts) written inline or as a number into the page's reference list, or left out; a link that shows its
// own URL keeps just its text, and an image inside a link shows its alt text (the link's target is the one to follow).

import type { LinkReferences } from "../../engine/link-references.ts";
import type { El } from "./dom-types.ts";
import { resolveTarget, type TargetContext } from "./link-targets.ts";

export type LinkStyle = "references" | "inline" | "none";

/** What link rendering needs from the renderer's context. */
export interface LinkContext extends TargetContext {
	links: LinkStyle;
	/** Target → its number in the reference list, in order of first use. */
	refs: Map<string, number>;
	/** Inside a link that has a target: images show their alt text only. */
	inLink: boolean;
}

/** An `<a>`'s target, or undefined when it has none to follow (or links are not shown). */
export function linkTarget(href: string | undefined, ctx: LinkContext): string | undefined {
	return href && ctx.links !== "none" ? resolveTarget(href, ctx) : undefined;
}

/** Renders a link's content with `render` (images inside it showing their alt text only), then the link. */
export function withinLink(url: string | undefined, ctx: LinkContext, render: () => string): string {
	const outer = ctx.inLink;
	ctx.inLink = outer || url !== undefined;
	try {
		return link(render(), url, ctx);
	} finally {
		ctx.inLink = outer;
	}
}

export function link(content: string, url: string | undefined, ctx: LinkContext): string {
	if (content.trim() === "") return "";
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
	if (ctx.inLink) return alt;
	const url = src && ctx.links !== "none" && !src.startsWith("data:") ? resolveTarget(src, ctx) : undefined;
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

/** The targets numbered so far, for the list after the text (engine/link-references.ts formats it). */
export function referencesOf(ctx: LinkContext): LinkReferences | undefined {
	if (ctx.refs.size === 0) return undefined;
	const urls = Array.from(ctx.refs.keys());
	const origin = ctx.page && /^https?:$/.test(ctx.page.protocol) ? ctx.page.origin : undefined;
	return origin === undefined ? { urls } : { urls, origin };
}
