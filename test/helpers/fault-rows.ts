// The fault matrix as data: every registered provider type × capability (a row) and every fault, with the reply the
// fault server sends and the classification the type documents for it, or why the combination cannot apply.
// Backend errors inside a 200 come from the backend formats in docs/providers/.

import type { ErrorClass, KeyVerdict } from "../../engine/error-classes.ts";
import type { Capability } from "../../engine/request-types.ts";
import { HTTP_DEFAULTS } from "../../providers/http/dispatcher.ts";
import { allProviderTypes, type ProviderType } from "../../providers/registry.ts";
import { fixture, fixtureJson } from "../contract/provider-contract.ts";
import type { Reply } from "./fault-server.ts";
import { cutMidEvent, messagesSse } from "./model-sse.ts";

export const FAULTS = [
	"refused",
	"reset-mid-body",
	"stall-headers",
	"stall-body",
	"429",
	"401",
	"403",
	"500",
	"503",
	"html-200",
	"backend-error",
	"garbled",
	"truncated-sse",
	"over-cap",
	"over-cap-streamed",
	"gzip-bomb",
] as const;

export type Fault = (typeof FAULTS)[number];

/**
 * What the provider makes of a fault: "ok" when it still answers (direct cuts an oversized page), else the class.
 * A generic server, transport or timeout failure carries no key verdict: the walk moves on to the next provider
 * (only Doubao's documented 10500/10501 ask for a same-key retry, tested in executor-keys.test.ts).
 */
export interface Expected {
	outcome: ErrorClass | "ok";
	/** What the failure says about the key (only checked where keys rotate). */
	verdict?: KeyVerdict;
	retryAfterMs?: number;
}

export type KeySource = "pool" | "pi" | "none";

export interface Row {
	id: string;
	type: string;
	capability: Capability;
	/** A 2-key pool in the config, the key of a pi provider, or no key at all. */
	keys: KeySource;
	/** The type reads an event stream (model types); the SSE faults apply only to these. */
	stream: boolean;
	/** Provider config beyond type, baseUrl, timeoutMs and keys. */
	config: Record<string, unknown>;
	spec: TypeSpec;
}

/** Fetch URL of the API rows: exa's partial-contents fixture reports exactly this page as CRAWL_NOT_FOUND. */
export const FETCH_URL = "https://docs.example.org/guides/removed-page";

/** Bodies inflate past the shared HTTP cap (10 MB); direct gets a small cap of its own so its cut stays cheap. */
export const OVER_CAP_BYTES = HTTP_DEFAULTS.maxBytes + 256 * 1024;
export const DIRECT_MAX_BYTES = 16 * 1024;

interface BackendError {
	body: string;
	contentType: string;
	expected: Expected;
}

interface TypeSpec {
	type: string;
	keys: KeySource;
	config?: Record<string, unknown>;
	/** SSE fixture a truncated stream is cut from; absent for types that answer JSON. */
	sse?: string;
	backendError: Partial<Record<Capability, BackendError>> | string;
	overrides?: Partial<Record<Fault, Expected | { skip: string }>>;
	/** The step timeout of the stall faults when the type needs longer than the matrix's default to start. */
	stallTimeoutMs?: number;
}

const JSON_TYPE = "application/json";
const SSE_TYPE = "text/event-stream";
const json = (value: unknown) => JSON.stringify(value);
const openAiStreamError: BackendError = {
	body: fixture("openai/stream_error.sse"),
	contentType: SSE_TYPE,
	expected: { outcome: "server" },
};
const claudeToolErrors: Partial<Record<Capability, BackendError>> = {
	// max_uses_exceeded is the backend giving up (server); url_not_accessible is about the page (bad-request).
	search: {
		body: messagesSse(fixtureJson("anthropic/response_web_search_tool_error.json") as Record<string, unknown>),
		contentType: SSE_TYPE,
		expected: { outcome: "server" },
	},
	fetch: {
		body: messagesSse(fixtureJson("anthropic/response_web_fetch_tool_error.json") as Record<string, unknown>),
		contentType: SSE_TYPE,
		expected: { outcome: "bad-request" },
	},
};
const jinaEnvelope: BackendError = {
	body: fixture("jina/error_429_rate_limited.json"),
	contentType: JSON_TYPE,
	expected: { outcome: "rate-limit", verdict: "rate-limited", retryAfterMs: 7000 },
};
const gateway = { provider: "gw", model: "m-fault" };

