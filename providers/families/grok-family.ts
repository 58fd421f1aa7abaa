// The xAI family (types `xai` and `sub2api-grok`): Responses API with `x_search` when every domain is an X host
// (x.com/<handle> picks accounts, recency sets from_date) and `web_search` otherwise. The only types that search and
// fetch X. Cost comes from usage.cost_in_usd_ticks. OpenAI-only tool fields are never sent: xAI rejects them.

import { isWebAccessError, WebAccessError } from "../../engine/errors.ts";
import { recencyBounds } from "../../engine/recency.ts";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import { normalizeUrl, type RequestSites, type SitePattern } from "../../engine/sites.ts";
import type {
	CallContext,
	HttpRequestSpec,
	NativeFilters,
	ProviderFetchResult,
	ProviderSearchResult,
} from "../contract.ts";
import { bearer, requestHeaders } from "../http/call.ts";
import { asRecord } from "../http/json.ts";
import { XAI_VENDOR } from "../model-vendors.ts";
import { allowedHosts, blockedHosts, callSites, urlToolHost } from "../params/filters.ts";
import { booleanOption } from "../params/options.ts";
import { hostOf } from "./citations.ts";
import { defineFamily } from "./factory.ts";
import { fetchPrompt, modelBaseUrl, modelRenditionWarning, searchPrompt } from "./model-call.ts";
import { type Json, readResponsesOutput, responsesResults, streamResponses } from "./responses-api.ts";

export const XAI_DEFAULTS = {
	baseUrl: XAI_VENDOR.baseUrl,
	model: XAI_VENDOR.model,
	/** web_search takes at most 5 allowed or excluded domains; x_search at most 10 handles. */
	maxDomains: 5,
	maxHandles: 10,
	/** 10^10 ticks = 1 USD. */
	ticksPerUsd: 1e10,
};

export const XAI_NATIVE: NativeFilters = {
	hosts: true,
	paths: false,
	excludeHosts: true,
	excludePaths: false,
	recency: false,
	dateRange: false,
	maxResults: 20,
};

/** First path segments of x.com URLs that are not accounts. */
const NOT_HANDLES = new Set(["i", "search", "hashtag", "home", "explore", "intent", "share", "settings", "messages"]);
const X_STATUS = /^https?:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/i\/(?:web\/)?status\/(\d+)/i;

export function isXHost(host: string): boolean {
	return /(^|\.)(x|twitter)\.com$/.test(host.toLowerCase());
}

/** The account a parsed pattern's or URL's path names (`x.com/golang`, `x.com/golang/status/1`), lower-cased. */
export function xHandle(site: { path?: readonly string[] }): string | undefined {
	const segment = site.path?.[0];
	if (segment === undefined || !/^[A-Za-z0-9_]{1,15}$/.test(segment)) return undefined;
	const handle = segment.toLowerCase();
	return NOT_HANDLES.has(handle) ? undefined : handle;
}

/** An x_search plan when every domain is an X host; `handles` empty means any account. */
export interface XSearchPlan {
	handles: string[];
	excluded: string[];
}

/** True for a pattern on an X host (`x.com`, `twitter.com` and their subdomains, any port). */
function onX(pattern: SitePattern): boolean {
	return pattern.kind !== "any-suffix" && pattern.kind !== "ip" && isXHost(pattern.host);
}

export function planXSearch(sites: RequestSites): XSearchPlan | undefined {
	if (sites.domains.length === 0) return undefined;
	const handles: string[] = [];
	let anyAccount = false;
	for (const pattern of sites.domains) {
		if (!onX(pattern)) return undefined;
		const handle = xHandle(pattern);
		if (handle === undefined) anyAccount = true;
		else if (!handles.includes(handle)) handles.push(handle);
	}
	const allowed = anyAccount || handles.length > XAI_DEFAULTS.maxHandles ? [] : handles;
	const excluded: string[] = [];
	if (allowed.length === 0) {
		for (const pattern of sites.excludeDomains) {
			const handle = onX(pattern) ? xHandle(pattern) : undefined;
			if (handle !== undefined && !excluded.includes(handle)) excluded.push(handle);
		}
	}
	return { handles: allowed, excluded: excluded.slice(0, XAI_DEFAULTS.maxHandles) };
}

