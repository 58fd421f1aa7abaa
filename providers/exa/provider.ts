// Exa: search with POST /search (domain filters with paths, published-date recency, optional page text) and
// fetch with POST /contents, where a per-URL failure arrives as a 200 with `statuses[].error` and is a failure here.

import { WebAccessError } from "../../engine/errors.ts";
import { recencyWindow } from "../../engine/recency.ts";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { SearchResultItem } from "../../engine/result-types.ts";
import type {
	CallContext,
	HttpRequestSpec,
	NativeFilters,
	ProviderDefinition,
	ProviderFetchResult,
	ProviderSearchResult,
} from "../contract.ts";
import { httpCall, joinUrl, jsonOrThrow, reclassify, requestHeaders, resolveBaseUrl } from "../http/call.ts";
import { classifyError } from "../http/classify.ts";
import { asArray, asNumber, asRecord, asString, isoDate } from "../http/json.ts";
import { type HttpResponse, httpStatusError, parseError } from "../http/response.ts";
import { callSites, excludeFilters, includeFilters, resultCount } from "../params/filters.ts";
import { enumOption, numberOption } from "../params/options.ts";
import { definitionFacts } from "../type-facts.ts";
import facts, { EXA_CATEGORIES, EXA_SEARCH_TYPES } from "./facts.ts";

export { EXA_CATEGORIES, EXA_SEARCH_TYPES };

const DEFAULTS = {
	...facts.defaults,
	searchType: "auto" as const,
	maxResults: 100,
	highlightChars: 500,
	textChars: 10_000,
	snippetChars: 300,
};

/** The filters the backend applies itself; the rest the executor applies, so more results are asked for then. */
const NATIVE: NativeFilters = {
	hosts: true,
	paths: true,
	excludeHosts: true,
	excludePaths: true,
	recency: true,
	dateRange: true,
	maxResults: DEFAULTS.maxResults,
};

const SITE_SUPPORT = { paths: true, subdomainWildcard: true };
/** Tags of a 403 that are about the content, not the key. */
const CONTENT_TAGS = new Set(["ROBOTS_FILTER_FAILED", "PROHIBITED_CONTENT", "CONTENT_FILTER_ERROR"]);

function headers(call: CallContext): Record<string, string> {
	return requestHeaders(call, { "x-api-key": call.key?.secret, accept: "application/json" });
}

function base(call: CallContext): string {
	return resolveBaseUrl(call, DEFAULTS.baseUrl);
}

/** A search as sent: the request, the /search body and the warnings that go with it, worked out once per call. */
interface PlannedSearch {
	request: SearchRequest;
	body: Record<string, unknown>;
	warnings: string[];
}

/** What a search asks of its results' contents without page text or a maximum age (the usual search): one object. */
const HIGHLIGHTS_ONLY = Object.freeze({ highlights: Object.freeze({ maxCharacters: DEFAULTS.highlightChars }) });

function searchPlan(request: SearchRequest, call: CallContext): PlannedSearch {
	const options = call.config.options;
	const warnings: string[] = [];
	const sites = callSites(request, call);
	const body: Record<string, unknown> = {
		query: request.query,
		type: enumOption(options, "searchType", EXA_SEARCH_TYPES) ?? DEFAULTS.searchType,
		numResults: resultCount(request, NATIVE, sites),
	};
	const include = includeFilters(sites.domains, SITE_SUPPORT);
	if (include.values.length > 0) body.includeDomains = include.values;
	if (include.widened.length > 0) warnings.push(`exa: sent a wider site filter for ${include.widened.join(", ")}`);
	const exclude = excludeFilters(sites.excludeDomains, SITE_SUPPORT);
	if (exclude.values.length > 0) body.excludeDomains = exclude.values;
	if (request.recency) {
		const window = recencyWindow(request.recency, new Date());
		const start = window.since ?? (window.from ? `${window.from}T00:00:00.000Z` : undefined);
		if (start) body.startPublishedDate = start;
		if (window.to) body.endPublishedDate = `${window.to}T23:59:59.999Z`;
		warnings.push("exa: recency uses startPublishedDate: pages without a published date are dropped");
	}
	const category = enumOption(options, "category", EXA_CATEGORIES);
	if (category) body.category = category;
	const maxAgeHours = numberOption(options, "maxAgeHours");
	if (!request.includeContent && maxAgeHours === undefined) body.contents = HIGHLIGHTS_ONLY;
	else {
		const contents: Record<string, unknown> = { highlights: HIGHLIGHTS_ONLY.highlights };
		if (request.includeContent) contents.text = { maxCharacters: DEFAULTS.textChars };
		if (maxAgeHours !== undefined) contents.maxAgeHours = maxAgeHours;
		body.contents = contents;
	}
	return { request, body, warnings };
}

function buildSearchRequest(planned: PlannedSearch, call: CallContext): HttpRequestSpec {
	return { method: "POST", url: joinUrl(base(call), "/search"), headers: headers(call), body: planned.body };
}

export function buildFetchRequest(request: FetchRequest, call: CallContext): HttpRequestSpec {
	const body: Record<string, unknown> = { urls: [request.url], text: true };
	const maxAgeHours = numberOption(call.config.options, "maxAgeHours");
	if (maxAgeHours !== undefined) body.maxAgeHours = maxAgeHours;
	return { method: "POST", url: joinUrl(base(call), "/contents"), headers: headers(call), body };
}

