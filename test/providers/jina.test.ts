// jina against a fake backend: s.jina.ai search and r.jina.ai reader in JSON mode, the two hosts overridable by
// options or one baseUrl, envelopes parsed (including the plain-text reader format), every error fixture classified.

import { expect } from "vitest";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { ProviderFetchResult, ProviderSearchResult } from "../../providers/contract.ts";
import jina from "../../providers/jina/provider.ts";
import { CONTRACT_KEY, fixture, runProviderContract } from "../contract/provider-contract.ts";

const search: SearchRequest = {
	kind: "search",
	query: "http cache revalidation",
	domains: [],
	excludeDomains: [],
	maxResults: 3,
	includeContent: false,
};
const page: FetchRequest = { kind: "fetch", url: "https://docs.example.org/http/caching", offset: 0, maxChars: 5000 };
const asSearch = (r: ProviderSearchResult | ProviderFetchResult) => r as ProviderSearchResult;
const asFetch = (r: ProviderSearchResult | ProviderFetchResult) => r as ProviderFetchResult;
const jsonMode = {
	authorization: `Bearer ${CONTRACT_KEY.secret}`,
	accept: "application/json",
	"x-retain-images": "none",
};
const readerPage = {
	title: "HTTP caching | Example Web Docs",
	finalUrl: "https://docs.example.org/http/caching",
	extraction: "verbatim",
	content: expect.stringMatching(/^# HTTP caching\n\nA cache may reuse[\s\S]*conditional requests\.$/),
};

runProviderContract({
	definition: jina,
	cases: [
		{
			name: "search: GET /?q=&num= in JSON mode without page content",
			capability: "search",
			request: search,
			respond: { body: fixture("jina/search_success.json") },
			expectRequest: {
				method: "GET",
				path: "/?q=http+cache+revalidation&num=3",
				headers: { ...jsonMode, "x-respond-with": "no-content", "x-site": undefined },
			},
			expect: {
				result: (r) => {
					expect(asSearch(r).details).toEqual({ tokens: 2000 });
					expect(asSearch(r).results).toEqual([
						{
							title: "HTTP caching | Example Web Docs",
							url: "https://docs.example.org/http/caching",
							snippet: "How shared and private caches decide whether a stored response can be reused.",
							publishedAt: "2025-12-01",
						},
						{
							title: "Conditional requests explained",
							url: "https://blog.example.net/conditional-requests",
							snippet: "ETag, If-None-Match and 304 responses, with packet captures.",
						},
					]);
				},
			},
		},
		{
			name: "search: with content asks for it, one site goes in X-Site, the search host option wins",
			capability: "search",
			request: { ...search, includeContent: true, domains: ["docs.example.org"], maxResults: 50 },
			config: { options: { searchBaseUrl: "{server}/s", readerBaseUrl: "{server}/r" } },
			respond: {
				json: {
					code: 200,
					status: 20000,
					data: [{ title: "T", url: "https://docs.example.org/a", description: "d", content: "# Page" }],
				},
			},
			expectRequest: {
				path: "/s/?q=http+cache+revalidation&num=20",
				headers: { ...jsonMode, "x-respond-with": undefined, "x-site": "docs.example.org" },
			},
			expect: {
				result: (r) =>
					expect(asSearch(r).results).toEqual([
						{ title: "T", url: "https://docs.example.org/a", snippet: "d", content: "# Page" },
					]),
			},
		},
		{
			name: "search: 401 AuthenticationRequiredError is auth",
			capability: "search",
			request: search,
			respond: { status: 401, body: fixture("jina/error_401_auth_required.json") },
			expect: { errorClass: "auth", keyVerdict: "exhausted", reasonIncludes: "Authentication is required" },
		},
		{
			name: "search: 429 takes retryAfter from the body",
			capability: "search",
			request: search,
			respond: { status: 429, body: fixture("jina/error_429_rate_limited.json") },
			expect: { errorClass: "rate-limit", keyVerdict: "rate-limited", retryAfterMs: 7000 },
		},
		{
			name: "search: an error code inside a 200 envelope is still an error",
			capability: "search",
			request: search,
			respond: { json: { data: null, code: 402, name: "InsufficientBalanceError", message: "Balance is too low" } },
			expect: { errorClass: "quota", keyVerdict: "exhausted", reasonIncludes: "Balance is too low" },
		},
		{
			name: "fetch: GET <reader>/<url> in JSON mode with Markdown output",
			capability: "fetch",
			request: page,
			respond: { body: fixture("jina/reader_success.json") },
			expectRequest: {
				method: "GET",
				path: "/https://docs.example.org/http/caching",
				headers: { ...jsonMode, "x-return-format": "markdown" },
			},
			expect: { result: (r) => expect(asFetch(r)).toEqual(readerPage) },
		},
		{
			name: "fetch: the reader host option wins over baseUrl",
			capability: "fetch",
			request: page,
			config: { options: { searchBaseUrl: "{server}/s", readerBaseUrl: "{server}/r" } },
			respond: { body: fixture("jina/reader_success.json") },
			expectRequest: { path: "/r/https://docs.example.org/http/caching" },
			expect: { result: (r) => expect(asFetch(r)).toEqual(readerPage) },
		},
		{
			name: "fetch: the plain-text reader format is understood too",
			capability: "fetch",
			request: page,
			respond: { body: fixture("jina/reader_success_default.txt"), headers: { "content-type": "text/plain" } },
			expect: { result: (r) => expect(asFetch(r)).toEqual(readerPage) },
		},
		{
			name: "fetch: the reader's warning is passed on",
			capability: "fetch",
			request: page,
			respond: {
				json: {
					code: 200,
					status: 20000,
					data: { title: "", url: page.url, content: "x", warning: "Target URL returned error 403" },
				},
			},
			expect: { result: (r) => expect(asFetch(r).warnings).toEqual(["jina: Target URL returned error 403"]) },
		},
		{
			name: "fetch: 422 invalid URL is bad-request",
			capability: "fetch",
			request: { ...page, url: "notaurl" },
			respond: { status: 422, body: fixture("jina/error_422_invalid_url.json") },
			expectRequest: { path: "/notaurl" },
			expect: { errorClass: "bad-request", reasonIncludes: "Invalid URL" },
		},
		{
			name: "fetch: 429 is rate-limit",
			capability: "fetch",
			request: page,
			respond: { status: 429, body: fixture("jina/error_429_rate_limited.json") },
			expect: { errorClass: "rate-limit", retryAfterMs: 7000 },
		},
	],
});
