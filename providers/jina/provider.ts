// Jina: search with GET s.jina.ai/?q= and fetch with the reader GET r.jina.ai/<url>, both in JSON mode
// (`Accept: application/json`, envelope `{code, status, data}`). Two hosts: `searchBaseUrl` / `readerBaseUrl`
// options override each, a config `baseUrl` (a proxy serving both) overrides both.

import type { WebAccessError } from "../../engine/errors.ts";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { SearchResultItem } from "../../engine/result-types.ts";
import type {
	CallContext,
	HttpRequestSpec,
	ProviderDefinition,
	ProviderFetchResult,
	ProviderSearchResult,
} from "../contract.ts";
import { bearer, httpCall, joinUrl, jsonOrThrow, reclassify, requestHeaders } from "../http/call.ts";
import { classifyError } from "../http/classify.ts";
import { asNumber, asRecord, asString, isoDate } from "../http/json.ts";
import { type HttpResponse, httpStatusError, parseError, withStatus } from "../http/response.ts";
import { callSites, includeFilters, noNativeFilters, resultCount } from "../params/filters.ts";
import { stringOption } from "../params/options.ts";
import { definitionFacts } from "../type-facts.ts";
import facts from "./facts.ts";

const DEFAULTS = {
	searchBaseUrl: "https://s.jina.ai",
	readerBaseUrl: "https://r.jina.ai",
	timeoutMs: facts.defaults.timeoutMs,
	maxResults: 20,
};

/** Jina filters nothing itself: the executor filters, so more results are asked for then. */
const NATIVE = noNativeFilters(DEFAULTS.maxResults);

/** Option first, then the config's / pi's shared base URL, then Jina's own host. */
function hostFor(call: CallContext, option: "searchBaseUrl" | "readerBaseUrl"): string {
	const base =
		stringOption(call.config.options, option) ?? call.config.baseUrl ?? call.piAuth?.baseUrl ?? DEFAULTS[option];
	return base.replace(/\/+$/, "");
}

function headers(call: CallContext, own: Record<string, string | undefined>): Record<string, string> {
	return requestHeaders(call, { ...bearer(call), accept: "application/json", "x-retain-images": "none", ...own });
}

export function buildSearchRequest(request: SearchRequest, call: CallContext): HttpRequestSpec {
	// X-Site restricts to one site; with several the executor filters the results instead.
	const parsed = callSites(request, call);
	const sites = includeFilters(parsed.domains, { paths: false }).values;
	const url = joinUrl(hostFor(call, "searchBaseUrl"), "/", {
		q: request.query,
		num: resultCount(request, NATIVE, parsed),
	});
	const own = {
		"x-respond-with": request.includeContent ? undefined : "no-content",
		"x-site": sites.length === 1 ? sites[0] : undefined,
	};
	return { method: "GET", url, headers: headers(call, own) };
}

export function buildFetchRequest(request: FetchRequest, call: CallContext): HttpRequestSpec {
	// The reader takes the target URL appended as is, scheme included.
	const url = `${hostFor(call, "readerBaseUrl")}/${request.url}`;
	return { method: "GET", url, headers: headers(call, { "x-return-format": "markdown" }) };
}

/** Jina's error envelope: `{code, name, status, message, readableMessage, retryAfter}`. */
function jinaError(res: HttpResponse, json: unknown, provider: string): WebAccessError {
	const record = asRecord(json);
	const name = asString(record?.name);
	const base = httpStatusError(res, provider, asString(record?.message));
	const changes: Parameters<typeof reclassify>[1] = name ? { code: `jina-${name}` } : {};
	const retryAfter = asNumber(record?.retryAfter);
	if (base.retryAfterMs === undefined && retryAfter !== undefined) changes.retryAfterMs = retryAfter * 1000;
	return reclassify(base, changes);
}

/** A 2xx envelope; a `code` other than 200 inside a 2xx answer is still an error. */
function envelope(res: HttpResponse, provider: string): Record<string, unknown> {
	const json = asRecord(jsonOrThrow(res, provider, (r, j) => jinaError(r, j, provider)));
	if (!json) throw parseError(res, provider, "jina-shape", "no JSON object");
	const code = asNumber(json.code);
	// withStatus, not a spread: a plain copy would lose the request's secrets and echo the key unmasked.
	if (code !== undefined && code !== 200) throw jinaError(withStatus(res, code), json, provider);
	return json;
}

export function parseSearchResponse(
	res: HttpResponse,
	request: SearchRequest,
	call: CallContext,
): ProviderSearchResult {
	const provider = call.config.name;
	const json = envelope(res, provider);
	const data = json.data;
	if (!Array.isArray(data)) throw parseError(res, provider, "jina-shape", "no data array");
	const results: SearchResultItem[] = [];
	for (const raw of data) {
		const item = asRecord(raw);
		const url = asString(item?.url);
		if (!item || !url) continue;
		const result: SearchResultItem = {
			title: asString(item.title) ?? "",
			url,
			snippet: asString(item.description) ?? "",
		};
		const content = asString(item.content);
		if (request.includeContent && content) result.content = content;
		const publishedAt = isoDate(item.date) ?? isoDate(item.publishedTime);
		if (publishedAt) result.publishedAt = publishedAt;
		results.push(result);
	}
	const out: ProviderSearchResult = { results };
	const tokens = asNumber(asRecord(asRecord(json.meta)?.usage)?.tokens);
	if (tokens !== undefined) out.details = { tokens };
	return out;
}

/** The reader's plain-text format (`Title:` / `URL Source:` / `Markdown Content:`), for servers that ignore Accept. */
function parseReaderText(text: string): { title?: string; url?: string; content: string } {
	const marker = text.indexOf("Markdown Content:\n");
	const head = marker === -1 ? "" : text.slice(0, marker);
	const content = marker === -1 ? text : text.slice(marker + "Markdown Content:\n".length);
	const field = (name: string) => new RegExp(`^${name}: (.*)$`, "m").exec(head)?.[1]?.trim();
	return { title: field("Title"), url: field("URL Source"), content: content.replace(/\n+$/, "") };
}

export function parseFetchResponse(res: HttpResponse, _request: FetchRequest, call: CallContext): ProviderFetchResult {
	const provider = call.config.name;
	const isText = res.status >= 200 && res.status <= 299 && /^Title: /.test(res.text);
	const data = isText ? parseReaderText(res.text) : asRecord(envelope(res, provider).data);
	if (!data) throw parseError(res, provider, "jina-shape", "no data object");
	const out: ProviderFetchResult = { content: asString(data.content) ?? "", extraction: "verbatim" };
	const title = asString(data.title);
	if (title) out.title = title;
	const finalUrl = asString(data.url);
	if (finalUrl) out.finalUrl = finalUrl;
	const warning = asString((data as Record<string, unknown>).warning);
	if (warning) out.warnings = [`jina: ${warning}`];
	return out;
}

const jina: ProviderDefinition = {
	...definitionFacts(facts),
	native: NATIVE,
	search: httpCall(buildSearchRequest, parseSearchResponse),
	fetch: httpCall(buildFetchRequest, parseFetchResponse),
	classify: classifyError,
};

export default jina;
