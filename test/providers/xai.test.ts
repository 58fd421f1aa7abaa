// xai (Responses API with web_search / x_search) against a fake /v1/responses replaying the xAI fixtures: the tool
// choice by domains, handles and recency → from_date, citation rewriting for one handle, cost from ticks, the
// invalid-key 400 as auth, model-written fetch of X posts and pages, and that OpenAI-only fields are never sent.

import { describe, expect, it } from "vitest";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { CallContext, ProviderFetchResult, ProviderSearchResult } from "../../providers/contract.ts";
import definition, { buildSearchRequest } from "../../providers/xai/provider.ts";
import {
	CONTRACT_KEY,
	type ContractCase,
	fixture,
	fixtureJson,
	runProviderContract,
} from "../contract/provider-contract.ts";
import { cutMidEvent, responsesSse } from "../helpers/model-sse.ts";

type Json = Record<string, unknown>;

function search(query: string, extra: Partial<SearchRequest> = {}): SearchRequest {
	return { kind: "search", query, domains: [], excludeDomains: [], maxResults: 5, includeContent: false, ...extra };
}

/** The UTC calendar date `days` before `now`, as YYYY-MM-DD. */
function daysBefore(now: Date, days: number): string {
	return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
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

const TAIL =
	"\nThen answer briefly from what you found and cite every source you use as a markdown link. Use up to 5 relevant sources.";
const webSearch = search("What did the example-lang 2.0 release change?", {
	domains: ["docs.example.org", "blog.example.net"],
});
const xSearch = search("example-lang 2.0 release", {
	domains: ["x.com/examplelang", "twitter.com/example_dev"],
	recency: "2026-01-01..2026-01-31",
});
const STATUS = "https://x.com/i/status/1900000000000000001";
const COST = 197_250_000 / 1e10;
const success = fixtureJson("xai/response_success.json") as Json;

const cases: ContractCase[] = [
	{
		name: "web search sends web_search with allowed domains and no OpenAI-only fields, even when such options are set",
		capability: "search",
		request: webSearch,
		config: { options: { userLocation: { country: "US" }, searchContextSize: "high" } },
		respond: { sse: fixture("xai/stream.sse") },
		expectRequest: {
			method: "POST",
			path: "/responses",
			headers: { authorization: `Bearer ${CONTRACT_KEY.secret}`, accept: "text/event-stream" },
			body: {
				...(fixtureJson("xai/request_web_search.json") as object),
				input: [{ role: "user", content: `Search the web for: What did the example-lang 2.0 release change?${TAIL}` }],
				stream: true,
			},
		},
		expect: searchResult((r) => {
			expect(r.answer).toBe(
				"example-lang 2.0 removes implicit globals and ships a new package manager [[1]](https://docs.example.org/lang/2.0/changes). Early reactions on X focus on faster builds [[2]](https://x.com/i/status/1900000000000000001).",
			);
			expect(r.costUsd).toBeCloseTo(COST, 12);
			expect(r.results).toEqual([
				{
					title: "docs.example.org",
					url: "https://docs.example.org/lang/2.0/changes",
					snippet: "example-lang 2.0 removes implicit globals and ships a new package manager",
				},
				{ title: "x.com", url: STATUS, snippet: "Early reactions on X focus on faster builds" },
				{ title: "blog.example.net", url: "https://blog.example.net/example-lang-2", snippet: "" },
			]);
			expect(r.warnings).toBeUndefined();
		}),
	},
	{
		name: "only X domains: x_search with the handles, a date range as from/to, image understanding from the option",
		capability: "search",
		request: xSearch,
		config: { options: { enableImageUnderstanding: true } },
		respond: { sse: fixture("xai/stream.sse") },
		expectRequest: {
			body: {
				model: "grok-4.3",
				input: [
					{
						role: "user",
						content: `Search X posts by @examplelang, @example_dev for: example-lang 2.0 release${TAIL}\nPrefer pages published between 2026-01-01 and 2026-01-31.`,
					},
				],
				tools: [
					{
						type: "x_search",
						allowed_x_handles: ["examplelang", "example_dev"],
						from_date: "2026-01-01",
						to_date: "2026-01-31",
						enable_image_understanding: true,
					},
				],
				store: false,
				stream: true,
			},
		},
		expect: searchResult((r) => {
			expect(r.results.map((x) => x.url)).toContain(STATUS);
			expect(r.warnings).toEqual([expect.stringContaining("x.com/i/status/<id>")]);
		}),
	},
	{
		name: "restricted to exactly one handle, x.com/i/status citations get that handle's URL (results and answer)",
		capability: "search",
		request: search("example-lang 2.0", { domains: ["x.com/ExampleLang"] }),
		respond: { sse: responsesSse(success) },
		expectRequest: {
			bodyIncludes: {
				tools: [{ type: "x_search", allowed_x_handles: ["examplelang"], enable_image_understanding: false }],
			},
		},
		expect: searchResult((r) => {
			const rewritten = "https://x.com/examplelang/status/1900000000000000001";
			expect(r.results.map((x) => x.url)).toContain(rewritten);
			expect(r.results.map((x) => x.url)).not.toContain(STATUS);
			expect(r.answer).toContain(`(${rewritten})`);
			expect(r.warnings).toBeUndefined();
		}),
	},
	{
		name: "bare x.com means any account: no handle filter, X handle exclusions sent instead",
		capability: "search",
		request: search("example-lang", { domains: ["x.com"], excludeDomains: ["x.com/spammer", "example.com"] }),
		respond: { sse: responsesSse(success) },
		expectRequest: {
			bodyIncludes: {
				tools: [{ type: "x_search", excluded_x_handles: ["spammer"], enable_image_understanding: false }],
			},
		},
		expect: searchResult((r) => expect(r.results).toHaveLength(3)),
	},
	{
		name: "X mixed with other sites uses web_search; exclusions go to excluded_domains when nothing is allowed",
		capability: "search",
		request: search("example-lang", { excludeDomains: ["spam.example.com", "go.dev/doc"] }),
		respond: { sse: responsesSse(success) },
		expectRequest: {
			bodyIncludes: {
				tools: [{ type: "web_search", excluded_domains: ["spam.example.com"], enable_image_understanding: false }],
			},
		},
		expect: searchResult((r) => expect(r.costUsd).toBeCloseTo(COST, 12)),
	},
	{
		name: "a stream cut inside an event is a parse error",
		capability: "search",
		request: webSearch,
		respond: { sse: cutMidEvent(fixture("xai/stream.sse"), 9) },
		expect: { errorClass: "parse" },
	},
	{
		name: "an invalid key answered with HTTP 400 is auth (exhausted), and the message is ours",
		capability: "search",
		request: webSearch,
		respond: { status: 400, body: fixture("xai/error_400_invalid_api_key.json") },
		expect: { errorClass: "auth", keyVerdict: "exhausted", reasonIncludes: "invalid API key" },
	},
	{
		name: "the legacy invalid-key code is auth too",
		capability: "search",
		request: webSearch,
		respond: { status: 400, body: fixture("xai/error_400_invalid_api_key_legacy_code.json") },
		expect: { errorClass: "auth", keyVerdict: "exhausted" },
	},
	{
		name: "403 with credits used up is quota",
		capability: "search",
		request: webSearch,
		respond: { status: 403, body: fixture("xai/error_403_no_credits.json") },
		expect: { errorClass: "quota", keyVerdict: "exhausted" },
	},
	{
		name: "429 is rate-limit",
		capability: "search",
		request: webSearch,
		respond: { status: 429, body: fixture("xai/error_429_rate_limited.json") },
		expect: { errorClass: "rate-limit", keyVerdict: "rate-limited" },
	},
	{
		name: "410 (live search deprecated) is bad-request",
		capability: "search",
		request: webSearch,
		respond: { status: 410, body: fixture("xai/error_410_live_search_deprecated.json") },
		expect: { errorClass: "bad-request" },
	},
	{
		name: "fetching an X post goes through x_search for that account; the text is model-written and costed",
		capability: "fetch",
		request: fetchOf("https://x.com/examplelang/status/1900000000000000001"),
		respond: { sse: fixture("xai/stream.sse") },
		expectRequest: {
			body: {
				model: "grok-4.3",
				input: [
					{
						role: "user",
						content:
							"Find this X post (or account) with the X search tool: https://x.com/examplelang/status/1900000000000000001\nThen write out the post's full text verbatim, with the author's name, @handle and date, and any quoted post or thread replies by the author.\nReply with that text only, without comments of your own. If it cannot be found, say so in one sentence.",
					},
				],
				tools: [{ type: "x_search", allowed_x_handles: ["examplelang"], enable_image_understanding: false }],
				store: false,
				stream: true,
			},
		},
		expect: fetchResult((r) => {
			expect(r.extraction).toBe("model");
			expect(r.content).toMatch(/^example-lang 2\.0 removes implicit globals/);
			expect(r.costUsd).toBeCloseTo(COST, 12);
			expect(r.warnings?.[0]).toMatch(/grok-4\.3's rendition of the page/);
		}),
	},
	{
		name: "fetching another page goes through web_search restricted to its host",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/lang/2.0/changes"),
		respond: { sse: fixture("xai/stream.sse") },
		expectRequest: {
			bodyIncludes: {
				tools: [{ type: "web_search", allowed_domains: ["docs.example.org"], enable_image_understanding: false }],
			},
		},
		expect: fetchResult((r) => expect(r.extraction).toBe("model")),
	},
];

runProviderContract({ definition, cases });

function callFor(): CallContext {
	return {
		config: { name: "grok", type: "xai", options: {} },
		key: CONTRACT_KEY,
		signal: new AbortController().signal,
		timeoutMs: 180_000,
		onProgress: () => {},
	};
}

describe("xai definition", () => {
	it("defaults to api.x.ai, XAI_API_KEY, pi's xai provider and a 180 s timeout", () => {
		expect(definition.defaults).toEqual({
			baseUrl: "https://api.x.ai/v1",
			timeoutMs: 180_000,
			apiKey: "$XAI_API_KEY",
			piProvider: "xai",
		});
		expect(definition.optionsSchema.enableImageUnderstanding?.type).toBe("boolean");
		expect(definition.optionsSchema.model?.description).toContain("grok-4.3");
		expect(buildSearchRequest(webSearch, callFor()).url).toBe("https://api.x.ai/v1/responses");
	});

	it("a named recency on an X search becomes from_date that many days back", () => {
		const before = daysBefore(new Date(), 7);
		const body = buildSearchRequest(search("q", { domains: ["x.com"], recency: "week" }), callFor()).body as {
			tools: Json[];
		};
		const after = daysBefore(new Date(), 7);
		expect([before, after]).toContain(body.tools[0]?.from_date);
		expect(body.tools[0]?.to_date).toBeUndefined();
	});

	it("a web search with recency sends no date (the executor filters)", () => {
		const body = buildSearchRequest(search("q", { recency: "day" }), callFor()).body as { tools: Json[] };
		expect(body.tools).toEqual([{ type: "web_search", enable_image_understanding: false }]);
	});
});
