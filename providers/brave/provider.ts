// Brave Search API: GET /res/v1/web/search with the key in X-Subscription-Token. Freshness takes day/week/month/
// year and date ranges; site filters go into the query as operators. Brave reports a bad key as 422 and its limits
// in comma-separated X-RateLimit-* headers (one value per window), which give the retry delay.

import type { WebAccessError } from "../../engine/errors.ts";
import { recencyWindow } from "../../engine/recency.ts";
import type { SearchRequest } from "../../engine/request-types.ts";
import type { SearchResultItem } from "../../engine/result-types.ts";
import type { RequestSites } from "../../engine/sites.ts";
import type {
	CallContext,
	HttpRequestSpec,
	NativeFilters,
	ProviderDefinition,
	ProviderSearchResult,
} from "../contract.ts";
import { httpCall, joinUrl, jsonOrThrow, reclassify, requestHeaders, resolveBaseUrl } from "../http/call.ts";
import { classifyError } from "../http/classify.ts";
import { asArray, asRecord, asString, isoDate } from "../http/json.ts";
import { type HttpResponse, httpStatusError, parseError, retryAfterMs } from "../http/response.ts";
import { callSites, excludeFilters, includeFilters, resultCount } from "../params/filters.ts";
import { enumOption, stringOption } from "../params/options.ts";
import { definitionFacts } from "../type-facts.ts";
import facts, { SAFESEARCH } from "./facts.ts";

const DEFAULTS = {
	...facts.defaults,
	maxResults: 20,
	/** Earliest date for a range with no start. */
	openStart: "1970-01-01",
	/** A rate-limit window longer than this is a quota, not a pause. */
	quotaWindowMs: 86_400_000,
};

/** The filters the backend applies itself; the rest the executor applies, so more results are asked for then. */
const NATIVE: NativeFilters = {
	// site: operators steer the ranking; the executor still checks every result.
	hosts: false,
	paths: false,
	excludeHosts: false,
	excludePaths: false,
	recency: true,
	dateRange: true,
	maxResults: DEFAULTS.maxResults,
};

const FRESHNESS = { day: "pd", week: "pw", month: "pm", year: "py" } as const;
const SITE_SUPPORT = { paths: false };
/** Codes that mean the key (subscription) is the problem, whatever the HTTP status. */
const AUTH_CODES = new Set(["SUBSCRIPTION_TOKEN_INVALID", "SUBSCRIPTION_NOT_FOUND", "SUBSCRIPTION_EXPIRED"]);

/** The query with `site:` (OR-ed) and `-site:` operators; Brave reads operators anywhere in `q`. */
function queryWithSites(request: SearchRequest, sites: RequestSites): string {
	const include = includeFilters(sites.domains, SITE_SUPPORT).values.map((site) => `site:${site}`);
	const exclude = excludeFilters(sites.excludeDomains, SITE_SUPPORT).values.map((site) => `-site:${site}`);
	return [request.query, include.join(" OR "), ...exclude].filter((part) => part !== "").join(" ");
}

function freshness(request: SearchRequest): string | undefined {
	if (!request.recency) return undefined;
	const window = recencyWindow(request.recency, new Date());
	if (window.named) return FRESHNESS[window.named];
	const to = window.to ?? new Date().toISOString().slice(0, 10);
	return `${window.from ?? DEFAULTS.openStart}to${to}`;
}

export function buildSearchRequest(request: SearchRequest, call: CallContext): HttpRequestSpec {
	const options = call.config.options;
	const sites = callSites(request, call);
	const url = joinUrl(resolveBaseUrl(call, DEFAULTS.baseUrl), "/res/v1/web/search", {
		q: queryWithSites(request, sites),
		count: resultCount(request, NATIVE, sites),
		freshness: freshness(request),
		extra_snippets: request.includeContent ? true : undefined,
		text_decorations: false,
		country: stringOption(options, "country"),
		search_lang: stringOption(options, "searchLang"),
		safesearch: enumOption(options, "safesearch", SAFESEARCH),
	});
	const headers = requestHeaders(call, { "x-subscription-token": call.key?.secret, accept: "application/json" });
	return { method: "GET", url, headers };
}

