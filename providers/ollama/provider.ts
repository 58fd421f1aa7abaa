// Ollama's hosted web API: `POST /api/web_search` ({query, max_results ≤ 10}) and `POST /api/web_fetch` ({url}),
// Bearer key from $OLLAMA_API_KEY. No filters: domains and recency are left to the executor. Fetch text is the
// page as Ollama extracted it (verbatim).

import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { SearchResultItem } from "../../engine/result-types.ts";
import type {
	CallContext,
	HttpRequestSpec,
	ProviderDefinition,
	ProviderFetchResult,
	ProviderSearchResult,
} from "../contract.ts";
import { bearer, httpCall, jsonOrThrow, requestHeaders, resolveBaseUrl } from "../http/call.ts";
import { classifyError } from "../http/classify.ts";
import { asArray, asRecord, asString } from "../http/json.ts";
import type { HttpResponse } from "../http/response.ts";
import { parseError } from "../http/response.ts";
import { callSites, noNativeFilters, resultCount } from "../params/filters.ts";
import { definitionFacts } from "../type-facts.ts";
import facts from "./facts.ts";

const DEFAULTS = {
	...facts.defaults,
	/** The documented maximum of max_results. */
	maxResults: 10,
} as const;

/** Ollama filters nothing itself: the executor filters, so more results are asked for then. */
const NATIVE = noNativeFilters(DEFAULTS.maxResults);

function post(path: string, body: Record<string, unknown>, call: CallContext): HttpRequestSpec {
	return {
		method: "POST",
		url: `${resolveBaseUrl(call, DEFAULTS.baseUrl)}${path}`,
		headers: requestHeaders(call, { "content-type": "application/json", ...bearer(call) }),
		body,
	};
}

/** JSON object of a 2xx answer; anything else throws the classified HTTP or parse error. */
function okJson(res: HttpResponse, provider: string): Record<string, unknown> {
	const json = asRecord(jsonOrThrow(res, provider));
	if (json === undefined) throw parseError(res, provider, "not-an-object", "expected a JSON object");
	return json;
}

export function buildSearchRequest(request: SearchRequest, call: CallContext): HttpRequestSpec {
	return post(
		"/api/web_search",
		{ query: request.query, max_results: resultCount(request, NATIVE, callSites(request, call)) },
		call,
	);
}

export function parseSearchResponse(
	res: HttpResponse,
	_request: SearchRequest,
	call: CallContext,
): ProviderSearchResult {
	const json = okJson(res, call.config.name);
	const results: SearchResultItem[] = [];
	for (const item of asArray(json.results).map(asRecord)) {
		const url = asString(item?.url);
		if (!url) continue;
		// Ollama's `content` is a query-relevant excerpt, not the page: it is the snippet.
		results.push({ title: asString(item?.title) || url, url, snippet: asString(item?.content) ?? "" });
	}
	return { results };
}

export function buildFetchRequest(request: FetchRequest, call: CallContext): HttpRequestSpec {
	return post("/api/web_fetch", { url: request.url }, call);
}

export function parseFetchResponse(res: HttpResponse, _request: FetchRequest, call: CallContext): ProviderFetchResult {
	const json = okJson(res, call.config.name);
	const content = asString(json.content);
	if (content === undefined)
		throw parseError(res, call.config.name, "ollama-shape", "web_fetch answer without content");
	const result: ProviderFetchResult = { content, extraction: "verbatim" };
	const title = asString(json.title);
	if (title) result.title = title;
	const finalUrl = asString(json.url);
	if (finalUrl) result.finalUrl = finalUrl;
	return result;
}

const definition: ProviderDefinition = {
	...definitionFacts(facts),
	native: NATIVE,
	search: httpCall(buildSearchRequest, parseSearchResponse),
	fetch: httpCall(buildFetchRequest, parseFetchResponse),
	classify: classifyError,
};

export default definition;
