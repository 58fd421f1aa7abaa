// DeepSeek Search & Fetch tools: POST /v1/tools/search takes filters only as query operators (site:, -site:,
// after:, before:) within a 128-character query, and POST /v1/tools/fetch returns a page as Markdown.
// Operators are preferences, so every filter is also applied by the executor (native: false).

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
import { bearer, httpCall, joinUrl, jsonOrThrow, requestHeaders, resolveBaseUrl } from "../http/call.ts";
import { classifyError } from "../http/classify.ts";
import { asNumber, asRecord, asString, isoDate } from "../http/json.ts";
import type { HttpResponse } from "../http/response.ts";
import { parseError } from "../http/response.ts";
import { callSites, excludeFilters, includeFilters, noNativeFilters, resultCount } from "../params/filters.ts";
import { definitionFacts } from "../type-facts.ts";
import facts from "./facts.ts";

const DEFAULTS = {
	...facts.defaults,
	/** The API's limit on `query`, in Unicode characters, operators included. */
	queryChars: 128,
	maxResults: 50,
};

/** Operators only steer the ranking (`site:` included): the executor filters, so more results are asked for then. */
const NATIVE = noNativeFilters(DEFAULTS.maxResults);

const SITE_SUPPORT = { paths: false };

function chars(text: string): number {
	return [...text].length;
}

/** Base URL without a trailing `/v1` (users copy the chat base URL), so paths can always start with /v1. */
function base(call: CallContext): string {
	return resolveBaseUrl(call, DEFAULTS.baseUrl).replace(/\/v1$/, "");
}

function headers(call: CallContext): Record<string, string> {
	return requestHeaders(call, { ...bearer(call), accept: "application/json" });
}

/** The query with as many operators as fit in 128 characters, and what did not fit; sites from `call` (plan()'s). */
export function searchQuery(
	request: SearchRequest,
	call?: CallContext,
): { query: string; sites: boolean; warnings: string[] } {
	const parsed = callSites(request, call);
	const warnings: string[] = [];
	let words = request.query.trim();
	if (chars(words) > DEFAULTS.queryChars) {
		const cut = [...words].slice(0, DEFAULTS.queryChars).join("");
		words = cut.includes(" ") ? cut.slice(0, cut.lastIndexOf(" ")) : cut;
		warnings.push(`deepseek: query cut to ${DEFAULTS.queryChars} characters`);
	}
	const operators: string[] = [];
	const fits = (extra: string[]) => chars([...operators, ...extra, words].join(" ")) <= DEFAULTS.queryChars;
	const left: string[] = [];
	// Include sites go all together or not at all: a partial list would steer away from the rest.
	const include = includeFilters(parsed.domains, SITE_SUPPORT).values.map((site) => `site:${site}`);
	const sites = include.length > 0 && fits(include);
	if (sites) operators.push(...include);
	else if (include.length > 0) left.push("domains");
	if (request.recency) {
		const window = recencyWindow(request.recency, new Date());
		for (const op of [window.from && `after:${window.from}`, window.to && `before:${window.to}`]) {
			if (!op) continue;
			if (fits([op])) operators.push(op);
			else if (!left.includes("recency")) left.push("recency");
		}
	}
	for (const site of excludeFilters(parsed.excludeDomains, SITE_SUPPORT).values) {
		const op = `-site:${site}`;
		if (fits([op])) operators.push(op);
		else if (!left.includes("excludeDomains")) left.push("excludeDomains");
	}
	if (left.length > 0) {
		warnings.push(
			`deepseek: ${left.join(", ")} did not fit in the ${DEFAULTS.queryChars}-character query; filtered afterwards`,
		);
	}
	return { query: [...operators, words].join(" "), sites, warnings };
}

export function buildSearchRequest(request: SearchRequest, call: CallContext): HttpRequestSpec {
	const { query } = searchQuery(request, call);
	return {
		method: "POST",
		url: joinUrl(base(call), "/v1/tools/search"),
		headers: headers(call),
		body: {
			query,
			count: resultCount(request, NATIVE, callSites(request, call)),
			need_content: request.includeContent,
		},
	};
}

export function buildFetchRequest(request: FetchRequest, call: CallContext): HttpRequestSpec {
	return {
		method: "POST",
		url: joinUrl(base(call), "/v1/tools/fetch"),
		headers: headers(call),
		body: { url: request.url },
	};
}

export function parseSearchResponse(
	res: HttpResponse,
	request: SearchRequest,
	call: CallContext,
): ProviderSearchResult {
	const provider = call.config.name;
	const json = asRecord(jsonOrThrow(res, provider));
	if (!json || !Array.isArray(json.results)) throw parseError(res, provider, "deepseek-shape", "no results array");
	const results: SearchResultItem[] = [];
	for (const raw of json.results) {
		const item = asRecord(raw);
		const url = asString(item?.url);
		if (!item || !url) continue;
		// `summary` is the text DeepSeek writes for models; `snippet` is the short one for people.
		const snippet = asString(item.summary) || asString(item.snippet) || "";
		const result: SearchResultItem = { title: asString(item.title) ?? "", url, snippet };
		const content = asString(item.content);
		if (request.includeContent && content) result.content = content;
		const publishedAt = isoDate(item.date);
		if (publishedAt) result.publishedAt = publishedAt;
		const score = asNumber(item.rerank_score);
		if (score !== undefined) result.score = score;
		results.push(result);
	}
	const out: ProviderSearchResult = { results };
	const { warnings } = searchQuery(request, call);
	if (warnings.length > 0) out.warnings = warnings;
	return out;
}

/** Removes Markdown backslash escapes (`\_`, `\*`, `\[` …) outside code spans and fenced blocks. */
export function unescapeMarkdown(markdown: string): string {
	return markdown
		.split(/(```[\s\S]*?```|`[^`\n]*`)/)
		.map((part, index) => (index % 2 === 1 ? part : part.replace(/\\([\\`*_{}[\]()#+\-.!|>~<=])/g, "$1")))
		.join("");
}

export function parseFetchResponse(res: HttpResponse, _request: FetchRequest, call: CallContext): ProviderFetchResult {
	const provider = call.config.name;
	const json = asRecord(jsonOrThrow(res, provider));
	const content = asString(json?.content);
	if (content === undefined) throw parseError(res, provider, "deepseek-shape", "no content field");
	const out: ProviderFetchResult = { content: unescapeMarkdown(content), extraction: "verbatim" };
	const title = asString(json?.title);
	if (title) out.title = title;
	return out;
}

const deepseek: ProviderDefinition = {
	...definitionFacts(facts),
	native: NATIVE,
	search: httpCall(buildSearchRequest, parseSearchResponse),
	fetch: httpCall(buildFetchRequest, parseFetchResponse),
	classify: classifyError,
};

export default deepseek;
