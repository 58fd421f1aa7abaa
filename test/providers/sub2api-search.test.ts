// sub2api-search against a fake Codex alpha/search endpoint: request shapes, structured results with publication
// dates, HTTP-200 failure texts, "not indexed", the https upgrade, crawl age and paging of `open` by lines.

import { describe, expect, it } from "vitest";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { CallContext, ProviderFetchResult } from "../../providers/contract.ts";
import definition, {
	buildFetchRequest,
	buildSearchRequest,
	recencyDays,
	searchEndpoint,
} from "../../providers/sub2api-search/provider.ts";
import { type ContractCase, fixture, fixtureJson, runProviderContract } from "../contract/provider-contract.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const config = { provider: "gateway-codex", model: "gpt-5.4", baseUrl: "{server}/v1" };

function search(query: string, extra: Partial<SearchRequest> = {}): SearchRequest {
	return { kind: "search", query, domains: [], excludeDomains: [], maxResults: 5, includeContent: false, ...extra };
}

function fetchOf(url: string, extra: Partial<FetchRequest> = {}): FetchRequest {
	return { kind: "fetch", url, offset: 0, maxChars: 20_000, ...extra };
}

/** An `open` answer: one page block with `L<n>:` lines numbered from `start`. */
function opened(
	url: string,
	lines: string[],
	meta: { total?: number; start?: number; crawled?: string; type?: string },
) {
	const start = meta.start ?? 0;
	const head = [
		`Crawled: ${meta.crawled ?? "today"}`,
		`Content type: ${meta.type ?? "text/html"}`,
		`Source: open({"ref_id":"${url}","lineno":${start}})`,
		`Total lines: ${meta.total ?? lines.length}`,
	].join("; ");
	const body = lines.map((line, i) => (/^L\d/.test(line) ? line : `L${start + i}: ${line}`)).join("\n");
	return {
		output: `Example page (${url})\n\ue200cite\ue202turn1view0\ue201 [wordlim: 200] ${head}\n${body}`,
		results: [{ type: "text_result", ref_id: "turn1view0", url, title: "Example page", domain: "docs.example.org" }],
	};
}

const longLines = Array.from({ length: 40 }, (_, n) => `line ${n} of the long page, with some words to fill it`);
const longText = longLines.join("\n");

function fetchResult(check: (r: ProviderFetchResult) => void) {
	return { result: (r: unknown) => check(r as ProviderFetchResult) };
}

