// openai (Responses API + web_search) against a fake /v1/responses replaying the OpenAI fixtures: exact request
// bodies, the streamed answer with url_citation results and sources, model-written fetch, in-stream failures,
// streams cut mid-event, and progress lines.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { CallContext, ProviderFetchResult, ProviderSearchResult } from "../../providers/contract.ts";
import definition, { buildSearchRequest } from "../../providers/openai/provider.ts";
import {
	CONTRACT_KEY,
	type ContractCase,
	fixture,
	fixtureJson,
	runProviderContract,
} from "../contract/provider-contract.ts";
import { type FakeServer, startFakeServer } from "../helpers/fake-server.ts";
import { cutMidEvent, dropLastEvents, responsesSse, sse } from "../helpers/model-sse.ts";

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

const location = { country: "US", city: "Portland", region: "Oregon", timezone: "America/Los_Angeles" };
const releaseSearch = search("What changed in the example-cli 4.0 release?", {
	domains: ["docs.example.org", "blog.example.net"],
});
const PROMPT =
	"Search the web for: What changed in the example-cli 4.0 release?\nThen answer briefly from what you found and cite every source you use as a markdown link. Use up to 5 relevant sources.";
const ANSWER = (fixtureJson("openai/response_success.json") as { output: Array<{ content?: Array<{ text: string }> }> })
	.output[1]?.content?.[0]?.text;
const success = fixtureJson("openai/response_success.json") as Record<string, unknown>;

const expectedResults = [
	{
		title: "example-cli 4.0 changelog",
		url: "https://docs.example.org/cli/changelog/4.0",
		snippet: "Version 4.0 drops the legacy config format and adds a plugin API",
	},
	{
		title: "What's new in example-cli 4",
		url: "https://blog.example.net/2026/01/example-cli-4",
		snippet: "Startup time also improved",
	},
];

