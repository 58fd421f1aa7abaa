// A gateway's Codex group through the standalone search endpoint (`POST <base>/alpha/search`, `web.run`):
// `commands.search_query` returns structured results; `commands.open` on a literal URL returns the crawl index's
// copy of the page as `L<n>:` lines, which are paged here into our character windows (see sub2api-search/output.ts).

import { randomUUID } from "node:crypto";
import { WebAccessError } from "../../engine/errors.ts";
import { DAY_MS, isNamedRecency, RECENCY_DAYS, recencyBounds } from "../../engine/recency.ts";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { SearchResultItem } from "../../engine/result-types.ts";
import type {
	CallContext,
	HttpRequestSpec,
	ProviderDefinition,
	ProviderFetchResult,
	ProviderSearchResult,
} from "../contract.ts";
import { userLocation } from "../families/model-call.ts";
import { bearer, httpCall, jsonOrThrow, requestHeaders, sendOptionsOf } from "../http/call.ts";
import { classifyError } from "../http/classify.ts";
import { asArray, asRecord, asString } from "../http/json.ts";
import { type HttpResponse, parseError } from "../http/response.ts";
import { abortError, send } from "../http/send.ts";
import { allowedHosts, blockedHosts, callSites } from "../params/filters.ts";
import { definitionFacts } from "../type-facts.ts";
import facts from "./facts.ts";
import {
	type CodexBlock,
	inBandFailure,
	knownPage,
	parseCodexOutput,
	relativeAgeToDate,
	stripCitations,
} from "./output.ts";

const DEFAULTS = {
	/** Results one search_query returns (observed ~10–35); also native.maxResults. */
	maxResults: 20,
	/** Open calls one fetch may make while paging by lines toward offset + maxChars. */
	maxOpenCalls: 12,
	/** Hosts sent in allowed_domains / blocked_domains (Codex sends a handful; more is untested). */
	maxDomains: 20,
} as const;

/** One session id per configured provider: result refs are scoped to it, and Codex reuses one per thread. */
const sessions = new Map<string, string>();

export function sessionIdFor(call: CallContext): string {
	let id = sessions.get(call.config.name);
	if (id === undefined) {
		id = randomUUID();
		sessions.set(call.config.name, id);
	}
	return id;
}

/** `<base>/alpha/search` for `…/v1` and `…/codex` bases, ChatGPT's `/backend-api` → `/codex/alpha/search`, else `/v1/alpha/search`. */
export function searchEndpoint(call: CallContext): string {
	const base = (call.config.baseUrl ?? call.piAuth?.baseUrl ?? "").replace(/\/+$/, "");
	if (base === "") {
		throw new WebAccessError("no base URL: set `provider` to the pi provider of the gateway's Codex group", {
			kind: "config",
			code: "no-base-url",
			provider: call.config.name,
		});
	}
	if (/\/backend-api$/.test(base)) return `${base}/codex/alpha/search`;
	if (/\/(v\d+|codex)$/.test(base)) return `${base}/alpha/search`;
	return `${base}/v1/alpha/search`;
}

function modelOf(call: CallContext): string {
	if (call.config.model) return call.config.model;
	throw new WebAccessError("no model: sub2api-search needs `model` (the id the gateway routes)", {
		kind: "config",
		code: "no-model",
		provider: call.config.name,
	});
}

function post(body: Record<string, unknown>, call: CallContext): HttpRequestSpec {
	return {
		method: "POST",
		url: searchEndpoint(call),
		headers: requestHeaders(call, { "content-type": "application/json", accept: "application/json", ...bearer(call) }),
		body: { id: sessionIdFor(call), model: modelOf(call), ...body },
	};
}

/** Days back for `recency`; a date range sends its start (the executor applies the end). */
export function recencyDays(recency: SearchRequest["recency"], now = new Date()): number | undefined {
	if (recency === undefined) return undefined;
	if (isNamedRecency(recency)) return RECENCY_DAYS[recency];
	const { from } = recencyBounds(recency, now.getTime());
	const start = from === undefined ? Number.NaN : Date.parse(`${from}T00:00:00Z`);
	if (Number.isNaN(start)) return undefined;
	return Math.max(1, Math.ceil((now.getTime() - start) / DAY_MS));
}

