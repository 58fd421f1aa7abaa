// Gemini (Google AI Studio key, or pi's "google" provider): search with the google_search tool, fetch with
// url_context (model-written). The family in families/gemini-family.ts does the work; the `model` type reuses it.

import type { FetchRequest, SearchRequest } from "../engine/request-types.ts";
import type {
	CallContext,
	HttpRequestSpec,
	ProviderDefinition,
	ProviderFetchResult,
	ProviderSearchResult,
} from "./contract.ts";
import {
	buildGeminiFetch,
	buildGeminiSearch,
	fetchGemini,
	GEMINI_DEFAULTS,
	parseGeminiFetch,
	parseGeminiSearch,
	searchGemini,
} from "./families/gemini-family.ts";
import { configuredModel } from "./families/model-common.ts";
import { classifyError } from "./http/classify.ts";
import type { HttpResponse } from "./http/response.ts";
import { noNativeFilters } from "./params/filters.ts";

/** The config's `model`, else GEMINI_DEFAULTS.model. */
function modelOf(call: CallContext): string {
	return configuredModel(call, GEMINI_DEFAULTS.model);
}

export function buildSearchRequest(request: SearchRequest, call: CallContext): HttpRequestSpec {
	return buildGeminiSearch(request, call, modelOf(call));
}

export function parseSearchResponse(
	res: HttpResponse,
	request: SearchRequest,
	call: CallContext,
): ProviderSearchResult {
	return parseGeminiSearch(res, request, call);
}

export function buildFetchRequest(request: FetchRequest, call: CallContext): HttpRequestSpec {
	return buildGeminiFetch(request, call, modelOf(call));
}

export function parseFetchResponse(res: HttpResponse, request: FetchRequest, call: CallContext): ProviderFetchResult {
	return parseGeminiFetch(res, request, call, modelOf(call));
}

const definition: ProviderDefinition = {
	type: "gemini",
	cost: { basis: "per-request", usd: 0.035, source: "estimated" },
	capabilities: { search: true, fetch: true },
	optionsSchema: {},
	defaults: {
		baseUrl: GEMINI_DEFAULTS.baseUrl,
		timeoutMs: GEMINI_DEFAULTS.timeoutMs,
		apiKey: GEMINI_DEFAULTS.apiKey,
		piProvider: "google",
	},
	needsKey: true,
	keyOrder: "any",
	extraction: "model",
	native: noNativeFilters(GEMINI_DEFAULTS.maxResults),
	search: (request, call) => searchGemini(request, call, modelOf(call)),
	fetch: (request, call) => fetchGemini(request, call, modelOf(call)),
	classify: classifyError,
};

export default definition;