function imageUnderstanding(call: CallContext): boolean {
	return booleanOption(call.config.options, "enableImageUnderstanding") ?? false;
}

function xSearchTool(call: CallContext, plan: XSearchPlan, request?: SearchRequest, now = new Date()): Json {
	const tool: Json = { type: "x_search" };
	if (plan.handles.length > 0) tool.allowed_x_handles = plan.handles;
	else if (plan.excluded.length > 0) tool.excluded_x_handles = plan.excluded;
	if (request?.recency !== undefined) {
		const { from, to } = recencyBounds(request.recency, now.getTime());
		if (from !== undefined) tool.from_date = from;
		if (to !== undefined) tool.to_date = to;
	}
	tool.enable_image_understanding = imageUnderstanding(call);
	return tool;
}

/** web_search with an allow-list, else a block-list (it takes one of the two). */
function webSearchTool(call: CallContext, allowed: string[] | undefined, excluded?: string[]): Json {
	const tool: Json = { type: "web_search" };
	if (allowed !== undefined) tool.allowed_domains = allowed;
	else if (excluded !== undefined) tool.excluded_domains = excluded;
	tool.enable_image_understanding = imageUnderstanding(call);
	return tool;
}

function grokSpec(
	call: CallContext,
	baseUrl: string | undefined,
	model: string,
	prompt: string,
	tool: Json,
): HttpRequestSpec {
	return {
		method: "POST",
		url: `${modelBaseUrl(call, baseUrl)}/responses`,
		headers: requestHeaders(call, bearer(call)),
		body: { model, input: [{ role: "user", content: prompt }], tools: [tool], store: false, stream: true },
		stream: true,
	};
}

function grokSearchSpec(request: SearchRequest, call: CallContext, model: string, baseUrl: string | undefined) {
	const sites = callSites(request, call);
	const plan = planXSearch(sites);
	if (plan === undefined) {
		const allowed = allowedHosts(sites.domains, XAI_DEFAULTS.maxDomains);
		const excluded = allowed === undefined ? blockedHosts(sites.excludeDomains, XAI_DEFAULTS.maxDomains) : undefined;
		const tool = webSearchTool(call, allowed, excluded);
		return grokSpec(call, baseUrl, model, searchPrompt(request), tool);
	}
	const who = plan.handles.length > 0 ? ` by ${plan.handles.map((h) => `@${h}`).join(", ")}` : "";
	const prompt = searchPrompt(request, `X posts${who}`);
	return grokSpec(call, baseUrl, model, prompt, xSearchTool(call, plan, request));
}

/** The X post or profile a URL names, when it is on an X host. */
function xTarget(url: string): { handle?: string } | undefined {
	const normalized = normalizeUrl(url);
	if (!normalized.ok || !isXHost(normalized.url.host)) return undefined;
	const handle = xHandle(normalized.url);
	return handle === undefined ? {} : { handle };
}

function grokFetchSpec(request: FetchRequest, call: CallContext, model: string, baseUrl: string | undefined) {
	const target = xTarget(request.url);
	if (target === undefined) {
		const host = urlToolHost(request.url);
		const tool = webSearchTool(call, host === undefined ? undefined : [host]);
		return grokSpec(call, baseUrl, model, fetchPrompt(request.url), tool);
	}
	const plan: XSearchPlan = { handles: target.handle === undefined ? [] : [target.handle], excluded: [] };
	const prompt = [
		`Find this X post (or account) with the X search tool: ${request.url}`,
		"Then write out the post's full text verbatim, with the author's name, @handle and date, and any quoted post or thread replies by the author.",
		"Reply with that text only, without comments of your own. If it cannot be found, say so in one sentence.",
	].join("\n");
	return grokSpec(call, baseUrl, model, prompt, xSearchTool(call, plan));
}

