// A SearXNG instance's JSON API: `GET <baseUrl>/search?q=…&format=json`, keyless, baseUrl required.
// SearXNG has no result-count parameter: the whole page goes to the executor, which cuts to maxResults after its
// filters and de-duplication (a cut here dropped matching results further down the page). Site filters go into q as
// site:/-site: operators, which the engines read; time_range only steers the engines that take it, so the executor
// filters by domain and date afterwards. A 403 HTML page is the instance saying its settings do not enable the json
// format, and the error says how to fix that.

import { WebAccessError } from "../../engine/errors.ts";
import { isNamedRecency } from "../../engine/recency.ts";
import type { SearchRequest } from "../../engine/request-types.ts";
import type { SearchResultItem } from "../../engine/result-types.ts";
import type { RequestSites } from "../../engine/sites.ts";
import type { CallContext, HttpRequestSpec, ProviderDefinition, ProviderSearchResult } from "../contract.ts";
import { httpCall, jsonOrThrow, requestHeaders, resolveBaseUrl } from "../http/call.ts";
import { classifyError } from "../http/classify.ts";
import { asArray, asNumber, asRecord, asString, isoDate } from "../http/json.ts";
import type { HttpResponse } from "../http/response.ts";
import { parseError } from "../http/response.ts";
import { callSites, excludeFilters, includeFilters } from "../params/filters.ts";
import { numberOption, stringArrayOption, stringOption } from "../params/options.ts";
import { definitionFacts } from "../type-facts.ts";
import facts from "./facts.ts";

const DEFAULTS = {
	/** One page of a typical instance (results merged from several engines); used as native.maxResults. */
	pageSize: 20,
} as const;

const SITE_SUPPORT = { paths: false };

/** The query with `site:` operators (OR-ed, grouped when several) and `-site:` ones, as the engines read them. */
function queryWithSites(request: SearchRequest, sites: RequestSites): string {
	const include = includeFilters(sites.domains, SITE_SUPPORT).values.map((site) => `site:${site}`);
	const exclude = excludeFilters(sites.excludeDomains, SITE_SUPPORT).values.map((site) => `-site:${site}`);
	const any = include.length > 1 ? `(${include.join(" OR ")})` : (include[0] ?? "");
	return [request.query, any, ...exclude].filter((part) => part !== "").join(" ");
}

export function buildSearchRequest(request: SearchRequest, call: CallContext): HttpRequestSpec {
	const options = call.config.options;
	const base = resolveBaseUrl(call, undefined);
	const params = new URLSearchParams({ q: queryWithSites(request, callSites(request, call)), format: "json" });
	const categories = stringArrayOption(options, "categories");
	if (categories !== undefined && categories.length > 0) params.set("categories", categories.join(","));
	const language = stringOption(options, "language");
	if (language !== undefined) params.set("language", language);
	// Named windows steer the engines that take time_range; the executor still checks dates (native.recency false).
	// Date ranges have no SearXNG form at all.
	if (request.recency !== undefined && isNamedRecency(request.recency)) params.set("time_range", request.recency);
	const pageno = numberOption(options, "pageno");
	if (pageno !== undefined) params.set("pageno", String(pageno));
	const safesearch = numberOption(options, "safesearch");
	if (safesearch !== undefined) params.set("safesearch", String(safesearch));
	const engines = stringArrayOption(options, "engines");
	if (engines !== undefined && engines.length > 0) params.set("engines", engines.join(","));
	return {
		method: "GET",
		url: `${base}/search?${params}`,
		headers: requestHeaders(call, { accept: "application/json" }),
	};
}

export function parseSearchResponse(
	res: HttpResponse,
	request: SearchRequest,
	call: CallContext,
): ProviderSearchResult {
	const provider = call.config.name;
	const body = asRecord(
		jsonOrThrow(res, provider, () =>
			res.status === 403 && /^\s*</.test(res.text) ? jsonDisabledError(res, provider) : undefined,
		),
	);
	if (body === undefined || !Array.isArray(body.results)) {
		throw parseError(res, provider, "searxng-shape", "JSON without a results array");
	}
	const results: SearchResultItem[] = [];
	for (const item of body.results.map(asRecord)) {
		const url = asString(item?.url);
		if (item === undefined || !url) continue;
		const entry: SearchResultItem = { title: asString(item.title) || url, url, snippet: asString(item.content) ?? "" };
		const publishedAt = isoDate(item.publishedDate);
		if (publishedAt !== undefined) entry.publishedAt = publishedAt;
		const score = asNumber(item.score);
		if (score !== undefined) entry.score = score;
		results.push(entry);
	}
	const out: ProviderSearchResult = { results };
	const answers = asArray(body.answers)
		.map((answer) => asString(asRecord(answer)?.answer) ?? "")
		.filter((answer) => answer !== "");
	if (answers.length > 0) out.answer = answers.join("\n\n");
	const unresponsive = asArray(body.unresponsive_engines)
		.map((pair) => asArray(pair).map(asString))
		.filter(([engine]) => engine)
		.map(([engine, why]) => (why ? `${engine} (${why})` : `${engine}`));
	const warnings: string[] = [];
	if (unresponsive.length > 0) warnings.push(`${provider}: engines that did not answer: ${unresponsive.join(", ")}`);
	if (request.includeContent) {
		warnings.push(
			`${provider}: SearXNG returns snippets only, so includeContent adds no page text (fetch a result's URL to read it)`,
		);
	}
	if (warnings.length > 0) out.warnings = warnings;
	const details: Record<string, unknown> = {};
	for (const key of ["infoboxes", "suggestions", "corrections", "unresponsive_engines"] as const) {
		if (asArray(body[key]).length > 0) details[key] = body[key];
	}
	if (Object.keys(details).length > 0) out.details = details;
	return out;
}

function jsonDisabledError(res: HttpResponse, provider: string): WebAccessError {
	return new WebAccessError(
		"HTTP 403: JSON output is disabled on this SearXNG instance; enable it by adding `json` to `search.formats` in the instance's settings.yml",
		{ kind: "bad-request", code: "searxng-json-disabled", provider, status: res.status, keyVerdict: "fatal" },
	);
}

const definition: ProviderDefinition = {
	...definitionFacts(facts),
	native: {
		hosts: false,
		paths: false,
		excludeHosts: false,
		excludePaths: false,
		recency: false,
		dateRange: false,
		maxResults: DEFAULTS.pageSize,
	},
	search: httpCall(buildSearchRequest, parseSearchResponse),
	classify: classifyError,
};

export default definition;