const DIRECT_OVERRIDES: TypeSpec["overrides"] = {
	// The page's own status is about this URL, not the fetcher: bad-request, nothing cooled (convert.ts).
	"429": { outcome: "bad-request" },
	"401": { outcome: "bad-request" },
	"403": { outcome: "bad-request" },
	"500": { outcome: "server" },
	"503": { outcome: "server" },
	"html-200": { skip: "an HTML page is what direct fetches: it is the success, not a fault" },
	garbled: { skip: "direct returns text and JSON bodies as they are: there is no JSON to garble" },
	// A page longer than maxBytes is cut at the cap and answered with a warning (direct.ts maxBytes option).
	"over-cap": { outcome: "ok" },
	"over-cap-streamed": { outcome: "ok" },
	"gzip-bomb": { outcome: "ok" },
};

/** Keyless types that fetch the page themselves (no backend, no baseUrl): the fault is served as the page. */
export const PAGE_FETCHERS: ReadonlySet<string> = new Set(["direct", "browser"]);

export const TYPE_SPECS: TypeSpec[] = [
	{ type: "anthropic", keys: "pool", sse: "anthropic/stream_web_search.sse", backendError: claudeToolErrors },
	{ type: "brave", keys: "pool", backendError: "Brave reports every failure with an HTTP status (brave.md)" },
	{
		type: "browser",
		keys: "none",
		config: { maxBytes: DIRECT_MAX_BYTES, settleMs: 1000 },
		backendError: "the browser renders the page itself: there is no backend to report an error",
		// Each case launches the browser (the matrix closes it after every case): the stall's step time holds that too.
		stallTimeoutMs: 8000,
		overrides: {
			...DIRECT_OVERRIDES,
			// The cap cuts the browser's connection before the document commits: too-large, where direct reads a part.
			"over-cap": { outcome: "bad-request" },
		},
	},
	{ type: "deepseek", keys: "pool", backendError: "DeepSeek's error envelope comes with HTTP statuses (deepseek.md)" },
	{
		type: "direct",
		keys: "none",
		config: { maxBytes: DIRECT_MAX_BYTES },
		backendError: "direct talks to the page itself: there is no backend to report an error",
		overrides: DIRECT_OVERRIDES,
	},
	{
		type: "doubao",
		keys: "pool",
		backendError: {
			search: {
				body: fixture("doubao/web_search_error_700429_rate_limit.json"),
				contentType: JSON_TYPE,
				expected: { outcome: "rate-limit", verdict: "rate-limited" },
			},
		},
	},
	{
		type: "doubao-global",
		keys: "pool",
		backendError: {
			search: {
				body: fixture("doubao/global_search_result_level_error_700901.json"),
				contentType: JSON_TYPE,
				expected: { outcome: "auth", verdict: "exhausted" },
			},
		},
	},
	{
		type: "exa",
		keys: "pool",
		backendError: {
			// Only /contents reports per-URL failures inside a 200 (exa.md); search failures are HTTP statuses.
			fetch: {
				body: fixture("exa/contents_success_partial.json"),
				contentType: JSON_TYPE,
				expected: { outcome: "bad-request" },
			},
		},
	},
	{
		type: "gemini",
		keys: "pool",
		sse: "gemini/stream.sse",
		backendError: {
			// An error mid-stream is a chunk `{"error": {...}}` (gemini.md, Streaming); url_context failures are a 200.
			search: {
				body: `data: ${json({ error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } })}\r\n\r\n`,
				contentType: SSE_TYPE,
				expected: { outcome: "server" },
			},
			fetch: {
				body: `data: ${json(fixtureJson("gemini/response_url_context_error.json"))}\r\n\r\n`,
				contentType: SSE_TYPE,
				expected: { outcome: "bad-request" },
			},
		},
	},
	{ type: "jina", keys: "pool", backendError: { search: jinaEnvelope, fetch: jinaEnvelope } },
	{
		type: "model",
		keys: "pi",
		sse: "openai/stream.sse",
		backendError: { search: openAiStreamError, fetch: openAiStreamError },
	},
	{ type: "ollama", keys: "pool", backendError: "Ollama reports failures with HTTP statuses only (ollama.md)" },
	{
		type: "openai",
		keys: "pool",
		sse: "openai/stream.sse",
		backendError: { search: openAiStreamError, fetch: openAiStreamError },
	},
	{
		type: "searxng",
		keys: "none",
		backendError: "SearXNG reports failing engines as warnings inside a good answer, never as an error",
	},
	{
		type: "sub2api-claude",
		keys: "pi",
		config: gateway,
		sse: "anthropic/stream_web_search.sse",
		backendError: claudeToolErrors,
	},
	{
		type: "sub2api-codex",
		keys: "pi",
		config: gateway,
		sse: "openai/stream.sse",
		backendError: { search: openAiStreamError, fetch: openAiStreamError },
	},
	{
		type: "sub2api-grok",
		keys: "pi",
		config: gateway,
		sse: "xai/stream.sse",
		backendError: { search: openAiStreamError, fetch: openAiStreamError },
	},
	{
		type: "sub2api-search",
		keys: "pi",
		config: gateway,
		backendError: {
			search: {
				body: fixture("sub2api-search/error_200_no_tool_response.json"),
				contentType: JSON_TYPE,
				expected: { outcome: "bad-request" },
			},
			fetch: {
				body: fixture("sub2api-search/error_200_invalid_ref_open.json"),
				contentType: JSON_TYPE,
				expected: { outcome: "bad-request" },
			},
		},
	},
	{
		type: "tavily",
		keys: "pool",
		backendError: {
			fetch: {
				body: json({ results: [], failed_results: [{ url: FETCH_URL, error: "Failed to fetch url" }] }),
				contentType: JSON_TYPE,
				expected: { outcome: "bad-request" },
			},
		},
	},
	{
		type: "xai",
		keys: "pool",
		sse: "xai/stream.sse",
		backendError: { search: openAiStreamError, fetch: openAiStreamError },
	},
];