const cases: ContractCase[] = [
	{
		name: "search streams the fixture request: allowed domains, user location, context size; answer and cited results",
		capability: "search",
		request: releaseSearch,
		config: { model: "gpt-5", options: { userLocation: location, searchContextSize: "medium" } },
		respond: { sse: fixture("openai/stream.sse") },
		expectRequest: {
			method: "POST",
			path: "/responses",
			headers: {
				authorization: `Bearer ${CONTRACT_KEY.secret}`,
				accept: "text/event-stream",
				"content-type": "application/json",
			},
			body: {
				...(fixtureJson("openai/request.json") as object),
				input: [{ role: "user", content: PROMPT }],
				stream: true,
			},
		},
		expect: searchResult((r) => {
			expect(r.answer).toBe(ANSWER);
			expect(r.results).toEqual(expectedResults);
			expect(r.costUsd).toBeUndefined();
			expect(r.details).toEqual({ model: "gpt-5-2025-08-07", queries: ["example-cli 4.0 release notes"] });
		}),
	},
	{
		name: "search without options sends the default model, no location, no context size, no exclusions",
		capability: "search",
		request: search("rust async traits", { excludeDomains: ["spam.example.com"], recency: "week" }),
		respond: { sse: responsesSse(success) },
		expectRequest: {
			body: {
				model: "gpt-5-mini",
				input: [
					{
						role: "user",
						content:
							"Search the web for: rust async traits\nThen answer briefly from what you found and cite every source you use as a markdown link. Use up to 5 relevant sources.\nPrefer pages published in the past week.",
					},
				],
				tools: [{ type: "web_search" }],
				tool_choice: "auto",
				include: ["web_search_call.action.sources"],
				store: false,
				stream: true,
			},
		},
		expect: searchResult((r) => expect(r.results.map((x) => x.url)).toEqual(expectedResults.map((x) => x.url))),
	},
	{
		name: "path domains are widened to their host; a pattern no tool can take drops the allow-list",
		capability: "search",
		request: search("go modules", { domains: ["go.dev/doc", "=pkg.go.dev", "*.golang.org"] }),
		respond: { sse: responsesSse(success) },
		expectRequest: {
			bodyIncludes: {
				tools: [{ type: "web_search", filters: { allowed_domains: ["go.dev", "pkg.go.dev", "golang.org"] } }],
			},
		},
		expect: searchResult((r) => expect(r.results).toHaveLength(2)),
	},
	{
		name: "the success fixture replayed as a stream gives the same answer and cited results as the stream fixture",
		capability: "search",
		request: releaseSearch,
		respond: { sse: responsesSse(success) },
		expect: searchResult((r) => {
			expect(r.answer).toBe(ANSWER);
			expect(r.results).toEqual(expectedResults);
		}),
	},
	{
		name: "a JSON (non-streamed) answer to a streamed request is a parse error",
		capability: "search",
		request: releaseSearch,
		respond: { body: fixture("openai/response_success.json") },
		expect: { errorClass: "parse" },
	},
	{
		name: "an in-stream error event is classified by its code (server_error → server)",
		capability: "search",
		request: releaseSearch,
		respond: { sse: fixture("openai/stream_error.sse") },
		expect: { errorClass: "server", reasonIncludes: "server_error" },
	},
	{
		name: "response.failed with rate_limit_exceeded is rate-limit",
		capability: "search",
		request: releaseSearch,
		respond: {
			sse: sse([
				["response.created", { type: "response.created", response: { status: "in_progress", output: [] } }],
				[
					"response.failed",
					{
						type: "response.failed",
						response: { status: "failed", error: { code: "rate_limit_exceeded", message: "slow down" } },
					},
				],
			]),
		},
		expect: { errorClass: "rate-limit", keyVerdict: "rate-limited" },
	},
	{
		name: "a stream cut inside an event is a parse error, not a hang",
		capability: "search",
		request: releaseSearch,
		respond: { sse: cutMidEvent(fixture("openai/stream.sse"), 10) },
		expect: { errorClass: "parse" },
	},
	{
		name: "a stream that stops between events before response.completed is a parse error",
		capability: "search",
		request: releaseSearch,
		respond: { sse: dropLastEvents(fixture("openai/stream.sse"), 1) },
		expect: { errorClass: "parse", reasonIncludes: "response.completed" },
	},
	{
		name: "401 invalid_api_key is auth; the echoed key fragment is no key of ours",
		capability: "search",
		request: releaseSearch,
		respond: { status: 401, body: fixture("openai/error_401_invalid_api_key.json") },
		expect: { errorClass: "auth", keyVerdict: "exhausted" },
	},
	{
		name: "429 rate_limit_exceeded is rate-limit",
		capability: "search",
		request: releaseSearch,
		respond: { status: 429, body: fixture("openai/error_429_rate_limit.json") },
		expect: { errorClass: "rate-limit", keyVerdict: "rate-limited" },
	},
	{
		name: "429 insufficient_quota is quota, not a rate limit",
		capability: "search",
		request: releaseSearch,
		respond: {
			status: 429,
			json: {
				error: {
					message: "You exceeded your current quota, please check your plan and billing details.",
					type: "insufficient_quota",
					code: "insufficient_quota",
				},
			},
		},
		expect: { errorClass: "quota", keyVerdict: "exhausted" },
	},
	{
		name: "400 invalid tool value is bad-request",
		capability: "search",
		request: releaseSearch,
		respond: { status: 400, body: fixture("openai/error_400_bad_tool.json") },
		expect: { errorClass: "bad-request", reasonIncludes: "'huge'" },
	},
	{
		name: "fetch asks the model to open the page on its host and returns its rendition (extraction model)",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/cli/changelog/4.0"),
		config: { model: "gpt-5", options: { userLocation: location } },
		respond: { sse: fixture("openai/stream.sse") },
		expectRequest: {
			path: "/responses",
			body: {
				model: "gpt-5",
				input: [
					{
						role: "user",
						content:
							"Open this page with the web search tool: https://docs.example.org/cli/changelog/4.0\nThen write out the page's main text in full as markdown, as close to verbatim as you can: keep headings, lists, code and tables; leave out navigation, ads and footers.\nReply with the page text only, without any comment of your own. If the page cannot be opened, say so in one sentence.",
					},
				],
				tools: [{ type: "web_search", filters: { allowed_domains: ["docs.example.org"] } }],
				tool_choice: "auto",
				include: ["web_search_call.action.sources"],
				store: false,
				stream: true,
			},
		},
		expect: fetchResult((r) => {
			expect(r.extraction).toBe("model");
			expect(r.content).toBe(ANSWER);
			expect(r.title).toBe("example-cli 4.0 changelog");
			expect(r.warnings?.[0]).toMatch(/gpt-5's rendition of the page/);
		}),
	},
];

runProviderContract({ definition, cases });

describe("openai definition", () => {
	it("defaults to the vendor endpoint, OPENAI_API_KEY and pi's openai provider, and documents the default model", () => {
		expect(definition.defaults).toEqual({
			baseUrl: "https://api.openai.com/v1",
			apiKey: "$OPENAI_API_KEY",
			piProvider: "openai",
		});
		expect(definition.required).toBeUndefined();
		expect(definition.extraction).toBe("model");
		expect(definition.native.recency).toBe(false);
		expect(definition.native.excludeHosts).toBe(false);
		expect(definition.optionsSchema.model?.description).toContain("gpt-5-mini");
	});

	it("builds the request against the default base URL when nothing overrides it", () => {
		const call = callFor(undefined);
		expect(buildSearchRequest(releaseSearch, call).url).toBe("https://api.openai.com/v1/responses");
	});
});

function callFor(
	baseUrl: string | undefined,
	progress: string[] = [],
	signal = new AbortController().signal,
): CallContext {
	return {
		config: { name: "oa", type: "openai", options: {}, ...(baseUrl ? { baseUrl } : {}) },
		key: CONTRACT_KEY,
		signal,
		timeoutMs: 30_000,
		onProgress: (line) => progress.push(line),
	};
}

describe("openai streaming progress", () => {
	let server: FakeServer;
	beforeAll(async () => {
		server = await startFakeServer();
	});
	afterAll(() => server.close());

	it("reports each finished web search as a progress line while the stream runs", async () => {
		server.respond({ sse: fixture("openai/stream.sse") });
		const progress: string[] = [];
		await definition.search?.(releaseSearch, callFor(server.url, progress));
		expect(progress).toEqual(["searching: example-cli 4.0 release notes"]);
	});

	it("reports an opened page and rebuilds the output when response.completed carries none", async () => {
		const items = [
			{
				type: "web_search_call",
				status: "completed",
				action: { type: "open_page", url: "https://docs.example.org/a" },
			},
			{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Page text.", annotations: [] }] },
		];
		server.respond({
			sse: sse([
				...items.map((item, index): [string, unknown] => [
					"response.output_item.done",
					{ type: "response.output_item.done", output_index: index, item },
				]),
				["response.completed", { type: "response.completed", response: { status: "completed", output: [] } }],
			]),
		});
		const progress: string[] = [];
		const r = await definition.fetch?.(fetchOf("https://docs.example.org/a"), callFor(server.url, progress));
		expect(progress).toEqual(["opening: https://docs.example.org/a"]);
		expect(r?.content).toBe("Page text.");
	});
});