const cases: ContractCase[] = [
	{
		name: "search sends host filters, recency in days and the user location; results keep publication dates",
		capability: "search",
		request: search("Widget Toolkit 4.2 release notes", {
			domains: ["docs.example.org", "go.dev/doc"],
			excludeDomains: ["spam.example.com", "go.dev/doc/install"],
			recency: "month",
		}),
		config: { ...config, options: { userLocation: { country: "US", city: "Portland" } } },
		respond: { body: fixture("sub2api-search/search_response.json") },
		expectRequest: {
			method: "POST",
			path: "/v1/alpha/search",
			headers: { authorization: "Bearer ctk-SECRET-7f3a9c2e51", "content-type": "application/json" },
			body: {
				id: expect.stringMatching(UUID),
				model: "gpt-5.4",
				commands: {
					search_query: [
						{ q: "Widget Toolkit 4.2 release notes", recency: 30, domains: ["docs.example.org", "go.dev"] },
					],
				},
				settings: {
					filters: { allowed_domains: ["docs.example.org", "go.dev"], blocked_domains: ["spam.example.com"] },
					user_location: { type: "approximate", country: "US", city: "Portland" },
				},
			},
		},
		expect: {
			result: (r) => {
				const { results } = r as { results: { title: string; url: string; snippet: string; publishedAt?: string }[] };
				expect(results.map((item) => item.url)).toEqual([
					"https://docs.example.org/widgets/releases/4.2",
					"https://blog.example.net/posts/widget-toolkit-4-migration",
					"https://docs.example.org/widgets/api",
				]);
				expect(results[0]).toMatchObject({ title: "Widget Toolkit 4.2 release notes" });
				expect(results[1]?.snippet).toContain("porting 3.x widgets");
				expect(results[0]?.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
				expect(results[2]?.publishedAt).toBeUndefined();
			},
		},
	},
	{
		name: "a minimal search sends only id, model and the query, to /v1/alpha/search under a bare gateway root",
		capability: "search",
		request: search("Widget Toolkit 4.2 release notes"),
		config: { ...config, baseUrl: "{server}" },
		respond: { body: fixture("sub2api-search/search_response.json") },
		expectRequest: {
			path: "/v1/alpha/search",
			body: {
				id: expect.stringMatching(UUID),
				model: "gpt-5.4",
				commands: { search_query: [{ q: "Widget Toolkit 4.2 release notes" }] },
			},
		},
		expect: { result: (r) => expect((r as { results: unknown[] }).results).toHaveLength(3) },
	},
	{
		name: "a domain pattern without a host form sends no allow-list at all (a partial one would hide results)",
		capability: "search",
		request: search("q", { domains: ["docs.example.org", "google.*"] }),
		config,
		respond: { body: fixture("sub2api-search/search_response.json") },
		expectRequest: { body: { id: expect.any(String), model: "gpt-5.4", commands: { search_query: [{ q: "q" }] } } },
		expect: { result: (r) => expect((r as { results: unknown[] }).results).toHaveLength(3) },
	},
	{
		name: "the ChatGPT backend base maps to /backend-api/codex/alpha/search",
		capability: "search",
		request: search("q"),
		config: { ...config, baseUrl: "{server}/backend-api" },
		respond: { body: fixture("sub2api-search/search_response.json") },
		expectRequest: { path: "/backend-api/codex/alpha/search" },
		expect: { result: () => {} },
	},
	{
		name: "'Found no tool response' with HTTP 200 is a failure",
		capability: "search",
		request: search("q"),
		config,
		respond: { body: fixture("sub2api-search/error_200_no_tool_response.json") },
		expect: { errorClass: "bad-request", reasonIncludes: "Found no tool response" },
	},
	{
		name: "'Empty search results' is an empty result, not a failure",
		capability: "search",
		request: search("q"),
		config,
		respond: { json: { output: "Empty search results\nNo results were found for the provided queries", results: [] } },
		expect: { result: (r) => expect(r).toEqual({ results: [] }) },
	},
	{
		name: "an Internal Error item beside real results is dropped with a warning",
		capability: "search",
		request: search("q"),
		config,
		respond: {
			json: {
				output: "",
				results: [
					{ type: "text_result", ref_id: "turn0search0", url: "https://a.example.org/", title: "A", snippet: "a" },
					{ type: "text_result", ref_id: "turn0search1", title: "Internal Error", snippet: "oops" },
				],
			},
		},
		expect: {
			result: (r) => {
				expect(r).toMatchObject({ results: [{ url: "https://a.example.org/", title: "A", snippet: "a" }] });
				expect((r as { warnings: string[] }).warnings[0]).toContain("internal error");
			},
		},
	},
	{
		name: "results are read from the output text when the structured list is missing",
		capability: "search",
		request: search("q"),
		config,
		respond: { json: { output: (fixtureJson("sub2api-search/search_response.json") as { output: string }).output } },
		expect: {
			result: (r) => {
				const { results } = r as { results: { title: string; snippet: string }[] };
				expect(results).toHaveLength(3);
				expect(results[2]).toMatchObject({
					title: "Widget Toolkit API reference",
					snippet: "Complete reference for the Widget, Layout and Theme classes.",
				});
			},
		},
	},
	{
		name: "HTTP 400 unknown_parameter is bad-request with the backend's message",
		capability: "search",
		request: search("q"),
		config,
		respond: { status: 400, body: fixture("sub2api-search/error_400_unknown_parameter.json") },
		expect: { errorClass: "bad-request", reasonIncludes: "Unknown parameter" },
	},
	{
		name: "HTTP 401 is an auth failure",
		capability: "search",
		request: search("q"),
		config,
		respond: { status: 401, json: { error: { message: "token expired", code: "invalid_token" } } },
		expect: { errorClass: "auth", keyVerdict: "exhausted" },
	},
	{
		name: "fetch opens the URL and returns the page as plain text with the crawl age",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/widgets/api"),
		config,
		respond: {
			json: opened(
				"https://docs.example.org/widgets/api",
				["# API", "", "See the \ue200cite\ue2021\u2020Widget\u2020docs.example.org\ue201 class.", "The end."],
				{ crawled: "3 weeks ago" },
			),
		},
		expectRequest: {
			path: "/v1/alpha/search",
			body: {
				id: expect.stringMatching(UUID),
				model: "gpt-5.4",
				commands: { open: [{ ref_id: "https://docs.example.org/widgets/api", lineno: 0 }] },
			},
		},
		expect: fetchResult((r) => {
			expect(r).toEqual({
				content: "# API\n\nSee the Widget class.\nThe end.",
				extraction: "verbatim",
				title: "Example page",
				finalUrl: "https://docs.example.org/widgets/api",
				crawledAt: "3 weeks ago",
			});
		}),
	},
	{
		name: "an http:// URL is opened as https:// and says so",
		capability: "fetch",
		request: fetchOf("http://docs.example.org/plain"),
		config,
		respond: { json: opened("https://docs.example.org/plain", ["text"], {}) },
		expectRequest: { bodyIncludes: { commands: { open: [{ ref_id: "https://docs.example.org/plain", lineno: 0 }] } } },
		expect: fetchResult((r) => {
			expect(r.content).toBe("text");
			expect(r.warnings?.join(" ")).toContain("upgraded to https://");
		}),
	},
	{
		name: "a page the index does not hold fails as not indexed (bad-request), from the fixture",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/unknown"),
		config,
		respond: { body: fixture("sub2api-search/error_200_invalid_ref_open.json") },
		expect: { errorClass: "bad-request", reasonIncludes: "not indexed" },
	},
	{
		name: "a page block without lines is not indexed either",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/empty"),
		config,
		respond: { json: opened("https://docs.example.org/empty", [], { total: 0 }) },
		expect: { errorClass: "bad-request", reasonIncludes: "not indexed" },
	},
	{
		name: "'Found no tool response' on open is a failure but not 'not indexed'",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/x"),
		config,
		respond: { body: fixture("sub2api-search/error_200_no_tool_response.json") },
		expect: { errorClass: "bad-request", reasonIncludes: "Found no tool response" },
	},
	{
		name: "paging asks for the first missing line and merges overlapping windows into the whole text",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/long"),
		config,
		respond: [
			{ json: opened("https://docs.example.org/long", longLines.slice(0, 15), { total: 40 }) },
			{ json: opened("https://docs.example.org/long", longLines.slice(10, 30), { total: 40, start: 10 }) },
			{ json: opened("https://docs.example.org/long", longLines.slice(25), { total: 40, start: 25 }) },
		],
		expectRequest: [
			{ bodyIncludes: { commands: { open: [{ lineno: 0 }] } } },
			{ bodyIncludes: { commands: { open: [{ lineno: 15 }] } } },
			{ bodyIncludes: { commands: { open: [{ lineno: 30 }] } } },
		],
		expect: fetchResult((r) => {
			expect(r.content).toBe(longText);
			expect(r.window).toBeUndefined();
		}),
	},
	{
		name: "paging stops once offset + maxChars is covered and returns that window",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/long", { offset: 700, maxChars: 100 }),
		config,
		respond: [
			{ json: opened("https://docs.example.org/long", longLines.slice(0, 10), { total: 40 }) },
			{ json: opened("https://docs.example.org/long", longLines.slice(8, 20), { total: 40, start: 8 }) },
		],
		expectRequest: [
			{ bodyIncludes: { commands: { open: [{ lineno: 0 }] } } },
			{ bodyIncludes: { commands: { open: [{ lineno: 10 }] } } },
		],
		expect: fetchResult((r) => {
			expect(r.content).toBe(longText.slice(700, 800));
			expect(r.window).toEqual({ truncated: true, nextOffset: 800 });
		}),
	},
	{
		name: "a window that adds no new lines stops paging instead of looping",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/long", { offset: 100_000 }),
		config,
		respond: [
			{ json: opened("https://docs.example.org/long", longLines.slice(0, 10), { total: 40 }) },
			{ json: opened("https://docs.example.org/long", longLines.slice(0, 10), { total: 40 }) },
		],
		expectRequest: [{ bodyIncludes: { commands: { open: [{ lineno: 0 }] } } }, { bodyIncludes: {} }],
		expect: { errorClass: "bad-request", reasonIncludes: "offset 100000" },
	},
	{
		name: "a failing later window keeps the lines already read and says why paging stopped",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/long", { maxChars: 5000 }),
		config,
		respond: [
			{ json: opened("https://docs.example.org/long", longLines.slice(0, 10), { total: 40 }) },
			{ status: 503, json: { error: { message: "upstream busy" } } },
		],
		expect: fetchResult((r) => {
			expect(r.content).toBe(longLines.slice(0, 10).join("\n"));
			expect(r.window).toEqual({ truncated: true, nextOffset: r.content.length });
			expect(r.warnings).toEqual([expect.stringContaining("paging stopped at line 10: HTTP 503")]);
		}),
	},
	{
		name: "PDF lines get page headings and merged blank lines are split again",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/paper.pdf"),
		config,
		respond: {
			json: opened(
				"https://docs.example.org/paper.pdf",
				["L0@P1: Title L1@P1: L2@P1: Abstract", "L3@P2: Second page", "L4@P2: more"],
				{ total: 5, type: "application/pdf" },
			),
		},
		expect: fetchResult((r) => {
			expect(r.content).toBe("## Page 1\n\nTitle\n\nAbstract\n\n## Page 2\n\nSecond page\nmore");
		}),
	},
	{
		name: "HTTP 404 (the gateway has no alpha/search route) is bad-request",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/x"),
		config,
		respond: { status: 404, json: { error: { message: "Not Found" } } },
		expect: { errorClass: "bad-request" },
	},
];

runProviderContract({ definition, cases });

function callFor(partial: Partial<CallContext["config"]>, piAuth?: CallContext["piAuth"]): CallContext {
	return {
		config: { name: "codex-search", type: "sub2api-search", options: {}, model: "m", ...partial },
		piAuth,
		key: { secret: "k-123456", label: "key1" },
		signal: new AbortController().signal,
		timeoutMs: 1000,
		onProgress: () => {},
	};
}

describe("sub2api-search request pieces", () => {
	it.each([
		{
			description: "a /v1 base",
			base: "https://gw.example.org/v1",
			expected: "https://gw.example.org/v1/alpha/search",
		},
		{ description: "a root base", base: "https://gw.example.org/", expected: "https://gw.example.org/v1/alpha/search" },
		{
			description: "the ChatGPT backend",
			base: "https://chatgpt.com/backend-api",
			expected: "https://chatgpt.com/backend-api/codex/alpha/search",
		},
		{
			description: "a Codex base",
			base: "https://chatgpt.com/backend-api/codex",
			expected: "https://chatgpt.com/backend-api/codex/alpha/search",
		},
	])("endpoint for $description", ({ base, expected }) => {
		expect(searchEndpoint(callFor({}, { baseUrl: base }))).toBe(expected);
	});

	it("prefers the config's baseUrl over the pi provider's", () => {
		const call = callFor({ baseUrl: "https://mine.example.org/v1" }, { baseUrl: "https://pi.example.org/v1" });
		expect(searchEndpoint(call)).toBe("https://mine.example.org/v1/alpha/search");
	});

	it("fails as a config error without a base URL or a model", () => {
		expect(() => searchEndpoint(callFor({}))).toThrow(/no base URL/);
		const noModel = callFor({ model: undefined }, { baseUrl: "https://gw.example.org/v1" });
		expect(() => buildSearchRequest(search("q"), noModel)).toThrow(/no model/);
	});

	it("uses one session id per provider for search and fetch", () => {
		const call = callFor({}, { baseUrl: "https://gw.example.org/v1" });
		const searchId = (buildSearchRequest(search("q"), call).body as { id: string }).id;
		const fetchId = (buildFetchRequest(fetchOf("https://a.example.org/"), call).body as { id: string }).id;
		const otherId = (buildSearchRequest(search("q"), callFor({ name: "other" }, call.piAuth)).body as { id: string })
			.id;
		expect(searchId).toMatch(UUID);
		expect(fetchId).toBe(searchId);
		expect(otherId).not.toBe(searchId);
	});

	it.each([
		{ recency: "day", expected: 1 },
		{ recency: "week", expected: 7 },
		{ recency: "year", expected: 365 },
		{ recency: "2026-02-28..2026-03-05", expected: 11 },
	] as const)("recency $recency is $expected days back", ({ recency, expected }) => {
		expect(recencyDays(recency, new Date("2026-03-10T12:00:00Z"))).toBe(expected);
	});
});
