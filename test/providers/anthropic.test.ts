// anthropic (Messages API + web_search / web_fetch server tools) against a fake /v1/messages replaying the
// Anthropic fixtures: exact request bodies and headers, the streamed answer with cited results, verbatim fetch,
// tool-result error blocks by code, PDFs refused, paused turns resumed, streams cut mid-event.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import definition, { buildSearchRequest, canServe } from "../../providers/anthropic/provider.ts";
import type { CallContext, ProviderFetchResult, ProviderSearchResult } from "../../providers/contract.ts";
import { toolErrorClass } from "../../providers/families/messages-api.ts";
import {
	CONTRACT_KEY,
	type ContractCase,
	fixture,
	fixtureJson,
	runProviderContract,
} from "../contract/provider-contract.ts";
import { type FakeServer, startFakeServer } from "../helpers/fake-server.ts";
import { cutMidEvent, dropLastEvents, messagesSse } from "../helpers/model-sse.ts";

type Json = Record<string, unknown>;

function search(query: string, extra: Partial<SearchRequest> = {}): SearchRequest {
	return { kind: "search", query, domains: [], excludeDomains: [], maxResults: 5, includeContent: false, ...extra };
}

function fetchOf(url: string): FetchRequest {
	return { kind: "fetch", url, offset: 0, maxChars: 20_000 };
}

const searchResult = (check: (r: ProviderSearchResult) => void) => ({
	result: (r: unknown) => check(r as ProviderSearchResult),
});
const fetchResult = (check: (r: ProviderFetchResult) => void) => ({
	result: (r: unknown) => check(r as ProviderFetchResult),
});

const portSearch = search("What is the default port of example-server 3?", {
	domains: ["docs.example.org", "blog.example.net"],
});
const PROMPT =
	"Search the web for: What is the default port of example-server 3?\nThen answer briefly from what you found and cite every source you use as a markdown link. Use up to 5 relevant sources.";
const berlin = { city: "Berlin", region: "Berlin", country: "DE", timezone: "Europe/Berlin" };
const searchSuccess = fixtureJson("anthropic/response_web_search_success.json") as Json;
const fetchSuccess = fixtureJson("anthropic/response_web_fetch_success.json") as Json;
const PAGE = "Ports and listeners\n\nBy default the server listens on port 8443 for TLS traffic.";

/** The tool-error fixture with another error code. */
function searchError(code: string): Json {
	const message = fixtureJson("anthropic/response_web_search_tool_error.json") as Json;
	const blocks = (message.content as Json[]).map((block) =>
		block.type === "web_search_tool_result"
			? { ...block, content: { type: "web_search_tool_result_error", error_code: code } }
			: block,
	);
	return { ...message, content: blocks };
}

/** The fetch success message with its document source replaced. */
function fetchWithSource(source: Json): Json {
	const blocks = (fetchSuccess.content as Json[]).map((block) => {
		if (block.type !== "web_fetch_tool_result") return block;
		const content = block.content as Json;
		return { ...block, content: { ...content, content: { ...(content.content as Json), source } } };
	});
	return { ...fetchSuccess, content: blocks };
}

/** The search fixture split after its first tool result: a turn paused with `pause_turn`, and the rest. */
const searchBlocks = searchSuccess.content as Json[];
const pausedSearch = { ...searchSuccess, content: searchBlocks.slice(0, 3), stop_reason: "pause_turn" };
const restOfSearch = { ...searchSuccess, content: searchBlocks.slice(3) };

const expectedResults = [
	{
		title: "Ports and listeners | example-server docs",
		url: "https://docs.example.org/server/ports",
		snippet: "By default the server listens on port 8443 for TLS traffic.",
		publishedAt: "2026-03-02",
	},
	{ title: "Upgrading to example-server 3", url: "https://blog.example.net/example-server-3-upgrade", snippet: "" },
];

