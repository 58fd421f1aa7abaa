// HTML page → markdown (or plain text): the main content chosen on a compact htmlparser2 tree (providers/direct/
// extract.ts), rendered with links as numbered references, inline, or none; title, author and date from metadata.
// The pipeline (and htmlparser2) is imported on first use, never when the provider module loads.

import type { ConvertOptions, MarkdownPage } from "./page-types.ts";

export const EXTRACT_DEFAULTS = {
	/**
	 * HTML beyond this is not converted: 4 MB of HTML is already ~2 million characters of markdown, more than any
	 * window shows.
	 */
	maxConvertChars: 4 * 1024 * 1024,
	/** A cut looks back this far for a tag start, so that no tag is split (a long text node is cut inside). */
	cutLookBackChars: 64 * 1024,
};

let pipeline: Promise<typeof import("./extract-page.ts")> | undefined;
const extractPage = () => {
	pipeline ??= import("./extract-page.ts");
	return pipeline;
};

/** Where HTML past the limit is cut (at a tag's start, so that no tag is split); undefined when it is not. */
function cutEnd(html: string): number | undefined {
	const limit = EXTRACT_DEFAULTS.maxConvertChars;
	if (html.length <= limit) return undefined;
	const lastTag = html.lastIndexOf("<", limit);
	return lastTag > limit - EXTRACT_DEFAULTS.cutLookBackChars ? lastTag : limit;
}

/** Converts a decoded HTML page; `baseUrl` (the final URL) makes links and images absolute. */
export async function htmlToMarkdown(
	html: string,
	baseUrl?: string,
	options: ConvertOptions = {},
): Promise<MarkdownPage> {
	const { convertHtml } = await extractPage();
	const end = cutEnd(html);
	if (end === undefined) return convertHtml(html, baseUrl, options);
	return { ...convertHtml(html.slice(0, end), baseUrl, options), cutAtChars: EXTRACT_DEFAULTS.maxConvertChars };
}

/** Converts an HTML fragment an API returned as content, whole (no main-content choice); cut like a page. */
export async function fragmentToMarkdown(
	html: string,
	baseUrl?: string,
	options: ConvertOptions = {},
): Promise<string> {
	const { convertFragment } = await extractPage();
	return convertFragment(html.slice(0, cutEnd(html)), baseUrl, options);
}
