// Attempts and results: the shape the tools return as structuredContent and the CLI prints with --json.
// Plain data only. Change a field name only by adding.

import type { ErrorClass } from "./error-classes.ts";
import type { Extraction, FetchFormat } from "./request-types.ts";

export interface Attempt {
	provider: string;
	outcome: "ok" | "empty" | "error" | "skipped";
	reason?: string;
	latencyMs?: number;
	/** Key-pool label (never the key). */
	key?: string;
	/** Failed or skipped attempts: the error class, or "unavailable" for a provider that was not tried. */
	kind?: ErrorClass | "unavailable";
	/** Failed or skipped attempts: whether the same call could succeed later. */
	retryable?: boolean;
	/** When the backend said how long to wait (Retry-After, rate-limit resets). */
	retryAfterMs?: number;
	/** Failed or skipped attempts: one line on what would make this provider work. */
	hint?: string;
}

export interface SearchResultItem {
	title: string;
	url: string;
	snippet: string;
	content?: string;
	/** YYYY-MM-DD */
	publishedAt?: string;
	score?: number;
}

export interface SearchResult {
	provider: string;
	query: string;
	answer?: string;
	results: SearchResultItem[];
	attempts: Attempt[];
	warnings: string[];
	costUsd?: number;
	latencyMs: number;
	cached?: boolean;
}

/**
 * How a fetcher read a page's HTML: as the kind of page it is (its article, a listing's entries, a thread's posts, a
 * product's description and specifications, a docs or service page's sections), or as its whole readable text.
 */
export type ExtractedAs =
	| "article"
	| "listing"
	| "collection"
	| "documentation"
	| "forum"
	| "product"
	| "service"
	| "page-text";

export interface FetchResult {
	provider: string;
	url: string;
	finalUrl?: string;
	title?: string;
	/** The page's author, from its metadata (meta tags, JSON-LD), when it names one. */
	author?: string;
	/** When the page says it was published (ISO 8601), from its metadata. */
	publishedAt?: string;
	/** Every author the page names (`author` joins them), from its metadata. */
	authors?: string[];
	/** When the page says it was last changed (ISO 8601), from its metadata. */
	modifiedAt?: string;
	/** The site's own name (`og:site_name`, the JSON-LD publisher or WebSite). */
	siteName?: string;
	/** The page's declared language tag (`en`, `de-AT`). */
	language?: string;
	/** The URL the page names as its canonical one (absolute, http or https). */
	canonicalUrl?: string;
	content: string;
	/** What `content` is: markdown, text without markup, or HTML. */
	format?: FetchFormat;
	extraction: Extraction;
	/** HTML read by a keyless fetcher: which way the page was read (absent for API backends and non-HTML bodies). */
	extractedAs?: ExtractedAs;
	truncated: boolean;
	nextOffset?: number;
	totalChars?: number;
	crawledAt?: string;
	attempts: Attempt[];
	warnings: string[];
	costUsd?: number;
	latencyMs: number;
	cached?: boolean;
}