const cases: ContractCase[] = [
	{
		name: "search streams web_search_20250305 with allowed domains, max uses and location; answer after the results",
		capability: "search",
		request: portSearch,
		config: { model: "claude-sonnet-4-5", options: { userLocation: berlin } },
		respond: { sse: fixture("anthropic/stream_web_search.sse") },
		expectRequest: {
			method: "POST",
			path: "/v1/messages",
			headers: {
				"x-api-key": CONTRACT_KEY.secret,
				"anthropic-version": "2023-06-01",
				authorization: undefined,
				accept: "text/event-stream",
			},
			body: {
				...(fixtureJson("anthropic/request_web_search.json") as object),
				max_tokens: 2048,
				messages: [{ role: "user", content: PROMPT }],
				stream: true,
			},
		},
		expect: searchResult((r) => {
			expect(r.answer).toBe("In version 3 the default listener moved to port 8443 (TLS).");
			expect(r.results).toEqual(expectedResults);
			expect(r.warnings).toBeUndefined();
		}),
	},
	{
		name: "only exclusions: whole hosts go to blocked_domains, path exclusions stay with the executor",
		capability: "search",
		request: search("ports", { excludeDomains: ["spam.example.com", "go.dev/doc/install"] }),
		config: { options: { maxUses: 5 } },
		respond: { sse: messagesSse(searchSuccess) },
		expectRequest: {
			bodyIncludes: {
				model: "claude-sonnet-4-5",
				tools: [
					{ type: "web_search_20250305", name: "web_search", max_uses: 5, blocked_domains: ["spam.example.com"] },
				],
			},
		},
		expect: searchResult((r) => expect(r.results).toEqual(expectedResults)),
	},
	{
		name: "domains and exclusions together: allowed domains only, exclusions left to the executor with a warning",
		capability: "search",
		request: search("ports", { domains: ["docs.example.org"], excludeDomains: ["blog.example.net"] }),
		respond: { sse: messagesSse(searchSuccess) },
		expectRequest: {
			bodyIncludes: {
				tools: [
					{ type: "web_search_20250305", name: "web_search", max_uses: 3, allowed_domains: ["docs.example.org"] },
				],
			},
		},
		expect: searchResult((r) =>
			expect(r.warnings).toEqual([expect.stringMatching(/excludeDomains are applied to the results/)]),
		),
	},
	{
		name: "a paused search turn (pause_turn) is resumed with the content so far; the answer comes from both parts",
		capability: "search",
		request: portSearch,
		respond: [{ sse: messagesSse(pausedSearch) }, { sse: messagesSse(restOfSearch) }],
		expectRequest: [
			{ path: "/v1/messages", bodyIncludes: { messages: [{ role: "user", content: PROMPT }] } },
			{
				path: "/v1/messages",
				bodyIncludes: {
					messages: [
						{ role: "user", content: PROMPT },
						{ role: "assistant", content: pausedSearch.content },
					],
				},
			},
		],
		expect: searchResult((r) => {
			expect(r.answer).toBe("In version 3 the default listener moved to port 8443 (TLS).");
			expect(r.results).toEqual(expectedResults);
			expect(r.warnings).toBeUndefined();
		}),
	},
	{
		name: "a turn still paused after two resumptions stops there and warns that results may be incomplete",
		capability: "search",
		request: portSearch,
		respond: [
			{ sse: messagesSse(pausedSearch) },
			{ sse: messagesSse(pausedSearch) },
			{ sse: messagesSse(pausedSearch) },
		],
		expectRequest: [{}, {}, {}],
		expect: searchResult((r) => {
			expect(r.warnings).toContain("the search turn was still paused; results may be incomplete");
			expect(r.results.map((x) => x.url)).toContain("https://docs.example.org/server/ports");
		}),
	},
	{
		name: "a paused fetch turn is resumed and the web_fetch result of the second part is returned",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/server/ports"),
		respond: [
			{
				sse: messagesSse({
					...fetchSuccess,
					content: (fetchSuccess.content as Json[]).slice(0, 1),
					stop_reason: "pause_turn",
				}),
			},
			{ sse: messagesSse({ ...fetchSuccess, content: (fetchSuccess.content as Json[]).slice(1) }) },
		],
		expectRequest: [{ path: "/v1/messages" }, { path: "/v1/messages" }],
		expect: fetchResult((r) => expect(r.content.startsWith(PAGE)).toBe(true)),
	},
	{
		name: "a web_search_tool_result_error with no results fails with its code (max_uses_exceeded → server)",
		capability: "search",
		request: portSearch,
		respond: { sse: messagesSse(fixtureJson("anthropic/response_web_search_tool_error.json") as Json) },
		expect: { errorClass: "server", reasonIncludes: "max_uses_exceeded" },
	},
	{
		name: "too_many_requests in a tool-result block is rate-limit",
		capability: "search",
		request: portSearch,
		respond: { sse: messagesSse(searchError("too_many_requests")) },
		expect: { errorClass: "rate-limit", keyVerdict: "rate-limited", reasonIncludes: "too_many_requests" },
	},
	{
		name: "an overloaded error event in the stream is a server error",
		capability: "search",
		request: portSearch,
		respond: { sse: fixture("anthropic/stream_error_overloaded.sse") },
		expect: { errorClass: "server", reasonIncludes: "overloaded_error" },
	},
	{
		name: "a stream cut inside an event is a parse error",
		capability: "search",
		request: portSearch,
		respond: { sse: cutMidEvent(fixture("anthropic/stream_web_search.sse"), 12) },
		expect: { errorClass: "parse" },
	},
	{
		name: "a stream that ends before message_stop is a parse error",
		capability: "search",
		request: portSearch,
		respond: { sse: dropLastEvents(fixture("anthropic/stream_web_search.sse"), 2) },
		expect: { errorClass: "parse", reasonIncludes: "message_stop" },
	},
	{
		name: "401 authentication_error is auth",
		capability: "search",
		request: portSearch,
		respond: { status: 401, body: fixture("anthropic/error_401_authentication.json") },
		expect: { errorClass: "auth", keyVerdict: "exhausted" },
	},
	{
		name: "429 rate_limit_error is rate-limit",
		capability: "search",
		request: portSearch,
		respond: { status: 429, body: fixture("anthropic/error_429_rate_limit.json"), headers: { "retry-after": "12" } },
		expect: { errorClass: "rate-limit", retryAfterMs: 12_000 },
	},
	{
		name: "529 overloaded_error is a server error",
		capability: "search",
		request: portSearch,
		respond: { status: 529, body: fixture("anthropic/error_529_overloaded.json") },
		expect: { errorClass: "server" },
	},
	{
		name: "400 invalid_request_error is bad-request",
		capability: "search",
		request: portSearch,
		respond: { status: 400, body: fixture("anthropic/error_400_invalid_request.json") },
		expect: { errorClass: "bad-request" },
	},
	{
		name: "fetch uses web_fetch_20260309 live (use_cache false) and returns the document text verbatim",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/server/ports"),
		config: { model: "claude-sonnet-4-5" },
		respond: { sse: messagesSse(fetchSuccess) },
		expectRequest: {
			path: "/v1/messages",
			headers: { "x-api-key": CONTRACT_KEY.secret, "anthropic-version": "2023-06-01" },
			body: {
				model: "claude-sonnet-4-5",
				max_tokens: 1024,
				messages: [
					{
						role: "user",
						content:
							"Fetch https://docs.example.org/server/ports with the web_fetch tool. When it has returned, reply with the single word: done",
					},
				],
				tools: [{ type: "web_fetch_20260309", name: "web_fetch", max_uses: 1, use_cache: false }],
				stream: true,
			},
		},
		expect: fetchResult((r) => {
			expect(r.extraction).toBe("verbatim");
			expect(r.content.startsWith(PAGE)).toBe(true);
			expect(r.title).toBe("Ports and listeners | example-server docs");
			expect(r.crawledAt).toBe("2026-03-02T10:15:00.000000+00:00");
			expect(r.finalUrl).toBeUndefined();
			expect(r.warnings).toBeUndefined();
		}),
	},
	{
		name: "fetch reports the URL web_fetch ended at (http redirected to https) as finalUrl",
		capability: "fetch",
		request: fetchOf("http://docs.example.org/server/ports"),
		respond: { sse: messagesSse(fetchSuccess) },
		expect: fetchResult((r) => {
			expect(r.finalUrl).toBe("https://docs.example.org/server/ports");
			expect(r.content.startsWith(PAGE)).toBe(true);
		}),
	},
	{
		name: "a web_fetch_tool_result_error fails with its code (url_not_accessible → bad-request)",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/missing"),
		respond: { sse: messagesSse(fixtureJson("anthropic/response_web_fetch_tool_error.json") as Json) },
		expect: { errorClass: "bad-request", reasonIncludes: "url_not_accessible" },
	},
	{
		name: "a .pdf URL is refused without a request: cannot fetch PDFs",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/manual.PDF"),
		respond: [],
		expectRequest: [],
		expect: { errorClass: "bad-request", reasonIncludes: "cannot fetch PDFs" },
	},
	{
		name: "a document that comes back as PDF fails as bad-request",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/download?id=7"),
		respond: { sse: messagesSse(fetchWithSource({ type: "base64", media_type: "application/pdf", data: "JVBERi0=" })) },
		expect: { errorClass: "bad-request", reasonIncludes: "cannot fetch PDFs" },
	},
	{
		name: "a reply without any web_fetch result is a parse failure",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/server/ports"),
		respond: {
			sse: messagesSse({ ...fetchSuccess, content: [{ type: "text", text: "I cannot do that.", citations: null }] }),
		},
		expect: { errorClass: "parse", reasonIncludes: "did not call web_fetch" },
	},
];

