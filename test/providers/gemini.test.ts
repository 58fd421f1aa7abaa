// gemini against a fake generateContent endpoint: the streamed request and its streamed read (pieces, split
// characters, an error chunk on an open stream), grounding chunks as results with their redirects resolved from
// title/domain (never followed), Google's error envelope, cut streams, url_context fetch.

import { describe, expect, it } from "vitest";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { CallContext, ProviderFetchResult, ProviderSearchResult } from "../../providers/contract.ts";
import { geminiEndpoint } from "../../providers/families/gemini-family.ts";
import { groundingResults } from "../../providers/families/gemini-response.ts";
import definition from "../../providers/gemini/provider.ts";
import { type ContractCase, fixture, runProviderContract } from "../contract/provider-contract.ts";

const STREAM_PATH = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse";
const REDIRECT = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/";

function search(query: string, extra: Partial<SearchRequest> = {}): SearchRequest {
	return { kind: "search", query, domains: [], excludeDomains: [], maxResults: 5, includeContent: false, ...extra };
}

function fetchOf(url: string): FetchRequest {
	return { kind: "fetch", url, offset: 0, maxChars: 20_000 };
}

function searched(check: (r: ProviderSearchResult) => void) {
	return { result: (r: unknown) => check(r as ProviderSearchResult) };
}

function fetched(check: (r: ProviderFetchResult) => void) {
	return { result: (r: unknown) => check(r as ProviderFetchResult) };
}

/** One streamed chunk carrying the given candidate fields. */
function chunk(candidate: Record<string, unknown>): string {
	return `data: ${JSON.stringify({ candidates: [{ index: 0, ...candidate }] })}\r\n\r\n`;
}

function expectFixtureSearch(r: ProviderSearchResult): void {
	expect(r.results).toEqual([
		{
			title: "example.org",
			url: "https://example.org/",
			snippet:
				"The example-db project is maintained by the Example Data Foundation. … Its latest release, 7.2, adds online schema changes.",
		},
		{
			title: "blog.example.net",
			url: "https://blog.example.net/",
			snippet: "Its latest release, 7.2, adds online schema changes.",
		},
	]);
	expect(r.answer).toBe(
		"The example-db project is maintained by the Example Data Foundation. Its latest release, 7.2, adds online schema changes.",
	);
	expect(r.details).toMatchObject({
		webSearchQueries: ["example-db maintainer", "example-db latest release"],
		groundingRedirects: { "https://example.org/": `${REDIRECT}AUZIYQExampleSyntheticToken0001` },
	});
	expect(r.warnings).toEqual([
		"Gemini names only the site for 2 result(s): their links lead to the site, not the cited page",
	]);
}