const DEFAULT_EXPECTED: Record<Exclude<Fault, "backend-error">, Expected> = {
	refused: { outcome: "transport" },
	"reset-mid-body": { outcome: "parse" },
	"stall-headers": { outcome: "timeout" },
	"stall-body": { outcome: "timeout" },
	"429": { outcome: "rate-limit", verdict: "rate-limited", retryAfterMs: 7000 },
	"401": { outcome: "auth", verdict: "exhausted" },
	"403": { outcome: "auth", verdict: "exhausted" },
	"500": { outcome: "server" },
	"503": { outcome: "server" },
	"html-200": { outcome: "parse" },
	garbled: { outcome: "parse" },
	"truncated-sse": { outcome: "parse" },
	"over-cap": { outcome: "parse" },
	"over-cap-streamed": { outcome: "parse" },
	"gzip-bomb": { outcome: "parse" },
};

const HTML_ERROR_PAGE =
	"<!DOCTYPE html><html><head><title>Service unavailable</title></head><body><h1>Try again later</h1></body></html>";

function errorAnswer(status: number, headers: Record<string, string> = {}): Reply {
	const body = json({ error: { message: `fault server says ${status}` } });
	return { kind: "answer", status, headers: { "content-type": JSON_TYPE, ...headers }, body };
}