export function buildSearchRequest(request: SearchRequest, call: CallContext): HttpRequestSpec {
	const query: Record<string, unknown> = { q: request.query };
	const days = recencyDays(request.recency);
	if (days !== undefined) query.recency = days;
	const sites = callSites(request, call);
	const allowed = allowedHosts(sites.domains, DEFAULTS.maxDomains);
	if (allowed !== undefined) query.domains = allowed;
	const blocked = blockedHosts(sites.excludeDomains, DEFAULTS.maxDomains);
	const settings: Record<string, unknown> = {};
	if (allowed !== undefined || blocked !== undefined) {
		settings.filters = {
			...(allowed === undefined ? {} : { allowed_domains: allowed }),
			...(blocked === undefined ? {} : { blocked_domains: blocked }),
		};
	}
	const location = userLocation(call.config.options);
	if (location !== undefined) settings.user_location = location;
	const body: Record<string, unknown> = { commands: { search_query: [query] } };
	if (Object.keys(settings).length > 0) body.settings = settings;
	return post(body, call);
}

/** `output` and `results` of a 2xx answer; HTTP errors and non-JSON bodies throw the classified error. */
function readAnswer(res: HttpResponse, provider: string): { output: string; results: Record<string, unknown>[] } {
	const json = asRecord(jsonOrThrow(res, provider));
	const output = asString(json?.output);
	if (json === undefined || output === undefined) {
		throw parseError(res, provider, "alpha-search-shape", "answer without an output text");
	}
	const results = asArray(json.results)
		.map(asRecord)
		.filter((item) => item !== undefined);
	return { output, results };
}

function inBandError(message: string, code: string, call: CallContext, url?: string): WebAccessError {
	return new WebAccessError(message, { kind: "bad-request", code, provider: call.config.name, status: 200, url });
}

function resultOf(
	item: Record<string, unknown>,
	block: CodexBlock | undefined,
	now: Date,
): SearchResultItem | undefined {
	const url = asString(item.url) ?? block?.url;
	const title = asString(item.title);
	if (!url || title === "Internal Error") return undefined;
	const snippet = asString(item.snippet) ?? block?.text ?? "";
	const out: SearchResultItem = { title: title || block?.title || url, url, snippet: stripCitations(snippet) };
	const published = block?.published === undefined ? undefined : relativeAgeToDate(block.published, now);
	if (published !== undefined) out.publishedAt = published;
	return out;
}

export function parseSearchResponse(
	res: HttpResponse,
	_request: SearchRequest,
	call: CallContext,
): ProviderSearchResult {
	const { output, results } = readAnswer(res, call.config.name);
	const blocks = parseCodexOutput(output);
	const failure = inBandFailure(output);
	const now = new Date();
	const byRef = new Map(blocks.filter((b) => b.ref !== undefined).map((b) => [b.ref, b]));
	const items = results.length > 0 ? results : blocks.map((b) => ({ ref_id: b.ref, url: b.url, title: b.title }));
	const found: SearchResultItem[] = [];
	for (const item of items) {
		const ref = asString(item.ref_id);
		const result = resultOf(item, ref === undefined ? undefined : byRef.get(ref), now);
		if (result !== undefined) found.push(result);
	}
	if (found.length === 0 && failure !== undefined) {
		throw inBandError(`backend reported a failure: ${failure.text}`, "alpha-search-failure", call);
	}
	// Not cut here: the executor cuts to maxResults after its filters and de-duplication.
	const out: ProviderSearchResult = { results: found };
	if (items.some((item) => asString(item.title) === "Internal Error")) {
		out.warnings = ["the backend reported an internal error for part of the search"];
	}
	return out;
}

// ---------------------------------------------------------------------------------------------
// Fetch: open the URL, page by lines, window by characters
// ---------------------------------------------------------------------------------------------

