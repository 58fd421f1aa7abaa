// Link targets as the markdown renderer shows them: resolved against the page; only targets a reader can follow
// (http(s), ftp, mailto with an address — never the page itself, an in-page anchor or a script); without click and campaign tracking
// parameters (engine/url-tracking.ts); non-ASCII letters as themselves rather than percent escapes.

import { withoutTrackingParams } from "../../engine/url-tracking.ts";

/** Where targets are resolved (`<base href>` or the page's URL) and the page itself (links to it are dropped). */
export interface TargetContext {
	base?: URL;
	page?: URL;
}

/** The target of `href` as shown, or undefined when there is nothing to follow. */
export function resolveTarget(href: string, at: TargetContext): string | undefined {
	const value = href.trim();
	if (value === "" || value.startsWith("#") || /^(?:javascript|data|vbscript):/i.test(value)) return undefined;
	const url = at.base ? parseUrl(value, at.base) : parseUrl(value);
	if (!url) return at.base ? undefined : escapeUrl(value);
	if (!/^(?:https?|mailto|ftp):$/.test(url.protocol)) return undefined;
	// `mailto:?body=…` (a share-by-mail button) names nobody to write to.
	if (url.protocol === "mailto:" && url.pathname === "") return undefined;
	if (url.protocol === "http:" || url.protocol === "https:") {
		const search = withoutTrackingParams(url.search);
		if (search !== url.search) url.search = search;
		// The page itself (a fragment of it included): the reader is already there.
		if (at.page && withoutHash(url) === withoutHash(at.page)) return undefined;
	}
	return escapeUrl(readable(url.href));
}

/** The page's URL as links to it are compared: without fragment and tracking parameters. */
export function pageOf(pageUrl: string | undefined): URL | undefined {
	const url = pageUrl === undefined ? undefined : parseUrl(pageUrl.trim());
	if (url) url.search = withoutTrackingParams(url.search);
	return url;
}

function withoutHash(url: URL): string {
	return url.hash === "" ? url.href : url.href.slice(0, -url.hash.length);
}

export function parseUrl(value: string, base?: URL): URL | undefined {
	try {
		return new URL(value, base);
	} catch {
		return undefined;
	}
}

/** Runs of percent escapes of non-ASCII bytes (ASCII escapes such as `%2F` or `%20` mean something: kept). */
const ESCAPED_RUN = /(?:%[89A-F][\dA-F])+/gi;
const LETTERS = /^[\p{L}\p{M}\p{N}]+$/u;

/**
 * `/wiki/K%C3%B6ln` → `/wiki/Köln`: a run that decodes (as UTF-8) to letters, marks and digits only is shown as
 * them; parsing the URL again encodes them back to the same bytes. Anything else (spaces, punctuation, invisible
 * characters, bytes that are not UTF-8) keeps its escapes.
 */
function readable(href: string): string {
	if (!href.includes("%")) return href;
	return href.replace(ESCAPED_RUN, (run) => {
		try {
			const text = decodeURIComponent(run);
			return LETTERS.test(text) ? text : run;
		} catch {
			return run;
		}
	});
}

/** Parentheses and whitespace would end a markdown link target: escaped. */
function escapeUrl(url: string): string {
	return url.replace(/[()\s]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}
