// HTML page → markdown (or plain text): the main content chosen on a compact htmlparser2 tree (providers/direct/
// extract.ts), rendered with links as numbered references, inline, or none; title, author and date from metadata.
// The pipeline (and htmlparser2) is imported on first use, never when the provider module loads.

/** What the page looked like before extraction (for the JS-only check). */
export interface PageStats {
	/** Characters of visible body text (scripts, styles and noscript excluded), whitespace collapsed. */
	textLength: number;
	/** The start of the visible text (first ~500 characters). */
	textSample: string;
	/** Executable `<script>` elements (JSON data blocks not counted). */
	scriptCount: number;
	/** Text inside `<noscript>` (collapsed, first ~500 characters). */
	noscriptText: string;
	/** An app mount point (`#root`, `#app`, `#__next`, …) that holds no text. */
	emptyMount: boolean;
}

export interface MarkdownPage {
	/** The `<title>` (whitespace collapsed), else `og:title` or the JSON-LD headline; undefined when none. */
	title?: string;
	/** The author from JSON-LD or meta tags. */
	author?: string;
	/** The published date (ISO 8601) from JSON-LD or meta tags. */
	publishedAt?: string;
	markdown: string;
	/** True when main content was found; false when the whole (pruned) body was converted. */
	mainContent: boolean;
	stats: PageStats;
	/** Set when the HTML was longer than `EXTRACT_DEFAULTS.maxConvertChars` and only its start was converted. */
	cutAtChars?: number;
}

export interface ConvertOptions {
	/** "markdown" (default) or "text" (no markup, no links). */
	format?: "markdown" | "text";
	/** Links as numbered references after the text (default), inline `[text](url)`, or none (text only). */
	links?: "references" | "inline" | "none";
}

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

/** Converts a decoded HTML page; `baseUrl` (the final URL) makes links and images absolute. */
export async function htmlToMarkdown(
	html: string,
	baseUrl?: string,
	options: ConvertOptions = {},
): Promise<MarkdownPage> {
	pipeline ??= import("./extract-page.ts");
	const { convertHtml } = await pipeline;
	const limit = EXTRACT_DEFAULTS.maxConvertChars;
	if (html.length <= limit) return convertHtml(html, baseUrl, options);
	const lastTag = html.lastIndexOf("<", limit);
	const end = lastTag > limit - EXTRACT_DEFAULTS.cutLookBackChars ? lastTag : limit;
	return { ...convertHtml(html.slice(0, end), baseUrl, options), cutAtChars: limit };
}