/** Exa's `{error, tag}` envelope: the tag becomes the code; content refusals are not the key's fault. */
function exaError(res: HttpResponse, json: unknown, provider: string): WebAccessError | undefined {
	const record = asRecord(json);
	const tag = asString(record?.tag);
	const error = httpStatusError(res, provider, asString(record?.error));
	if (!tag) return error;
	const code = `exa-${tag.toLowerCase()}`;
	if (CONTENT_TAGS.has(tag)) return reclassify(error, { code, kind: "bad-request", keyVerdict: undefined });
	return reclassify(error, { code });
}

function costOf(json: Record<string, unknown>): number | undefined {
	return asNumber(asRecord(json.costDollars)?.total);
}

function resultsOf(
	res: HttpResponse,
	json: unknown,
	provider: string,
): { record: Record<string, unknown>; items: unknown[] } {
	const record = asRecord(json);
	if (!record || !Array.isArray(record.results)) throw parseError(res, provider, "exa-shape", "no results array");
	return { record, items: record.results };
}

/**
 * A result's string highlights joined by " … " ("" without any). The usual one or two strings are joined without a
 * filtered copy of the list, which every result of every answer made.
 */
function highlightsOf(value: unknown): string {
	if (!Array.isArray(value)) return "";
	let out: string | undefined;
	for (const highlight of value) {
		if (typeof highlight === "string") out = out === undefined ? highlight : `${out} … ${highlight}`;
	}
	return out ?? "";
}

function parseSearchResponse(res: HttpResponse, planned: PlannedSearch, call: CallContext): ProviderSearchResult {
	const { request } = planned;
	const provider = call.config.name;
	const { record, items } = resultsOf(
		res,
		jsonOrThrow(res, provider, (r, j) => exaError(r, j, provider)),
		provider,
	);
	const results: SearchResultItem[] = [];
	for (const raw of items) {
		const item = asRecord(raw);
		const url = asString(item?.url);
		if (!item || !url) continue;
		const text = asString(item.text);
		const snippet =
			highlightsOf(item.highlights) || asString(item.summary) || (text ?? "").slice(0, DEFAULTS.snippetChars).trim();
		const result: SearchResultItem = { title: asString(item.title) ?? "", url, snippet };
		if (request.includeContent && text) result.content = text;
		const publishedAt = isoDate(item.publishedDate);
		if (publishedAt) result.publishedAt = publishedAt;
		const score = asNumber(item.score);
		if (score !== undefined) result.score = score;
		results.push(result);
	}
	const out: ProviderSearchResult = { results };
	const costUsd = costOf(record);
	if (costUsd !== undefined) out.costUsd = costUsd;
	if (planned.warnings.length > 0) out.warnings = planned.warnings;
	return out;
}

/** A `statuses[]` error for the fetched URL: Exa answered 200, but the page could not be had. */
function statusFailure(
	res: HttpResponse,
	status: Record<string, unknown>,
	request: FetchRequest,
	provider: string,
): WebAccessError {
	const error = asRecord(status.error);
	const tag = asString(error?.tag) ?? "CRAWL_UNKNOWN_ERROR";
	const pageStatus = asNumber(error?.httpStatusCode);
	// A per-URL status is about that page, not about Exa: it must not put Exa into cooldown for other calls.
	const kind = "bad-request";
	const detail = pageStatus === undefined ? tag : `${tag}, page status ${pageStatus}`;
	return new WebAccessError(`page could not be fetched (${detail})`, {
		kind,
		code: `exa-${tag.toLowerCase()}`,
		provider,
		status: res.status,
		url: request.url,
	});
}

export function parseFetchResponse(res: HttpResponse, request: FetchRequest, call: CallContext): ProviderFetchResult {
	const provider = call.config.name;
	const { record, items } = resultsOf(
		res,
		jsonOrThrow(res, provider, (r, j) => exaError(r, j, provider)),
		provider,
	);
	const statuses = asArray(record.statuses).map(asRecord);
	const status = statuses.find((s) => s?.id === request.url) ?? (statuses.length === 1 ? statuses[0] : undefined);
	if (status && status.status === "error") throw statusFailure(res, status, request, provider);
	const item = asRecord(items.find((i) => asRecord(i)?.url === request.url) ?? items[0]);
	if (!item) {
		throw new WebAccessError("no content returned for this URL", {
			kind: "bad-request",
			code: "exa-no-content",
			provider,
			status: res.status,
			url: request.url,
		});
	}
	const out: ProviderFetchResult = { content: asString(item.text) ?? "", extraction: "verbatim" };
	const title = asString(item.title);
	if (title) out.title = title;
	const finalUrl = asString(item.url);
	if (finalUrl) out.finalUrl = finalUrl;
	const costUsd = costOf(record);
	if (costUsd !== undefined) out.costUsd = costUsd;
	return out;
}

const sendSearch = httpCall(buildSearchRequest, parseSearchResponse);

const exa: ProviderDefinition = {
	...definitionFacts(facts),
	native: NATIVE,
	search: (request, call) => sendSearch(searchPlan(request, call), call),
	fetch: httpCall(buildFetchRequest, parseFetchResponse),
	classify: classifyError,
};

export default exa;