const cases: ContractCase[] = [
	{
		name: "search streams generateContent with google_search and reads the grounding chunks (CRLF stream fixture)",
		capability: "search",
		request: search("example-db maintainer", { domains: ["example.org"] }),
		respond: { sse: fixture("gemini/stream.sse") },
		expectRequest: {
			method: "POST",
			path: STREAM_PATH,
			headers: { "x-goog-api-key": "ctk-SECRET-7f3a9c2e51", accept: "text/event-stream", authorization: undefined },
			bodyIncludes: { tools: [{ google_search: {} }] },
		},
		expect: searched((r) => expectFixtureSearch(r)),
	},
	{
		name: "a non-streamed JSON answer is read the same way",
		capability: "search",
		request: search("example-db maintainer"),
		respond: { body: fixture("gemini/response_success.json") },
		expect: searched((r) => expectFixtureSearch(r)),
	},
	{
		name: "the configured model and a base that already names the API version are used as given",
		capability: "search",
		request: search("q"),
		config: { baseUrl: "{server}/v1beta", model: "models/gemini-2.5-pro" },
		respond: { sse: fixture("gemini/stream.sse") },
		expectRequest: { path: "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse" },
		expect: searched((r) => expect(r.results).toHaveLength(2)),
	},
	{
		name: "an answer without grounding is a result with the answer and a warning, not a failure",
		capability: "search",
		request: search("q"),
		respond: { sse: chunk({ content: { parts: [{ text: "I know this." }] }, finishReason: "STOP" }) },
		expect: searched((r) => {
			expect(r.results).toEqual([]);
			expect(r.answer).toBe("I know this.");
			expect(r.warnings).toEqual(["Gemini answered without searching"]);
		}),
	},
	{
		name: "400 API_KEY_INVALID is an auth failure for that key",
		capability: "search",
		request: search("q"),
		respond: { status: 400, body: fixture("gemini/error_400_api_key_invalid.json") },
		expect: { errorClass: "auth", keyVerdict: "exhausted", reasonIncludes: "API key not valid" },
	},
	{
		name: "429 RESOURCE_EXHAUSTED takes the delay from RetryInfo",
		capability: "search",
		request: search("q"),
		respond: { status: 429, body: fixture("gemini/error_429_resource_exhausted.json") },
		expect: { errorClass: "rate-limit", keyVerdict: "rate-limited", retryAfterMs: 17_000 },
	},
	{
		name: "429 on a per-day quota is quota, the key exhausted",
		capability: "search",
		request: search("q"),
		respond: {
			status: 429,
			json: {
				error: {
					code: 429,
					status: "RESOURCE_EXHAUSTED",
					message: "Quota exceeded",
					details: [{ "@type": "QuotaFailure", violations: [{ quotaId: "GenerateRequestsPerDayPerProject" }] }],
				},
			},
		},
		expect: { errorClass: "quota", keyVerdict: "exhausted" },
	},
	{
		name: "503 UNAVAILABLE is a server error",
		capability: "search",
		request: search("q"),
		respond: { status: 503, body: fixture("gemini/error_503_unavailable.json") },
		expect: { errorClass: "server", reasonIncludes: "overloaded" },
	},
	{
		name: "a stream that ends inside an event is a parse failure, not a hang",
		capability: "search",
		request: search("q"),
		respond: { sse: `${chunk({ content: { parts: [{ text: "a" }] } })}data: {"candidates":[{"content":` },
		expect: { errorClass: "parse", reasonIncludes: "inside an event" },
	},
	{
		name: "a stream whose connection is cut mid-body is a parse failure",
		capability: "search",
		request: search("q"),
		respond: {
			body: fixture("gemini/stream.sse"),
			headers: { "content-type": "text/event-stream" },
			cutAfterBytes: 300,
		},
		expect: { errorClass: "parse" },
	},
	{
		name: "an error object inside the stream is classified by its code",
		capability: "search",
		request: search("q"),
		respond: {
			sse: `${chunk({ content: { parts: [{ text: "a" }] } })}data: {"error":{"code":429,"status":"RESOURCE_EXHAUSTED","message":"slow down","details":[{"retryDelay":"2s"}]}}\r\n\r\n`,
		},
		expect: { errorClass: "rate-limit", retryAfterMs: 2000, reasonIncludes: "slow down" },
	},
	{
		name: "a stream cut into 7-byte pieces (mid-line, mid-CRLF) folds to the same answer as read whole",
		capability: "search",
		request: search("example-db maintainer"),
		respond: { sse: fixture("gemini/stream.sse"), chunkSize: 7 },
		expect: searched((r) => expectFixtureSearch(r)),
	},
	{
		name: "a character whose UTF-8 bytes arrive in separate pieces stays whole",
		capability: "search",
		request: search("q"),
		respond: { sse: chunk({ content: { parts: [{ text: "Grüße — 東京" }] }, finishReason: "STOP" }), chunkSize: 1 },
		expect: searched((r) => expect(r.answer).toBe("Grüße — 東京")),
	},
	{
		name: "an error chunk fails the call as it arrives, while the stream is still open (read streamed, not buffered)",
		capability: "search",
		request: search("q"),
		respond: {
			sse: `${chunk({ content: { parts: [{ text: "a" }] } })}data: {"error":{"code":503,"status":"UNAVAILABLE","message":"The model is overloaded."}}\r\n\r\n`,
			hang: true,
		},
		expect: { errorClass: "server", reasonIncludes: "overloaded" },
	},
	{
		name: "a blocked prompt is a bad request",
		capability: "search",
		request: search("q"),
		respond: { json: { promptFeedback: { blockReason: "SAFETY" } } },
		expect: { errorClass: "bad-request", reasonIncludes: "SAFETY" },
	},
	{
		name: "fetch asks url_context for the page and returns the model's text with extraction model",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/db/releases"),
		respond: { body: fixture("gemini/response_success.json") },
		expectRequest: { path: STREAM_PATH, bodyIncludes: { tools: [{ url_context: {} }] } },
		expect: fetched((r) => {
			expect(r.content).toContain("latest release, 7.2");
			expect(r.extraction).toBe("model");
			expect(r.warnings?.[0]).toContain("extraction: model");
			expect(r.finalUrl).toBeUndefined();
		}),
	},
	{
		name: "a URL_RETRIEVAL_STATUS_ERROR with HTTP 200 is a failure",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/db/private"),
		respond: { body: fixture("gemini/response_url_context_error.json") },
		expect: { errorClass: "bad-request", reasonIncludes: "could not retrieve the page" },
	},
	{
		name: "an answer without url_context metadata did not read the page and fails",
		capability: "fetch",
		request: fetchOf("https://docs.example.org/db/x"),
		respond: { sse: chunk({ content: { parts: [{ text: "I cannot browse." }] }, finishReason: "STOP" }) },
		expect: { errorClass: "bad-request", reasonIncludes: "did not retrieve" },
	},
];