runProviderContract({ definition, cases });

function callFor(baseUrl: string | undefined, extra: Partial<CallContext> = {}): CallContext {
	return {
		config: { name: "claude", type: "anthropic", options: {}, ...(baseUrl ? { baseUrl } : {}) },
		key: CONTRACT_KEY,
		signal: new AbortController().signal,
		timeoutMs: 30_000,
		onProgress: () => {},
		...extra,
	};
}

describe("anthropic pure pieces", () => {
	it("defaults to api.anthropic.com/v1/messages, ANTHROPIC_API_KEY and pi's anthropic provider", () => {
		expect(definition.defaults).toEqual({
			baseUrl: "https://api.anthropic.com",
			apiKey: "$ANTHROPIC_API_KEY",
			piProvider: "anthropic",
		});
		expect(buildSearchRequest(portSearch, callFor(undefined)).url).toBe("https://api.anthropic.com/v1/messages");
		expect(buildSearchRequest(portSearch, callFor("https://gw.example/claude/v1")).url).toBe(
			"https://gw.example/claude/v1/messages",
		);
		expect(definition.optionsSchema.model?.description).toContain("claude-sonnet-4-5");
	});

	it("canServe refuses only .pdf paths", () => {
		expect(canServe(fetchOf("https://a.example/paper.pdf"))).toBe(false);
		expect(canServe(fetchOf("https://a.example/paper.pdf?download=1"))).toBe(false);
		expect(canServe(fetchOf("https://a.example/pdf-guide"))).toBe(true);
	});

	it("maps tool error codes to classes", () => {
		expect(toolErrorClass("too_many_requests")).toBe("rate-limit");
		expect(toolErrorClass("unavailable")).toBe("server");
		expect(toolErrorClass("max_uses_exceeded")).toBe("server");
		for (const code of [
			"invalid_tool_input",
			"invalid_input",
			"url_not_accessible",
			"url_too_long",
			"unsupported_content_type",
		]) {
			expect(toolErrorClass(code)).toBe("bad-request");
		}
	});

	it("sends a subscription (OAuth) token as a bearer token with the oauth beta, never as x-api-key", () => {
		const spec = buildSearchRequest(
			portSearch,
			callFor(undefined, { key: { secret: "sk-ant-oat01-abcdef", label: "pi" } }),
		);
		expect(spec.headers.authorization).toBe("Bearer sk-ant-oat01-abcdef");
		expect(spec.headers["anthropic-beta"]).toBe("oauth-2025-04-20");
		expect(spec.headers["x-api-key"]).toBeUndefined();
	});
});

