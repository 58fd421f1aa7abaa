// The OpenAI Responses family (types `openai` and `sub2api-codex`): `POST <base>/responses` with the hosted
// web_search tool (allowed domains, user location, search context size), streamed. Fetch is the model opening the
// page through web_search and writing it out (extraction "model"). No date filter: the executor applies recency.

import { isWebAccessError, WebAccessError } from "../../engine/errors.ts";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type {
	CallContext,
	HttpRequestSpec,
	NativeFilters,
	ProviderFetchResult,
	ProviderSearchResult,
} from "../contract.ts";
import { bearer, requestHeaders } from "../http/call.ts";
import { OPENAI_VENDOR, SEARCH_CONTEXT_SIZES } from "../model-vendors.ts";
import { allowedHosts, callSites, urlToolHost } from "../params/filters.ts";
import { enumOption } from "../params/options.ts";
import { hostOf } from "./citations.ts";
import { defineFamily } from "./factory.ts";
import { fetchPrompt, modelBaseUrl, modelRenditionWarning, searchPrompt, userLocation } from "./model-call.ts";
import {
	type Json,
	type ResponsesOutput,
	readResponsesOutput,
	responsesResults,
	streamResponses,
} from "./responses-api.ts";

export const OPENAI_DEFAULTS = {
	baseUrl: OPENAI_VENDOR.baseUrl,
	model: OPENAI_VENDOR.model,
	/** The web_search tool takes at most 100 allowed domains. */
	maxAllowedDomains: 100,
	include: ["web_search_call.action.sources"],
};

export const OPENAI_NATIVE: NativeFilters = {
	hosts: true,
	paths: false,
	excludeHosts: false,
	excludePaths: false,
	recency: false,
	dateRange: false,
	maxResults: 20,
};

function webSearchTool(call: CallContext, allowed: string[] | undefined, withLocation: boolean): Json {
	const tool: Json = { type: "web_search" };
	if (allowed !== undefined) tool.filters = { allowed_domains: allowed };
	const location = withLocation ? userLocation(call.config.options) : undefined;
	if (location !== undefined) tool.user_location = location;
	const size = enumOption(call.config.options, "searchContextSize", SEARCH_CONTEXT_SIZES);
	if (size !== undefined) tool.search_context_size = size;
	return tool;
}

function responsesSpec(call: CallContext, baseUrl: string | undefined, body: Json): HttpRequestSpec {
	return {
		method: "POST",
		url: `${modelBaseUrl(call, baseUrl)}/responses`,
		headers: requestHeaders(call, bearer(call)),
		body,
		stream: true,
	};
}

function responsesBody(model: string, prompt: string, tool: Json): Json {
	return {
		model,
		input: [{ role: "user", content: prompt }],
		tools: [tool],
		tool_choice: "auto",
		include: OPENAI_DEFAULTS.include,
		store: false,
		stream: true,
	};
}

function openAiSearchSpec(
	request: SearchRequest,
	call: CallContext,
	model: string,
	baseUrl: string | undefined,
): HttpRequestSpec {
	const allowed = allowedHosts(callSites(request, call).domains, OPENAI_DEFAULTS.maxAllowedDomains);
	return responsesSpec(call, baseUrl, responsesBody(model, searchPrompt(request), webSearchTool(call, allowed, true)));
}

function openAiFetchSpec(
	request: FetchRequest,
	call: CallContext,
	model: string,
	baseUrl: string | undefined,
): HttpRequestSpec {
	const host = urlToolHost(request.url);
	const tool = webSearchTool(call, host === undefined ? undefined : [host], false);
	return responsesSpec(call, baseUrl, responsesBody(model, fetchPrompt(request.url), tool));
}

function cutShort(model: string, output: ResponsesOutput): string[] {
	return output.incomplete === undefined
		? []
		: [`${model} stopped early (${output.incomplete}); the text may be cut short`];
}

function openAiSearchResult(response: Json, model: string): ProviderSearchResult {
	const output = readResponsesOutput(response);
	const result: ProviderSearchResult = {
		results: responsesResults(output),
		details: { model: typeof response.model === "string" ? response.model : model, queries: output.queries },
	};
	if (output.answer !== "") result.answer = output.answer;
	const warnings = cutShort(model, output);
	if (warnings.length > 0) result.warnings = warnings;
	return result;
}

function openAiFetchResult(response: Json, request: FetchRequest, model: string): ProviderFetchResult {
	const output = readResponsesOutput(response);
	const host = hostOf(request.url);
	const title = output.citations.find((c) => hostOf(c.url) === host && c.title && !/^\d+$/.test(c.title))?.title;
	const result: ProviderFetchResult = {
		content: output.answer,
		extraction: "model",
		warnings: [modelRenditionWarning(model), ...cutShort(model, output)],
	};
	if (title !== undefined) result.title = title;
	return result;
}

/** OpenAI answers 429 both for rate limits and for an exhausted quota; the latter is a quota failure. */
function remapOpenAiError(error: unknown): unknown {
	if (!isWebAccessError(error) || error.status !== 429 || !/quota|billing/i.test(error.message)) return error;
	return new WebAccessError(error.message, {
		kind: "quota",
		code: "insufficient_quota",
		provider: error.provider,
		status: error.status,
		url: error.url,
		keyVerdict: "exhausted",
	});
}

/** The OpenAI Responses family: streamed, with 429-for-quota reclassified. */
export const RESPONSES_FAMILY = defineFamily<Json>({
	vendor: OPENAI_DEFAULTS,
	extraction: "model",
	native: OPENAI_NATIVE,
	searchSpec: openAiSearchSpec,
	fetchSpec: openAiFetchSpec,
	stream: (spec, call) => streamResponses(spec, call, remapOpenAiError),
	searchResult: (response, _request, _call, model) => openAiSearchResult(response, model),
	fetchResult: (response, request, _call, model) => openAiFetchResult(response, request, model),
});
