// The test-only "scrape" type's implementation: the shared HTTP stack (send, classify) like any API type, so the
// fault matrix and the key-leak run exercise it for real against their loopback servers.

import type { FetchRequest, SearchRequest } from "../../../engine/request-types.ts";
import type {
	CallContext,
	HttpRequestSpec,
	ProviderDefinition,
	ProviderFetchResult,
	ProviderSearchResult,
} from "../../../providers/contract.ts";
import { bearer, httpCall, jsonOrThrow, requestHeaders, resolveBaseUrl } from "../../../providers/http/call.ts";
import { classifyError } from "../../../providers/http/classify.ts";
import { asArray, asRecord, asString } from "../../../providers/http/json.ts";
import { type HttpResponse, parseError } from "../../../providers/http/response.ts";
import { noNativeFilters, resultCount } from "../../../providers/params/filters.ts";
import { definitionFacts } from "../../../providers/type-facts.ts";
import facts from "./facts.ts";

const NATIVE = noNativeFilters(20);

function post(path: string, body: Record<string, unknown>, call: CallContext): HttpRequestSpec {
	return {
		method: "POST",
		url: `${resolveBaseUrl(call, facts.defaults.baseUrl)}${path}`,
		headers: requestHeaders(call, { "content-type": "application/json", ...bearer(call) }),
		body,
	};
}

function data(res: HttpResponse, provider: string): unknown {
	const json = asRecord(jsonOrThrow(res, provider));
	if (json?.success !== true) throw parseError(res, provider, "scrape-shape", "answer without success: true");
	return json.data;
}

function parseSearch(res: HttpResponse, _request: SearchRequest, call: CallContext): ProviderSearchResult {
	const results = asArray(data(res, call.config.name))
		.map(asRecord)
		.flatMap((item) => {
			const url = asString(item?.url);
			return url ? [{ title: asString(item?.title) || url, url, snippet: asString(item?.description) ?? "" }] : [];
		});
	return { results };
}

function parseFetch(res: HttpResponse, _request: FetchRequest, call: CallContext): ProviderFetchResult {
	const page = asRecord(data(res, call.config.name));
	const content = asString(page?.markdown);
	if (content === undefined) throw parseError(res, call.config.name, "scrape-shape", "scrape without markdown");
	const title = asString(asRecord(page?.metadata)?.title);
	return { content, extraction: "verbatim", ...(title ? { title } : {}) };
}

const definition: ProviderDefinition = {
	...definitionFacts(facts),
	native: NATIVE,
	search: httpCall(
		(request: SearchRequest, call) =>
			post("/v1/search", { query: request.query, limit: resultCount(request, NATIVE) }, call),
		parseSearch,
	),
	fetch: httpCall(
		(request: FetchRequest, call) =>
			post(
				"/v1/scrape",
				{ url: request.url, formats: ["markdown"], onlyMainContent: call.config.options.onlyMainContent ?? true },
				call,
			),
		parseFetch,
	),
	classify: classifyError,
};

export default definition;