describe("anthropic streaming", () => {
	let server: FakeServer;
	beforeAll(async () => {
		server = await startFakeServer();
	});
	afterAll(() => server.close());

	it("reports each server tool call as a progress line", async () => {
		server.reset();
		server.respond({ sse: fixture("anthropic/stream_web_search.sse") });
		const progress: string[] = [];
		await definition.search?.(portSearch, callFor(server.url, { onProgress: (line) => progress.push(line) }));
		expect(progress).toEqual(["searching: example-server 3 default port"]);
	});

	it("resumes a paused turn with the content so far and merges both parts", async () => {
		server.reset();
		const blocks = searchSuccess.content as Json[];
		const paused = { ...searchSuccess, content: blocks.slice(0, 3), stop_reason: "pause_turn" };
		const rest = { ...searchSuccess, content: blocks.slice(3) };
		server.respond({ sse: messagesSse(paused) }, { sse: messagesSse(rest) });
		const r = await definition.search?.(portSearch, callFor(server.url));
		expect(server.requests).toHaveLength(2);
		const second = JSON.parse(server.requests[1]?.body ?? "{}") as {
			messages: Array<{ role: string; content: unknown }>;
		};
		expect(second.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		const resent = second.messages[1]?.content as Json[];
		expect(resent.map((b) => b.type)).toEqual(["text", "server_tool_use", "web_search_tool_result"]);
		expect(resent.slice(1)).toEqual(blocks.slice(1, 3));
		expect(r?.answer).toBe("In version 3 the default listener moved to port 8443 (TLS).");
		expect(r?.results).toEqual(expectedResults);
	});
});