function numbers(header: string | undefined): number[] {
	return (header ?? "").split(",").map((part) => Number.parseFloat(part.trim()));
}

/**
 * Delay until the exhausted window resets: `X-RateLimit-Reset: 1, 1209600` pairs with `X-RateLimit-Remaining: 0, 14523`
 * (seconds, one value per window). Without a zero remaining, the shortest window's reset.
 */
export function braveRetryAfterMs(headers: Record<string, string>): number | undefined {
	const resets = numbers(headers["x-ratelimit-reset"]);
	const remaining = numbers(headers["x-ratelimit-remaining"]);
	const exhausted = resets.filter((reset, i) => Number.isFinite(reset) && remaining[i] === 0);
	const candidates = exhausted.length > 0 ? exhausted : resets.filter(Number.isFinite).slice(0, 1);
	if (candidates.length === 0) return retryAfterMs(headers);
	return Math.max(...candidates) * 1000;
}

function braveError(res: HttpResponse, json: unknown, provider: string): WebAccessError {
	const error = asRecord(asRecord(json)?.error) ?? asRecord(asArray(asRecord(json)?.errors)[0]);
	const code = asString(error?.code);
	const base = httpStatusError(res, provider, asString(error?.detail));
	const changes: Parameters<typeof reclassify>[1] = code ? { code: `brave-${code.toLowerCase()}` } : {};
	const missingToken = JSON.stringify(error?.meta ?? "").includes("x-subscription-token");
	if ((code && AUTH_CODES.has(code)) || missingToken)
		return reclassify(base, { ...changes, kind: "auth", keyVerdict: "exhausted" });
	if (res.status === 429) {
		const wait = braveRetryAfterMs(res.headers);
		if (wait !== undefined && wait > DEFAULTS.quotaWindowMs) {
			return reclassify(base, { ...changes, kind: "quota", keyVerdict: "exhausted", retryAfterMs: wait });
		}
		return reclassify(base, { ...changes, retryAfterMs: wait });
	}
	return reclassify(base, changes);
}

/** Descriptions are plain text with text_decorations=false, but entities and stray tags still occur. */
function plain(text: string): string {
	return text
		.replace(/<[^>]+>/g, "")
		.replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (entity) => ENTITIES[entity] ?? entity)
		.trim();
}

const ENTITIES: Record<string, string> = {
	"&amp;": "&",
	"&lt;": "<",
	"&gt;": ">",
	"&quot;": '"',
	"&#39;": "'",
	"&#x27;": "'",
	"&nbsp;": " ",
};

export function parseSearchResponse(
	res: HttpResponse,
	request: SearchRequest,
	call: CallContext,
): ProviderSearchResult {
	const provider = call.config.name;
	const json = asRecord(jsonOrThrow(res, provider, (r, j) => braveError(r, j, provider)));
	if (!json) throw parseError(res, provider, "brave-shape", "no JSON object");
	// `web` is absent when there are no web results: an empty answer, not an error.
	const results: SearchResultItem[] = [];
	for (const raw of asArray(asRecord(json.web)?.results)) {
		const item = asRecord(raw);
		const url = asString(item?.url);
		if (!item || !url) continue;
		const result: SearchResultItem = {
			title: plain(asString(item.title) ?? ""),
			url,
			snippet: plain(asString(item.description) ?? ""),
		};
		const extra = asArray(item.extra_snippets).filter((s): s is string => typeof s === "string");
		if (request.includeContent && extra.length > 0) result.content = extra.map(plain).join("\n\n");
		const publishedAt = isoDate(item.page_age) ?? isoDate(item.age);
		if (publishedAt) result.publishedAt = publishedAt;
		results.push(result);
	}
	return { results };
}

const brave: ProviderDefinition = {
	...definitionFacts(facts),
	native: NATIVE,
	search: httpCall(buildSearchRequest, parseSearchResponse),
	classify: classifyError,
};

export default brave;
