// What HTML conversion takes and gives: the options, the converted page and what the page looked like before
// extraction. A leaf, so the lazily loaded pipeline (extract-page.ts) and its loader (html-to-markdown.ts) do not
// import each other.

import type { LinkReferences } from "../../engine/link-references.ts";
import type { ExtractedAs } from "../../engine/result-types.ts";

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

/** The metadata fields of a converted page, as the fetch result carries them (absent ones left out). */
export type PageFacts = Pick<
	MarkdownPage,
	"author" | "authors" | "publishedAt" | "modifiedAt" | "siteName" | "language" | "canonicalUrl"
>;

export function pageFacts(page: MarkdownPage): PageFacts {
	const { author, authors, publishedAt, modifiedAt, siteName, language, canonicalUrl } = page;
	const facts: PageFacts = { author, authors, publishedAt, modifiedAt, siteName, language, canonicalUrl };
	for (const key of Object.keys(facts) as (keyof PageFacts)[]) if (facts[key] === undefined) delete facts[key];
	return facts;
}

export interface MarkdownPage {
	/** The `<title>` (whitespace collapsed), else `og:title` or the JSON-LD headline; undefined when none. */
	title?: string;
	/** The author from JSON-LD or meta tags. */
	author?: string;
	/** The published date (ISO 8601) from JSON-LD or meta tags. */
	publishedAt?: string;
	/** The rest of the page's metadata (providers/direct/metadata.ts): each set only when the page declares it. */
	authors?: string[];
	modifiedAt?: string;
	siteName?: string;
	language?: string;
	canonicalUrl?: string;
	/** The text; with links as references it cites them as `[text][n]`. */
	markdown: string;
	/** Links as references: the numbered targets (listed after each window: engine/link-references.ts). */
	references?: LinkReferences;
	/** True when main content was found; false when the whole (pruned) body was converted. */
	mainContent: boolean;
	/** Which way the page was read: its kind's extraction (providers/direct/page-kind.ts) or its readable text. */
	extractedAs: ExtractedAs;
	/** Set when the kind's extraction found too little text and the page's readable text is shown instead. */
	thinFallback?: ExtractedAs;
	/**
	 * What the extraction left out of the main content: short lines after the article (`count`: labels, prompts,
	 * sign-offs) and link lists inside it (`lists`), with the first few quoted (`lines`).
	 */
	leftOut?: { count: number; lists: number };
	stats: PageStats;
	/** Set when the HTML was longer than `EXTRACT_DEFAULTS.maxConvertChars` and only its start was converted. */
	cutAtChars?: number;
	/** Set (to dom.ts's maxDepth) when elements nested deeper were read as one level. */
	flattenedDepth?: number;
	/** Set (to dom.ts's maxParseDepth) when nesting went deeper and the rest of the page was not read. */
	stoppedAtDepth?: number;
	/** For a page that is empty without JavaScript: its text as read from its embedded state, when that is prose. */
	embedded?: EmbeddedText;
}

/** A JavaScript shell's text recovered from the data it carries (providers/direct/embedded-state.ts). */
export interface EmbeddedText {
	/** Where it was read: `__NEXT_DATA__`, `__NUXT_DATA__`, `__INITIAL_STATE__`, `JSON-LD articleBody`, … */
	source: string;
	/** Markdown (or text, as asked), led by the title heading when one is known. */
	markdown: string;
	title?: string;
	references?: LinkReferences;
	/** Set when the text was longer than this and only its start is kept. */
	cutAtChars?: number;
}

export interface ConvertOptions {
	/** "markdown" (default) or "text" (no markup, no links). */
	format?: "markdown" | "text";
	/** Links as numbered references after the text (default), inline `[text](url)`, or none (text only). */
	links?: "references" | "inline" | "none";
}
