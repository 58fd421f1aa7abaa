// The Anthropic Messages family (types `anthropic` and `sub2api-claude`): `POST <root>/v1/messages` with the server
// tools web_search_20250305 (allowed or blocked domains, max uses, user location) and web_fetch_20260309 with
// use_cache: false (the page text verbatim; PDFs refused). Streamed; a paused turn is resumed a bounded number
// of times.

import { WebAccessError } from "../../engine/errors.ts";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import { isPdfUrl } from "../anthropic/facts.ts";
import type {
	CallContext,
	HttpRequestSpec,
	NativeFilters,
	ProviderFetchResult,
	ProviderSearchResult,
} from "../contract.ts";
import { requestHeaders } from "../http/call.ts";
import { asArray, asRecord, asString } from "../http/json.ts";
import { ANTHROPIC_VENDOR } from "../model-vendors.ts";
import { allowedHosts, blockedHosts, callSites } from "../params/filters.ts";
import { numberOption } from "../params/options.ts";
import { calendarDate, hostOf, ResultList } from "./citations.ts";
import { defineFamily } from "./factory.ts";
import { contentBlocks, type Json, streamMessages, toolError } from "./messages-api.ts";
import { modelBaseUrl, searchPrompt, userLocation } from "./model-call.ts";

export const ANTHROPIC_DEFAULTS = {
	baseUrl: ANTHROPIC_VENDOR.baseUrl,
	model: ANTHROPIC_VENDOR.model,
	version: "2023-06-01",
	searchTool: "web_search_20250305",
	fetchTool: "web_fetch_20260309",
	maxUses: 3,
	searchMaxTokens: 2048,
	/** The fetched text comes from the tool result; the model only has to call the tool and stop. */
	fetchMaxTokens: 1024,
	/** Paused server-tool turns (stop_reason "pause_turn") resumed at most this often. */
	maxContinuations: 2,
	maxDomains: 64,
};

export const ANTHROPIC_NATIVE: NativeFilters = {
	hosts: true,
	paths: false,
	excludeHosts: true,
	excludePaths: false,
	recency: false,
	dateRange: false,
	maxResults: 20,
};

/** False for URLs the fetch step cannot serve: web_fetch returns PDFs as documents we do not read. */
export function canServe(request: FetchRequest): boolean {
	return !isPdfUrl(request.url);
}

function pdfError(provider: string): WebAccessError {
	return new WebAccessError("cannot fetch PDFs", { kind: "bad-request", code: "pdf", provider });
}

/** `<root>/v1/messages`, whether the base URL is the root or already ends in /v1. */
export function messagesUrl(base: string): string {
	return `${base.replace(/\/v1$/, "")}/v1/messages`;
}

function messagesHeaders(call: CallContext): Record<string, string> {
	const secret = call.key?.secret;
	const own: Record<string, string> = { "anthropic-version": ANTHROPIC_DEFAULTS.version };
	// A Claude subscription login (pi's OAuth) is a bearer token, not an API key.
	if (secret?.includes("sk-ant-oat")) {
		own.authorization = `Bearer ${secret}`;
		own["anthropic-beta"] = "oauth-2025-04-20";
	} else if (secret !== undefined) own["x-api-key"] = secret;
	return requestHeaders(call, own);
}

function messagesSpec(call: CallContext, baseUrl: string | undefined, body: Json): HttpRequestSpec {
	return {
		method: "POST",
		url: messagesUrl(modelBaseUrl(call, baseUrl)),
		headers: messagesHeaders(call),
		body,
		stream: true,
	};
}

function maxUses(call: CallContext): number {
	const value = numberOption(call.config.options, "maxUses") ?? ANTHROPIC_DEFAULTS.maxUses;
	return Math.min(10, Math.max(1, Math.round(value)));
}

function claudeSearchSpec(request: SearchRequest, call: CallContext, model: string, baseUrl: string | undefined) {
	const tool: Json = { type: ANTHROPIC_DEFAULTS.searchTool, name: "web_search", max_uses: maxUses(call) };
	// The tool takes allowed or blocked domains, not both: with domains the exclusions are left to the executor.
	const sites = callSites(request, call);
	if (sites.domains.length > 0) {
		const allowed = allowedHosts(sites.domains, ANTHROPIC_DEFAULTS.maxDomains);
		if (allowed !== undefined) tool.allowed_domains = allowed;
	} else {
		const blocked = blockedHosts(sites.excludeDomains, ANTHROPIC_DEFAULTS.maxDomains);
		if (blocked !== undefined) tool.blocked_domains = blocked;
	}
	const location = userLocation(call.config.options);
	if (location !== undefined) tool.user_location = location;
	const body = {
		model,
		max_tokens: ANTHROPIC_DEFAULTS.searchMaxTokens,
		messages: [{ role: "user", content: searchPrompt(request) }],
		tools: [tool],
		stream: true,
	};
	return messagesSpec(call, baseUrl, body);
}

function claudeFetchSpec(request: FetchRequest, call: CallContext, model: string, baseUrl: string | undefined) {
	const prompt = `Fetch ${request.url} with the web_fetch tool. When it has returned, reply with the single word: done`;
	const body = {
		model,
		max_tokens: ANTHROPIC_DEFAULTS.fetchMaxTokens,
		messages: [{ role: "user", content: prompt }],
		tools: [{ type: ANTHROPIC_DEFAULTS.fetchTool, name: "web_fetch", max_uses: 1, use_cache: false }],
		stream: true,
	};
	return messagesSpec(call, baseUrl, body);
}