/** What the server sends for `fault` on `row` ("refused" is a closed port, not a reply). */
export function replyFor(row: Row, fault: Fault, bomb: Buffer): Reply | undefined {
	const direct = PAGE_FETCHERS.has(row.type);
	const contentType = direct ? "text/html" : row.stream ? SSE_TYPE : JSON_TYPE;
	const start = direct ? "<html><body><p>" : row.stream ? "event: message\ndata: " : '{"results": [';
	switch (fault) {
		case "refused":
			return undefined;
		case "reset-mid-body":
			return { kind: "reset-mid-body", contentType, body: start + "x".repeat(4000), sendBytes: 200 };
		case "stall-headers":
			return { kind: "stall-headers" };
		case "stall-body":
			return { kind: "stall-body", contentType, head: start };
		case "429":
			return errorAnswer(429, { "retry-after": "7" });
		case "401":
		case "403":
		case "500":
		case "503":
			return errorAnswer(Number(fault));
		case "html-200":
			return { kind: "answer", headers: { "content-type": "text/html" }, body: HTML_ERROR_PAGE };
		case "backend-error": {
			const error = typeof row.spec.backendError === "string" ? undefined : row.spec.backendError[row.capability];
			if (error === undefined) return undefined;
			return { kind: "answer", headers: { "content-type": error.contentType }, body: error.body };
		}
		case "garbled":
			return { kind: "answer", headers: { "content-type": contentType }, body: `${start}{"title": "a",, ]]}\n\n` };
		case "truncated-sse":
			return {
				kind: "answer",
				headers: { "content-type": SSE_TYPE },
				body: cutMidEvent(fixture(row.spec.sse ?? ""), 2),
			};
		case "over-cap":
			return { kind: "endless", contentType, bytes: OVER_CAP_BYTES, prefix: start, declared: true };
		case "over-cap-streamed":
			return { kind: "endless", contentType, bytes: OVER_CAP_BYTES, prefix: start };
		case "gzip-bomb":
			return { kind: "gzip", contentType, compressed: bomb };
	}
}

/** The expectation for `fault` on `row`, or why the combination cannot apply. */
export function expectationFor(row: Row, fault: Fault): Expected | { skip: string } {
	const override = row.spec.overrides?.[fault];
	if (override !== undefined) return override;
	if (fault === "truncated-sse" && !row.stream) return { skip: "the type does not read an event stream" };
	if (fault === "backend-error") {
		const { backendError } = row.spec;
		if (typeof backendError === "string") return { skip: backendError };
		const error = backendError[row.capability];
		return error?.expected ?? { skip: `no ${row.capability} failure inside a 200 is documented for ${row.type}` };
	}
	return DEFAULT_EXPECTED[fault];
}

/**
 * What the matrix knows of a type: its entry above, or, for a type without one, what its facts say (where the key
 * comes from, whether a gateway's provider and model are required) and no documented failure inside a 200.
 */
export function specFor(facts: ProviderType): TypeSpec {
	const known = TYPE_SPECS.find((spec) => spec.type === facts.type);
	if (known !== undefined) return known;
	const { credentials } = facts;
	const keys: KeySource = credentials === "none" ? "none" : typeof credentials === "object" ? "pool" : "pi";
	return {
		type: facts.type,
		keys,
		...(facts.required?.includes("provider") ? { config: gateway } : {}),
		backendError: `no failure inside a 200 is documented for ${facts.type}`,
	};
}

/** Every registered type (providers/registry.ts) × each capability it has. */
export function rows(types: readonly ProviderType[] = allProviderTypes()): Row[] {
	return types.map(specFor).flatMap((spec) =>
		(["search", "fetch"] as const)
			.filter((capability) => types.find((facts) => facts.type === spec.type)?.[capability])
			.map((capability) => ({
				id: `${spec.type}-${capability}`,
				type: spec.type,
				capability,
				keys: spec.keys,
				stream: spec.sse !== undefined,
				config: spec.config ?? {},
				spec,
			})),
	);
}
