// Tavily: POST /search (domains, time_range or start/end dates, raw page content on request, optional answer)
// and POST /extract for fetch, where a URL listed in `failed_results` is a failure. Bearer key.

import { WebAccessError } from "../../engine/errors.ts";
import { recencyWindow } from "../../engine/recency.ts";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { SearchResultItem } from "../../engine/result-types.ts";
import type {
	CallContext,
	HttpRequestSpec,
	ProviderDefinition,
	ProviderFetchResult,
	ProviderSearchResult,
} from "../contract.ts";
import { bearer, httpCall, joinUrl, jsonOrThrow, reclassify, requestHeaders, resolveBaseUrl } from "../http/call.ts";
import { classifyError } from "../http/classify.ts";
import { asArray, asNumber, asRecord, asString, isoDate } from "../http/json.ts";
import { type HttpResponse, httpStatusError, parseError } from "../http/response.ts";
import { callSites, excludeFilters, hostAndDateFilters, includeFilters, resultCount } from "../params/filters.ts";
import { booleanOption, enumOption, stringOption } from "../params/options.ts";
import { definitionFacts } from "../type-facts.ts";
import facts, { TAVILY_EXTRACT_DEPTHS, TAVILY_SEARCH_DEPTHS, TAVILY_TOPICS } from "./facts.ts";

export { TAVILY_EXTRACT_DEPTHS, TAVILY_SEARCH_DEPTHS, TAVILY_TOPICS };

const DEFAULTS = {
	...facts.defaults,
	searchDepth: "basic" as const,
	topic: "general" as const,
	extractDepth: "basic" as const,
	maxResults: 20,
};

/** The filters the backend applies itself; the rest the executor applies, so more results are asked for then. */
const NATIVE = hostAndDateFilters(DEFAULTS.maxResults);

const SITE_SUPPORT = { paths: false };

function headers(call: CallContext): Record<string, string> {
	return requestHeaders(call, { ...bearer(call), accept: "application/json" });
}

function base(call: CallContext): string {
	return resolveBaseUrl(call, DEFAULTS.baseUrl);
}

/** `includeAnswer`: true/false or Tavily's "basic" / "advanced". */
function answerOption(options: Record<string, unknown>): boolean | "basic" | "advanced" {
	const answerLevels: readonly ("basic" | "advanced")[] = ["basic", "advanced"];
	return booleanOption(options, "includeAnswer") ?? enumOption(options, "includeAnswer", answerLevels) ?? false;
}

export function buildSearchRequest(request: SearchRequest, call: CallContext): HttpRequestSpec {
	const options = call.config.options;
	const sites = callSites(request, call);
	const body: Record<string, unknown> = {
		query: request.query,
		search_depth: enumOption(options, "searchDepth", TAVILY_SEARCH_DEPTHS) ?? DEFAULTS.searchDepth,
		topic: enumOption(options, "topic", TAVILY_TOPICS) ?? DEFAULTS.topic,
		max_results: resultCount(request, NATIVE, sites),
	};
	const include = includeFilters(sites.domains, SITE_SUPPORT).values;
	if (include.length > 0) body.include_domains = include;
	const exclude = excludeFilters(sites.excludeDomains, SITE_SUPPORT).values;
	if (exclude.length > 0) body.exclude_domains = exclude;
	if (request.recency) {
		const window = recencyWindow(request.recency, new Date());
		if (window.named) body.time_range = window.named;
		else {
			if (window.from) body.start_date = window.from;
			if (window.to) body.end_date = window.to;
		}
	}
	body.include_answer = answerOption(options);
	body.include_raw_content = request.includeContent ? "markdown" : false;
	body.include_usage = true;
	const country = stringOption(options, "country");
	if (country) body.country = country;
	return { method: "POST", url: joinUrl(base(call), "/search"), headers: headers(call), body };
}

export function buildFetchRequest(request: FetchRequest, call: CallContext): HttpRequestSpec {
	const body = {
		urls: [request.url],
		extract_depth: enumOption(call.config.options, "extractDepth", TAVILY_EXTRACT_DEPTHS) ?? DEFAULTS.extractDepth,
		format: "markdown",
		include_usage: true,
	};
	return { method: "POST", url: joinUrl(base(call), "/extract"), headers: headers(call), body };
}

/** 432 (plan limit) and 433 (pay-as-you-go limit) are Tavily's own "out of credit" statuses. */
function tavilyError(res: HttpResponse, json: unknown, provider: string): WebAccessError | undefined {
	if (res.status !== 432 && res.status !== 433) return undefined;
	const detail = asString(asRecord(asRecord(json)?.detail)?.error);
	return reclassify(httpStatusError(res, provider, detail), { kind: "quota", keyVerdict: "exhausted" });
}

function usageDetails(json: Record<string, unknown>): Record<string, unknown> | undefined {
	const credits = asNumber(asRecord(json.usage)?.credits);
	const requestId = asString(json.request_id);
	if (credits === undefined && requestId === undefined) return undefined;
	return { ...(credits === undefined ? {} : { credits }), ...(requestId === undefined ? {} : { requestId }) };
}

export function parseSearchResponse(
	res: HttpResponse,
	request: SearchRequest,
	call: CallContext,
): ProviderSearchResult {
	const provider = call.config.name;
	const json = asRecord(jsonOrThrow(res, provider, (r, j) => tavilyError(r, j, provider)));
	if (!json || !Array.isArray(json.results)) throw parseError(res, provider, "tavily-shape", "no results array");
	const results: SearchResultItem[] = [];
	for (const raw of json.results) {
		const item = asRecord(raw);
		const url = asString(item?.url);
		if (!item || !url) continue;
		const result: SearchResultItem = { title: asString(item.title) ?? "", url, snippet: asString(item.content) ?? "" };
		const content = asString(item.raw_content);
		if (request.includeContent && content) result.content = content;
		const publishedAt = isoDate(item.published_date);
		if (publishedAt) result.publishedAt = publishedAt;
		const score = asNumber(item.score);
		if (score !== undefined) result.score = score;
		results.push(result);
	}
	const out: ProviderSearchResult = { results };
	const answer = asString(json.answer);
	if (answer) out.answer = answer;
	const details = usageDetails(json);
	if (details) out.details = details;
	return out;
}

export function parseFetchResponse(res: HttpResponse, request: FetchRequest, call: CallContext): ProviderFetchResult {
	const provider = call.config.name;
	const json = asRecord(jsonOrThrow(res, provider, (r, j) => tavilyError(r, j, provider)));
	if (!json) throw parseError(res, provider, "tavily-shape", "no JSON object");
	const item = asArray(json.results)
		.map(asRecord)
		.find((r) => r !== undefined && asString(r.raw_content) !== undefined);
	if (!item) {
		const failed = asRecord(asArray(json.failed_results)[0]);
		const why = asString(failed?.error) ?? "no content returned";
		throw new WebAccessError(`page could not be extracted: ${why.slice(0, 160)}`, {
			kind: "bad-request",
			code: "tavily-extract-failed",
			provider,
			status: res.status,
			url: request.url,
		});
	}
	const out: ProviderFetchResult = { content: asString(item.raw_content) ?? "", extraction: "verbatim" };
	const finalUrl = asString(item.url);
	if (finalUrl) out.finalUrl = finalUrl;
	return out;
}

const tavily: ProviderDefinition = {
	...definitionFacts(facts),
	native: NATIVE,
	search: httpCall(buildSearchRequest, parseSearchResponse),
	fetch: httpCall(buildFetchRequest, parseFetchResponse),
	classify: classifyError,
};

export default tavily;
