// The Gemini family: `POST <base>/v1beta/models/{model}:streamGenerateContent?alt=sse` with the google_search tool
// (grounding chunks become results, the answer is kept) or url_context (the model writes the page out: extraction
// "model"). Used by the gemini type and, with the conversation's model id, by the `model` type.

import { WebAccessError } from "../../engine/errors.ts";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import { formatSitePattern } from "../../engine/sites.ts";
import type { CallContext, HttpRequestSpec, ProviderFetchResult, ProviderSearchResult } from "../contract.ts";
import { requestHeaders, sendOptionsOf } from "../http/call.ts";
import { asArray, asRecord, asString } from "../http/json.ts";
import { abortError, sendSse } from "../http/send.ts";
import { GEMINI_VENDOR } from "../model-vendors.ts";
import { callSites, noNativeFilters } from "../params/filters.ts";
import { defineFamily } from "./factory.ts";
import {
	createGeminiAccumulator,
	type GeminiAnswer,
	geminiHttpError,
	groundingResults,
	searchQueries,
} from "./gemini-response.ts";
import { fetchPrompt, modelBaseUrl, modelRenditionWarning, searchPrompt } from "./model-call.ts";

export const GEMINI_DEFAULTS = {
	baseUrl: GEMINI_VENDOR.baseUrl,
	/** Used when the config names no model. */
	model: GEMINI_VENDOR.model,
	/** Grounding chunks one answer typically cites. */
	maxResults: 10,
} as const;