/** usage.cost_in_usd_ticks → USD. */
export function costUsd(response: Json): number | undefined {
	const ticks = asRecord(response.usage)?.cost_in_usd_ticks;
	const value = typeof ticks === "string" ? Number(ticks) : ticks;
	return typeof value === "number" && Number.isFinite(value) ? value / XAI_DEFAULTS.ticksPerUsd : undefined;
}

/** `x.com/i/status/<id>` → `x.com/<handle>/status/<id>`, in a URL or in markdown text. */
function withHandle(text: string, handle: string): string {
	return text.replace(
		new RegExp(X_STATUS.source.slice(1), "gi"),
		(_match, id: string) => `https://x.com/${handle}/status/${id}`,
	);
}

function grokSearchResult(response: Json, request: SearchRequest, call: CallContext, model: string) {
	const output = readResponsesOutput(response);
	const plan = planXSearch(callSites(request, call));
	let results = responsesResults(output);
	let answer = output.answer;
	const warnings: string[] = [];
	const only = plan?.handles.length === 1 ? plan.handles[0] : undefined;
	if (only !== undefined) {
		results = results.map((item) => ({ ...item, url: withHandle(item.url, only) }));
		answer = withHandle(answer, only);
	} else if ((plan?.handles.length ?? 0) > 1 && results.some((item) => X_STATUS.test(item.url))) {
		warnings.push(
			"X cites posts as x.com/i/status/<id>, which names no account: with several accounts selected those citations cannot be matched and the account filter drops them",
		);
	}
	if (output.incomplete !== undefined)
		warnings.push(`${model} stopped early (${output.incomplete}); the answer may be cut short`);
	const result: ProviderSearchResult = {
		results,
		details: {
			model,
			tool: plan === undefined ? "web_search" : "x_search",
			queries: output.queries,
			xSearches: output.xSearches,
		},
	};
	if (answer !== "") result.answer = answer;
	const cost = costUsd(response);
	if (cost !== undefined) result.costUsd = cost;
	if (warnings.length > 0) result.warnings = warnings;
	return result;
}

function grokFetchResult(response: Json, request: FetchRequest, model: string): ProviderFetchResult {
	const output = readResponsesOutput(response);
	const result: ProviderFetchResult = {
		content: output.answer,
		extraction: "model",
		warnings: [modelRenditionWarning(model)],
	};
	if (output.incomplete !== undefined) result.warnings?.push(`${model} stopped early (${output.incomplete})`);
	const cost = costUsd(response);
	if (cost !== undefined) result.costUsd = cost;
	if (xTarget(request.url) === undefined) {
		const title = output.citations.find(
			(c) => hostOf(c.url) === hostOf(request.url) && c.title && !/^\d+$/.test(c.title),
		);
		if (title?.title !== undefined) result.title = title.title;
	}
	return result;
}

/** xAI reports an invalid key as HTTP 400 and exhausted credits as 403: reclassify both. */
function remapXaiError(error: unknown): unknown {
	if (!isWebAccessError(error)) return error;
	const data = { provider: error.provider, status: error.status, url: error.url, keyVerdict: "exhausted" as const };
	if (error.status === 400 && /api key/i.test(error.message)) {
		return new WebAccessError("HTTP 400: invalid API key", { ...data, kind: "auth", code: "invalid-api-key" });
	}
	if (error.status === 403 && /credits|spending limit/i.test(error.message)) {
		return new WebAccessError("HTTP 403: credits used up or spending limit reached", {
			...data,
			kind: "quota",
			code: "no-credits",
		});
	}
	return error;
}

/** The xAI family: the Responses API's stream, with xAI's key and credit errors reclassified. */
export const GROK_FAMILY = defineFamily<Json>({
	vendor: XAI_DEFAULTS,
	extraction: "model",
	native: XAI_NATIVE,
	searchSpec: grokSearchSpec,
	fetchSpec: grokFetchSpec,
	stream: (spec, call) => streamResponses(spec, call, remapXaiError),
	searchResult: (response, request, call, model) => grokSearchResult(response, request, call, model),
	fetchResult: (response, request, _call, model) => grokFetchResult(response, request, model),
});