function textOf(blocks: Json[]): string {
	return blocks
		.filter((block) => asString(block.type) === "text")
		.map((block) => asString(block.text) ?? "")
		.join("")
		.trim();
}

function claudeSearchResult(message: Json, request: SearchRequest, call: CallContext): ProviderSearchResult {
	const provider = call.config.name;
	const blocks = contentBlocks(message);
	const list = new ResultList();
	const errors: string[] = [];
	let lastResult = -1;
	blocks.forEach((block, index) => {
		if (asString(block.type) !== "web_search_tool_result") return;
		lastResult = index;
		const error = asString(asRecord(block.content)?.error_code);
		if (error !== undefined) errors.push(error);
		for (const item of asArray(block.content).map(asRecord)) {
			const url = asString(item?.url);
			if (item === undefined || url === undefined) continue;
			const publishedAt = calendarDate(item.page_age);
			list.add({
				title: asString(item.title) ?? hostOf(url),
				url,
				snippet: "",
				...(publishedAt ? { publishedAt } : {}),
			});
		}
	});
	for (const block of blocks) {
		for (const citation of asArray(block.citations).map(asRecord)) {
			const url = asString(citation?.url);
			if (citation === undefined || url === undefined) continue;
			list.add({
				title: asString(citation.title) ?? hostOf(url),
				url,
				snippet: (asString(citation.cited_text) ?? "").trim(),
			});
		}
	}
	const results = list.items();
	const first = errors[0];
	if (results.length === 0 && first !== undefined) throw toolError(provider, "web_search", first);
	const warnings: string[] = [];
	if (errors.length > 0)
		warnings.push(`web_search failed on a later search (${errors.join(", ")}); results may be incomplete`);
	const sites = callSites(request, call);
	if (sites.domains.length > 0 && sites.excludeDomains.length > 0) {
		warnings.push("web_search takes allowed or blocked domains, not both: excludeDomains are applied to the results");
	}
	if (message.stop_reason === "pause_turn")
		warnings.push("the search turn was still paused; results may be incomplete");
	const answer = textOf(lastResult === -1 ? blocks : blocks.slice(lastResult + 1));
	const usage = asRecord(message.usage);
	const result: ProviderSearchResult = {
		results,
		details: {
			model: asString(message.model) ?? "",
			searches: asRecord(usage?.server_tool_use)?.web_search_requests ?? 0,
		},
	};
	if (answer !== "") result.answer = answer;
	if (warnings.length > 0) result.warnings = warnings;
	return result;
}

function claudeFetchResult(message: Json, request: FetchRequest, provider: string): ProviderFetchResult {
	let errorCode: string | undefined;
	for (const block of contentBlocks(message)) {
		if (asString(block.type) !== "web_fetch_tool_result") continue;
		const content = asRecord(block.content) ?? {};
		if (asString(content.type) !== "web_fetch_result") {
			errorCode ??= asString(content.error_code);
			continue;
		}
		const document = asRecord(content.content) ?? {};
		const source = asRecord(document.source) ?? {};
		if (asString(source.type) !== "text" || /pdf/i.test(asString(source.media_type) ?? "")) throw pdfError(provider);
		const result: ProviderFetchResult = { content: asString(source.data) ?? "", extraction: "verbatim" };
		const title = asString(document.title);
		if (title) result.title = title;
		const finalUrl = asString(content.url);
		if (finalUrl !== undefined && finalUrl !== request.url) result.finalUrl = finalUrl;
		const retrievedAt = asString(content.retrieved_at);
		if (retrievedAt) result.crawledAt = retrievedAt;
		return result;
	}
	if (errorCode !== undefined) throw toolError(provider, "web_fetch", errorCode);
	throw new WebAccessError("the model did not call web_fetch", { kind: "parse", code: "no-fetch-result", provider });
}

/** Streams a Messages request, resuming a paused server-tool turn with the content so far. */
async function runMessages(spec: HttpRequestSpec, call: CallContext): Promise<Json> {
	const body = asRecord(spec.body) ?? {};
	let message = await streamMessages(spec, call);
	for (let turn = 0; turn < ANTHROPIC_DEFAULTS.maxContinuations && message.stop_reason === "pause_turn"; turn++) {
		const prior = contentBlocks(message);
		const messages = [...asArray(body.messages), { role: "assistant", content: prior }];
		const next = await streamMessages({ ...spec, body: { ...body, messages } }, call);
		message = { ...next, content: [...prior, ...contentBlocks(next)] };
	}
	return message;
}

/** The Anthropic Messages family: streamed, a paused turn resumed; PDFs refused before anything is sent. */
export const MESSAGES_FAMILY = defineFamily<Json>({
	vendor: ANTHROPIC_DEFAULTS,
	extraction: "verbatim",
	native: ANTHROPIC_NATIVE,
	searchSpec: claudeSearchSpec,
	fetchSpec: claudeFetchSpec,
	stream: runMessages,
	searchResult: (message, request, call) => claudeSearchResult(message, request, call),
	fetchResult: (message, request, call) => claudeFetchResult(message, request, call.config.name),
	startFetch: (request, call) => {
		if (!canServe(request)) throw pdfError(call.config.name);
	},
});