runProviderContract({ definition, cases });

describe("gemini grounding redirects", () => {
	it("resolves a redirect from a URL title or the domain, keeps direct links, and never invents one", () => {
		const grounded = groundingResults({
			groundingChunks: [
				{ web: { uri: `${REDIRECT}a`, title: "https://docs.example.org/guide/intro" } },
				{ web: { uri: `${REDIRECT}b`, title: "Release notes", domain: "blog.example.net" } },
				{ web: { uri: "https://direct.example.com/page", title: "Direct page" } },
				{ web: { uri: `${REDIRECT}c`, title: "Some page title" } },
			],
			groundingSupports: [{ segment: { text: "cited" }, groundingChunkIndices: [1] }],
		});
		expect(grounded.results.map((r) => [r.title, r.url, r.snippet])).toEqual([
			["https://docs.example.org/guide/intro", "https://docs.example.org/guide/intro", ""],
			["Release notes", "https://blog.example.net/", "cited"],
			["Direct page", "https://direct.example.com/page", ""],
			["Some page title", `${REDIRECT}c`, ""],
		]);
		expect(grounded).toMatchObject({ siteOnly: 1, redirects: 1 });
	});

	it("merges chunks that lead to the same site", () => {
		const grounded = groundingResults({
			groundingChunks: [
				{ web: { uri: `${REDIRECT}a`, title: "example.org" } },
				{ web: { uri: `${REDIRECT}b`, title: "example.org" } },
			],
			groundingSupports: [
				{ segment: { text: "one" }, groundingChunkIndices: [0] },
				{ segment: { text: "two" }, groundingChunkIndices: [1] },
			],
		});
		expect(grounded.results).toEqual([{ title: "example.org", url: "https://example.org/", snippet: "one … two" }]);
	});
});

describe("gemini endpoint", () => {
	const call = (baseUrl: string | undefined, piBase?: string): CallContext => ({
		config: { name: "gemini", type: "gemini", options: {}, baseUrl },
		piAuth: piBase === undefined ? undefined : { baseUrl: piBase },
		signal: new AbortController().signal,
		timeoutMs: 1000,
		onProgress: () => {},
	});

	it.each([
		{ base: undefined, pi: undefined, expected: "https://generativelanguage.googleapis.com/v1beta" },
		{
			base: undefined,
			pi: "https://generativelanguage.googleapis.com/v1beta/",
			expected: "https://generativelanguage.googleapis.com/v1beta",
		},
		{ base: "https://proxy.example.org/google", pi: undefined, expected: "https://proxy.example.org/google/v1beta" },
		{
			base: "https://proxy.example.org/v1",
			pi: "https://x.example.org/v1beta",
			expected: "https://proxy.example.org/v1",
		},
	])("base $base / pi $pi → $expected", ({ base, pi, expected }) => {
		expect(geminiEndpoint(call(base, pi), "gemini-2.5-flash")).toBe(
			`${expected}/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
		);
	});
});