/** `<base>/models/<model>:streamGenerateContent?alt=sse`; a base without an API version gets `/v1beta`. */
export function geminiEndpoint(
	call: CallContext,
	model: string,
	baseUrl: string | undefined = GEMINI_DEFAULTS.baseUrl,
): string {
	let base = modelBaseUrl(call, baseUrl);
	if (!/\/v\d+(?:alpha|beta)?\d*$/.test(base)) base += "/v1beta";
	const id = model.replace(/^models\//, "");
	return `${base}/models/${encodeURIComponent(id)}:streamGenerateContent?alt=sse`;
}

function generate(
	call: CallContext,
	model: string,
	baseUrl: string | undefined,
	prompt: string,
	tool: string,
): HttpRequestSpec {
	const key = call.key ? { "x-goog-api-key": call.key.secret } : {};
	return {
		method: "POST",
		url: geminiEndpoint(call, model, baseUrl),
		headers: requestHeaders(call, { "content-type": "application/json", ...key }),
		body: { contents: [{ role: "user", parts: [{ text: prompt }] }], tools: [{ [tool]: {} }] },
		stream: true,
	};
}

/** The search prompt plus the site limits as words: google_search takes no domain filters on this API. */
function geminiSearchPrompt(request: SearchRequest, call: CallContext): string {
	const { domains, excludeDomains } = callSites(request, call);
	const lines = [searchPrompt(request, "Google Search")];
	if (domains.length > 0) lines.push(`Only use sources on these sites: ${domains.map(formatSitePattern).join(", ")}.`);
	if (excludeDomains.length > 0)
		lines.push(`Do not use sources on: ${excludeDomains.map(formatSitePattern).join(", ")}.`);
	return lines.join("\n");
}

function geminiSearchSpec(
	request: SearchRequest,
	call: CallContext,
	model: string,
	baseUrl: string | undefined,
): HttpRequestSpec {
	return generate(call, model, baseUrl, geminiSearchPrompt(request, call), "google_search");
}

function geminiFetchSpec(
	request: FetchRequest,
	call: CallContext,
	model: string,
	baseUrl: string | undefined,
): HttpRequestSpec {
	return generate(call, model, baseUrl, fetchPrompt(request.url, "the URL context tool"), "url_context");
}

function blocked(reason: string, provider: string): WebAccessError {
	return new WebAccessError(`Gemini refused the prompt (${reason})`, {
		kind: "bad-request",
		code: "gemini-blocked",
		provider,
	});
}

function geminiSearchResult(answer: GeminiAnswer, call: CallContext): ProviderSearchResult {
	if (answer.blockReason && answer.text === "") throw blocked(answer.blockReason, call.config.name);
	const grounded = groundingResults(answer.grounding);
	const queries = searchQueries(answer.grounding);
	const out: ProviderSearchResult = {
		// Not cut here: the executor cuts to maxResults after its filters and de-duplication.
		results: grounded.results,
		details: { webSearchQueries: queries, groundingRedirects: grounded.redirectOf },
	};
	const text = answer.text.trim();
	if (text !== "") out.answer = text;
	const warnings: string[] = [];
	if (grounded.siteOnly > 0) {
		warnings.push(
			`Gemini names only the site for ${grounded.siteOnly} result(s): their links lead to the site, not the cited page`,
		);
	}
	if (grounded.redirects > 0) warnings.push(`${grounded.redirects} result(s) link through Google's grounding redirect`);
	if (queries.length === 0 && grounded.results.length === 0) warnings.push("Gemini answered without searching");
	if (warnings.length > 0) out.warnings = warnings;
	return out;
}

const RETRIEVAL_PROBLEMS: Record<string, string> = {
	URL_RETRIEVAL_STATUS_ERROR: "could not retrieve the page",
	URL_RETRIEVAL_STATUS_PAYWALL: "the page is behind a paywall",
	URL_RETRIEVAL_STATUS_UNSAFE: "the page was judged unsafe",
	URL_RETRIEVAL_STATUS_UNSPECIFIED: "the retrieval status is unknown",
};

function sameUrl(a: string, b: string): boolean {
	return a.replace(/\/+$/, "").toLowerCase() === b.replace(/\/+$/, "").toLowerCase();
}

/** The fetch answer with its url_context verdict: any status but SUCCESS for the page is a failure. */
function geminiFetchResult(
	answer: GeminiAnswer,
	request: FetchRequest,
	call: CallContext,
	model: string,
): ProviderFetchResult {
	const provider = call.config.name;
	if (answer.blockReason && answer.text === "") throw blocked(answer.blockReason, provider);
	const entries = asArray(answer.urlContext?.urlMetadata).map((entry) => asRecord(entry) ?? {});
	const entry = entries.find((e) => sameUrl(asString(e.retrievedUrl) ?? "", request.url)) ?? entries[0];
	if (entry === undefined) {
		throw new WebAccessError("Gemini did not retrieve the page (no url_context metadata)", {
			kind: "bad-request",
			code: "gemini-not-retrieved",
			provider,
			url: request.url,
		});
	}
	const status = asString(entry.urlRetrievalStatus) ?? "URL_RETRIEVAL_STATUS_UNSPECIFIED";
	if (status !== "URL_RETRIEVAL_STATUS_SUCCESS") {
		const problem = RETRIEVAL_PROBLEMS[status] ?? "could not retrieve the page";
		throw new WebAccessError(`Gemini ${problem} (${status})`, {
			kind: "bad-request",
			code: `gemini-${status.replace("URL_RETRIEVAL_STATUS_", "").toLowerCase()}`,
			provider,
			url: request.url,
		});
	}
	const out: ProviderFetchResult = {
		content: answer.text.trim(),
		extraction: "model",
		warnings: [modelRenditionWarning(model)],
	};
	const retrieved = asString(entry.retrievedUrl);
	if (retrieved && !sameUrl(retrieved, request.url)) out.finalUrl = retrieved;
	return out;
}

/** Streams the `?alt=sse` request, folding chunks as they arrive: an error chunk fails the call at once. A plain JSON
 * answer is read as one chunk; a non-2xx answer is classified from Google's error envelope. */
async function streamGemini(spec: HttpRequestSpec, call: CallContext): Promise<GeminiAnswer> {
	const accumulator = createGeminiAccumulator(call.config.name);
	const reading = { statusError: geminiHttpError, jsonAsEvent: true };
	for await (const event of sendSse(spec, sendOptionsOf(call), reading)) accumulator.push(event);
	return accumulator.finish();
}

/** The Gemini family (the gemini type; the `model` type with the conversation's model id). */
export const GEMINI_FAMILY = defineFamily<GeminiAnswer>({
	vendor: GEMINI_DEFAULTS,
	extraction: "model",
	native: noNativeFilters(GEMINI_DEFAULTS.maxResults),
	searchSpec: geminiSearchSpec,
	fetchSpec: geminiFetchSpec,
	stream: streamGemini,
	searchResult: (answer, _request, call) => geminiSearchResult(answer, call),
	fetchResult: geminiFetchResult,
	startFetch: (_request, call, model) => {
		if (call.signal.aborted) throw abortError(call.signal.reason, call.config.name);
		call.onProgress(`${call.config.name}: ${model} is reading the page`);
	},
});
