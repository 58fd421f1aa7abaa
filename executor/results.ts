// Post-processing of provider answers whatever the backend did: search results normalised, deduplicated, filtered
// by domains/excludeDomains/recency, cut and capped; fetch text windowed by offset/maxChars. Pure.

import { citedIn, formatReferences } from "../engine/link-references.ts";
import { isNamedRecency, recencyBounds } from "../engine/recency.ts";
import type { FetchRequest, Recency, SearchRequest } from "../engine/request-types.ts";
import { REQUEST_LIMITS } from "../engine/requests.ts";
import type { FetchResult, SearchResultItem } from "../engine/result-types.ts";
import { matchesUrl, type RequestSites, requestSites } from "../engine/sites.ts";
import { withoutTrackingParams } from "../engine/url-tracking.ts";
import type { NativeFilters, ProviderFetchResult, ProviderSearchResult } from "../providers/contract.ts";

export const RESULT_DEFAULTS = {
	snippetChars: 500,
	contentChars: 4000,
	cutMarker: "[…]",
};

function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * A URL the WHATWG parser returns unchanged, with nothing to strip: lower-case http(s) scheme and host (letters,
 * digits, hyphens; the last label starts with a letter, so no IPv4 form; no xn-- label, which IDNA may reject),
 * no port, userinfo, query or fragment, and a path of characters the parser never encodes (no dot segment, no
 * %2e). Most result URLs look like this, and skip the parse (test/results.test.ts checks it against `new URL`).
 */
const PLAIN_URL =
	/^https?:\/\/(?:(?!xn--)[a-z0-9-]+\.)*(?!xn--)[a-z][a-z0-9-]*\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%(?!2[eE])[0-9A-Fa-f]{2})*$/;
const DOT_SEGMENT = /\/\.{1,2}(?:\/|$)/;

