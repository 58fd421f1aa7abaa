// What the executor answers with: a winning provider answer turned into the SearchResult or FetchResult the tools
// return (warnings for a fallback or a format the backend cannot give), and a search answer judged ok or empty.

import { WebAccessError } from "../engine/errors.ts";
import type { FetchRequest, Plan, SearchRequest } from "../engine/request-types.ts";
import type { FetchResult, SearchResult } from "../engine/result-types.ts";
import type { RequestSites } from "../engine/sites.ts";
import type { ProviderFetchResult, ProviderSearchResult } from "../providers/contract.ts";
import { copyPageFacts } from "./result-copy.ts";
import { type ProcessedSearch, processSearch, windowFetch } from "./results.ts";
import type { Evaluation, WalkWin } from "./walk-types.ts";

export interface SearchValue {
	raw: ProviderSearchResult;
	processed: ProcessedSearch;
}

/** A fetch answer kept in the cache before windowing, so paging through a page does not fetch it again. */
export interface FetchHit {
	win: WalkWin<ProviderFetchResult>;
	/** Read from the team's cache: this call's result says it is cached. */
	team?: true;
}

function unique(lines: string[]): string[] {
	return lines.length < 2 ? lines : [...new Set(lines)];
}

/** No warning: shared, never changed (the callers spread it). */
const NONE: readonly string[] = Object.freeze([]);

function fallbackWarning(plan: Plan, provider: string, costUsd: number | undefined): readonly string[] {
	const first = plan.steps[0]?.provider;
	if (first === undefined || first === provider) return NONE;
	const cost = costUsd === undefined ? "no cost reported" : `reported cost $${costUsd}`;
	return [`answered by ${provider} after a fallback from ${first}; ${cost}`];
}

/** Text without markup was asked for, but this backend answers in markdown only. */
function formatWarning(request: FetchRequest, raw: ProviderFetchResult, provider: string): string[] {
	if (request.format !== "text" || (raw.format ?? "markdown") !== "markdown") return [];
	return [`${provider} returns markdown: format "text" is the keyless fetcher's (direct)`];
}

export function evaluateSearch(
	raw: ProviderSearchResult,
	request: SearchRequest,
	native: Parameters<typeof processSearch>[2],
	nowMs: number,
	sites: RequestSites | undefined,
): Evaluation<SearchValue> {
	const processed = processSearch(raw, request, native, nowMs, sites);
	if (processed.results.length > 0) return { outcome: "ok", value: { raw, processed } };
	const restricted = request.domains.length > 0;
	// An answer without sources still answers an open question, but says nothing about the requested sites.
	if (!restricted && raw.answer?.trim()) return { outcome: "ok", value: { raw, processed } };
	const filtered = raw.results.length > 0 ? ` (${raw.results.length} removed by filters)` : "";
	return { outcome: "empty", value: { raw, processed }, reason: `no results${filtered}` };
}

export function mismatch(capability: string): WebAccessError {
	return new WebAccessError(`executor.${capability} needs a ${capability} plan`, {
		kind: "usage",
		code: "plan-mismatch",
	});
}

/** A search's result from its walk's win. */
export function searchResult(
	plan: Plan,
	request: SearchRequest,
	win: WalkWin<SearchValue>,
	latencyMs: number,
): SearchResult {
	const { raw, processed } = win.value;
	const fallback = fallbackWarning(plan, win.provider, raw.costUsd);
	// The usual answer has no warning of any kind: one new empty list, not three spread into a fourth.
	const warnings =
		raw.warnings === undefined && processed.warnings.length === 0 && fallback.length === 0
			? []
			: unique([...(raw.warnings ?? []), ...processed.warnings, ...fallback]);
	const result: SearchResult = {
		provider: win.provider,
		query: request.query,
		results: processed.results,
		attempts: win.attempts,
		warnings,
		latencyMs,
	};
	if (raw.answer !== undefined) result.answer = raw.answer;
	if (raw.costUsd !== undefined) result.costUsd = raw.costUsd;
	return result;
}

/** A fetch's result from its (cached) answer: the window the request asks for. */
export function fetchResult(plan: Plan, hit: FetchHit, latencyMs: number, cached: boolean): FetchResult {
	const request = plan.request;
	if (request.kind !== "fetch") throw mismatch("fetch");
	const raw = hit.win.value;
	const window = windowFetch(raw, request);
	const result: FetchResult = {
		provider: hit.win.provider,
		url: request.url,
		content: window.content,
		extraction: raw.extraction,
		truncated: window.truncated,
		attempts: hit.win.attempts.map((attempt) => ({ ...attempt })),
		warnings: unique([
			...(raw.warnings ?? []),
			...window.warnings,
			...formatWarning(request, raw, hit.win.provider),
			...fallbackWarning(plan, hit.win.provider, raw.costUsd),
		]),
		latencyMs,
	};
	result.format = raw.format ?? "markdown";
	if (raw.finalUrl !== undefined) result.finalUrl = raw.finalUrl;
	if (raw.title !== undefined) result.title = raw.title;
	copyPageFacts(raw, result);
	if (window.nextOffset !== undefined) result.nextOffset = window.nextOffset;
	if (window.totalChars !== undefined) result.totalChars = window.totalChars;
	if (raw.crawledAt !== undefined) result.crawledAt = raw.crawledAt;
	if (raw.costUsd !== undefined) result.costUsd = raw.costUsd;
	if (cached) result.cached = true;
	return result;
}