/** The URL the index is asked for: http:// pages are held under https://. */
export function indexUrl(url: string): { url: string; warning?: string } {
	if (!/^http:\/\//i.test(url)) return { url };
	return { url: `https://${url.slice("http://".length)}`, warning: "http:// upgraded to https:// for the crawl index" };
}

export function buildOpenRequest(url: string, lineno: number, call: CallContext): HttpRequestSpec {
	return post({ commands: { open: [{ ref_id: url, lineno }] } }, call);
}

export function buildFetchRequest(request: FetchRequest, call: CallContext): HttpRequestSpec {
	return buildOpenRequest(indexUrl(request.url).url, 0, call);
}

/** One opened page: its block, or the classified failure ("not indexed" when the index holds no copy). */
export function parseOpenResponse(res: HttpResponse, url: string, call: CallContext): CodexBlock {
	const { output } = readAnswer(res, call.config.name);
	const failure = inBandFailure(output);
	if (failure?.kind === "arguments") {
		throw inBandError(`backend reported a failure: ${failure.text}`, "alpha-search-failure", call, url);
	}
	const page = parseCodexOutput(output).find((block) => block.lines.size > 0 && block.title !== "Internal Error");
	if (failure !== undefined || page === undefined || knownPage([page]).text === "") {
		const why = failure?.text ?? "no page text";
		throw inBandError(`not indexed: the crawl index has no copy of this page (${why})`, "not-indexed", call, url);
	}
	return page;
}

/** Whole text when every line is known, else the window at `request.offset` of the lines gathered so far. */
export function assembleFetch(
	pages: CodexBlock[],
	request: FetchRequest,
	warnings: string[],
	provider: string,
): ProviderFetchResult {
	const first = pages[0]!;
	const page = knownPage(pages);
	const out: ProviderFetchResult = { content: page.text, extraction: "verbatim" };
	if (!page.complete) {
		// Offsets count from the page's first line, so a window is only exact when every earlier line is known.
		const content = page.text.slice(request.offset, request.offset + request.maxChars);
		if (content === "") {
			throw new WebAccessError(
				`could not page to offset ${request.offset}: the index returned ${page.text.length} characters`,
				{
					kind: "bad-request",
					code: "offset-unreachable",
					provider,
				},
			);
		}
		out.content = content;
		out.window = { truncated: true, nextOffset: request.offset + content.length };
	}
	if (first.title) out.title = first.title;
	if (first.url) out.finalUrl = first.url;
	if (first.crawled) out.crawledAt = first.crawled;
	const notes = page.start > 0 ? [...warnings, `the index returned the page from line ${page.start} on`] : warnings;
	if (notes.length > 0) out.warnings = [...notes];
	return out;
}

export function parseFetchResponse(res: HttpResponse, request: FetchRequest, call: CallContext): ProviderFetchResult {
	const { url, warning } = indexUrl(request.url);
	return assembleFetch([parseOpenResponse(res, url, call)], request, warning ? [warning] : [], call.config.name);
}

/** The next line to open, or undefined when the text gathered so far covers the request or the page. */
function nextLine(pages: CodexBlock[], request: FetchRequest): number | undefined {
	const page = knownPage(pages);
	return page.complete || page.text.length >= request.offset + request.maxChars ? undefined : page.next;
}

async function fetchPage(request: FetchRequest, call: CallContext): Promise<ProviderFetchResult> {
	const { url, warning } = indexUrl(request.url);
	const warnings = warning ? [warning] : [];
	const options = sendOptionsOf(call);
	const pages = [parseOpenResponse(await send(buildOpenRequest(url, 0, call), options), url, call)];
	for (let calls = 1; calls < DEFAULTS.maxOpenCalls; calls++) {
		const lineno = nextLine(pages, request);
		if (lineno === undefined) break;
		if (call.signal.aborted) throw abortError(call.signal.reason, call.config.name);
		call.onProgress(`${call.config.name}: reading lines from ${lineno}`);
		let page: CodexBlock;
		try {
			page = parseOpenResponse(await send(buildOpenRequest(url, lineno, call), options), url, call);
		} catch (error) {
			// The lines already read still make a window; only cancellation ends the call.
			if (call.signal.aborted) throw error;
			warnings.push(`paging stopped at line ${lineno}: ${classifyError(error).reason}`);
			break;
		}
		// A window that adds nothing would repeat forever.
		if (![...page.lines.keys()].some((n) => n >= lineno)) break;
		pages.push(page);
	}
	return assembleFetch(pages, request, warnings, call.config.name);
}

const definition: ProviderDefinition = {
	...definitionFacts(facts),
	native: {
		hosts: true,
		paths: false,
		excludeHosts: true,
		excludePaths: false,
		recency: true,
		dateRange: false,
		maxResults: DEFAULTS.maxResults,
	},
	search: httpCall(buildSearchRequest, parseSearchResponse),
	fetch: fetchPage,
	classify: classifyError,
};

export default definition;