/** Lower-case host, no fragment, no tracking parameters (engine/url-tracking.ts; the others keep their spelling). */
export function normalizeResultUrl(raw: string): string | undefined {
	if (PLAIN_URL.test(raw) && !DOT_SEGMENT.test(raw)) return raw;
	let url: URL;
	try {
		url = new URL(raw.trim());
	} catch {
		return undefined;
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
	url.hash = "";
	if (url.search !== "") url.search = withoutTrackingParams(url.search);
	return url.href;
}

/** Cuts `text` to `limit` characters (never inside a surrogate pair) and marks the cut: cutTo, with the cut said. */
export function cutText(text: string, limit: number): { text: string; cut: boolean } {
	const out = cutTo(text, limit);
	return { text: out, cut: out !== text };
}

/** The cut text: `text` itself when it is within `limit` (a cut always adds the marker, so it is another string). */
function cutTo(text: string, limit: number): string {
	if (text.length <= limit) return text;
	const code = text.charCodeAt(limit - 1);
	const end = code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
	return `${text.slice(0, end).trimEnd()} ${RESULT_DEFAULTS.cutMarker}`;
}

/** Up to this many results, a duplicate URL is found by a scan of those kept rather than a Set per call. */
const SMALL_LIST = 16;

/** Whether one of the first `count` items has this URL. */
function hasUrl(items: readonly SearchResultItem[], count: number, url: string): boolean {
	for (let i = 0; i < count; i++) if (items[i]!.url === url) return true;
	return false;
}

function needsClientRecency(recency: Recency | undefined, native: NativeFilters): recency is Recency {
	if (recency === undefined) return false;
	return isNamedRecency(recency) ? !native.recency : !native.dateRange;
}

export interface ProcessedSearch {
	results: SearchResultItem[];
	warnings: string[];
}

export function processSearch(
	raw: ProviderSearchResult,
	request: SearchRequest,
	native: NativeFilters,
	nowMs: number,
	/** The request's site filters as plan() parsed them (Plan.sites); parsed here only for a caller without a plan. */
	sites: RequestSites = requestSites(request),
): ProcessedSearch {
	const warnings: string[] = [];
	const all = raw.results;
	const seen = all.length > SMALL_LIST ? new Set<string>() : undefined;
	let invalid = 0;
	// The provider's own list (made for this answer alone) while every item passes as it is: the usual answer makes
	// no list of its own here, and one is made from the first item that is dropped or copied on.
	let copied: SearchResultItem[] | undefined;
	for (let i = 0; i < all.length; i++) {
		const item = all[i]!;
		const url = normalizeResultUrl(item.url);
		const duplicate = url !== undefined && (seen ? seen.has(url) : hasUrl(copied ?? all, copied?.length ?? i, url));
		if (url !== undefined && !duplicate && url === item.url) {
			seen?.add(url);
			copied?.push(item);
			continue;
		}
		copied ??= all.slice(0, i);
		if (url === undefined) invalid++;
		else if (!duplicate) {
			seen?.add(url);
			// Copied here when its URL changes; below, only when its text is cut or its content left out.
			copied.push({ ...item, url });
		}
	}
	let items = copied ?? all;
	if (invalid > 0) warnings.push(`dropped ${plural(invalid, "result")} without a valid http(s) URL`);

	const include = sites.domains;
	if (include.length > 0) {
		const before = items.length;
		items = items.filter((item) => include.some((pattern) => matchesUrl(pattern, item.url)));
		if (items.length < before) warnings.push(`removed ${plural(before - items.length, "result")} outside domains`);
	}
	const exclude = sites.excludeDomains;
	if (exclude.length > 0) {
		const before = items.length;
		items = items.filter((item) => !exclude.some((pattern) => matchesUrl(pattern, item.url)));
		if (items.length < before) warnings.push(`removed ${plural(before - items.length, "result")} in excludeDomains`);
	}

	if (needsClientRecency(request.recency, native)) {
		const { from, to } = recencyBounds(request.recency, nowMs);
		const before = items.length;
		const undated = items.filter((item) => item.publishedAt === undefined).length;
		items = items.filter((item) => {
			const date = item.publishedAt?.slice(0, 10);
			return date === undefined || ((from === undefined || date >= from) && (to === undefined || date <= to));
		});
		const kept = undated > 0 ? `; ${plural(undated, "undated result")} kept` : "";
		warnings.push(
			`recency applied to the results by publishedAt (the backend cannot filter by date): removed ${before - items.length}${kept}`,
		);
	}

	let cuts = 0;
	// As above: the list itself when every item it keeps is kept as it is.
	let results: SearchResultItem[] | undefined;
	const kept = Math.min(items.length, Math.max(0, request.maxResults));
	for (let i = 0; i < kept; i++) {
		const item = items[i]!;
		const text = item.snippet ?? "";
		const snippet = cutTo(text, RESULT_DEFAULTS.snippetChars);
		if (snippet !== text) cuts++;
		const keepsContent = request.includeContent && item.content !== undefined;
		const content = keepsContent ? cutTo(item.content!, RESULT_DEFAULTS.contentChars) : undefined;
		if (content !== item.content && keepsContent) cuts++;
		// An item the provider made for this answer alone, kept as it is unless its text is cut or its content left out.
		if (snippet === item.snippet && content === item.content && (keepsContent || !Object.hasOwn(item, "content"))) {
			results?.push(item);
			continue;
		}
		const out: SearchResultItem = { ...item, snippet };
		if (keepsContent) out.content = content;
		else if (Object.hasOwn(out, "content")) delete out.content;
		results ??= items.slice(0, i);
		results.push(out);
	}
	if (cuts > 0) {
		warnings.push(
			`cut ${plural(cuts, "snippet or excerpt")} (snippets at ${RESULT_DEFAULTS.snippetChars}, content at ${RESULT_DEFAULTS.contentChars} characters, marked ${RESULT_DEFAULTS.cutMarker}); use web_fetch for the full page`,
		);
	}
	return { results: results ?? (kept === items.length ? items : items.slice(0, kept)), warnings };
}

/** maxChars within the request limits (engine/requests.ts: 1,000–100,000, default 20,000); offset ≥ 0. */
export function fetchWindow(request: FetchRequest): { offset: number; maxChars: number } {
	const wanted =
		Number.isFinite(request.maxChars) && request.maxChars > 0 ? request.maxChars : REQUEST_LIMITS.maxCharsDefault;
	const maxChars = Math.min(REQUEST_LIMITS.maxCharsMax, Math.max(REQUEST_LIMITS.maxCharsMin, Math.floor(wanted)));
	const offset = Number.isFinite(request.offset) ? Math.max(0, Math.floor(request.offset)) : 0;
	return { offset, maxChars };
}

export type FetchWindow = Pick<FetchResult, "content" | "truncated" | "nextOffset" | "totalChars"> & {
	warnings: string[];
};

/** The requested window of the text; a provider that paged itself (`window`) already returned it. */
export function windowFetch(raw: ProviderFetchResult, request: FetchRequest): FetchWindow {
	const warnings: string[] = [];
	if (raw.extraction === "model") {
		warnings.push(
			"extraction: model — a language model read the page and wrote this text; it may be incomplete or reworded",
		);
	}
	if (raw.window !== undefined) {
		const out: FetchWindow = { content: raw.content, truncated: raw.window.truncated, warnings };
		if (raw.window.nextOffset !== undefined) out.nextOffset = raw.window.nextOffset;
		if (raw.window.totalChars !== undefined) out.totalChars = raw.window.totalChars;
		return out;
	}
	const { offset, maxChars } = fetchWindow(request);
	const total = raw.content.length;
	let end = windowEnd(raw.content, offset, Math.min(total, offset + maxChars));
	let content = offset < total ? raw.content.slice(offset, end) : "";
	const refs = raw.references;
	if (refs !== undefined && content !== "") {
		// The references this window cites follow it, inside maxChars: the text gives up what the list needs (down to
		// half the window). The list only shrinks with the text, so a few rounds settle it.
		let list = formatReferences(refs, citedIn(content, refs));
		for (let round = 0; round < WINDOW_ROUNDS && list !== "" && content.length + 2 + list.length > maxChars; round++) {
			// At least half the window stays text, so paging a page of long URLs still moves on.
			const over = content.length + 2 + list.length - maxChars;
			const next = windowEnd(
				raw.content,
				offset,
				Math.max(Math.min(end, offset + Math.ceil(maxChars / 2)), end - over),
			);
			if (next === end) break;
			end = next;
			content = raw.content.slice(offset, end);
			list = formatReferences(refs, citedIn(content, refs));
		}
		if (list !== "") content = `${content}\n\n${list}`;
	}
	if (offset >= total && offset > 0)
		warnings.push(`offset ${offset} is past the end of the text (${total} characters)`);
	const truncated = offset < total && end < total;
	const out: FetchWindow = { content, truncated, totalChars: total, warnings };
	if (truncated) out.nextOffset = end;
	return out;
}

/** Rounds of fitting a window's reference list into maxChars (each cuts the text by what is over). */
const WINDOW_ROUNDS = 6;

/** `end`, moved back one when it would split a surrogate pair (the window stays a well-formed string). */
function windowEnd(text: string, offset: number, end: number): number {
	const last = text.charCodeAt(end - 1);
	return end < text.length && end - 1 > offset && last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}
