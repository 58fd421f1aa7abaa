// exa against a fake backend: the exact /search and /contents requests, fixture responses parsed without losing
// fields, every error fixture classified, and /contents per-URL failures treated as failures.

import { expect } from "vitest";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { ProviderFetchResult, ProviderSearchResult } from "../../providers/contract.ts";
import exa from "../../providers/exa/provider.ts";
import { CONTRACT_KEY, fixture, runProviderContract } from "../contract/provider-contract.ts";

const search: SearchRequest = {
	kind: "search",
	query: "incremental static regeneration cache invalidation",
	domains: ["docs.example.org", "blog.example.net/2025"],
	excludeDomains: ["spam.example.com"],
	recency: "2025-01-01..2025-12-31",
	maxResults: 3,
	includeContent: true,
};
const plain: SearchRequest = { ...search, domains: [], excludeDomains: [], recency: undefined, includeContent: false };
const fetchIsr: FetchRequest = {
	kind: "fetch",
	url: "https://docs.example.org/guides/isr-cache",
	offset: 0,
	maxChars: 5000,
};
const fetchGone: FetchRequest = { ...fetchIsr, url: "https://docs.example.org/guides/removed-page" };
const asSearch = (r: ProviderSearchResult | ProviderFetchResult) => r as ProviderSearchResult;
const asFetch = (r: ProviderSearchResult | ProviderFetchResult) => r as ProviderFetchResult;
const auth = { "x-api-key": CONTRACT_KEY.secret, "content-type": "application/json", authorization: undefined };

runProviderContract({
	definition: exa,
	cases: [
		{
			name: "search: sends filters with paths, the date range, text contents and the search type",
			capability: "search",
			request: search,
			config: { options: { searchType: "fast", category: "news", maxAgeHours: 24 } },
			respond: { body: fixture("exa/search_success.json") },
			expectRequest: {
				method: "POST",
				path: "/search",
				headers: auth,
				body: {
					query: search.query,
					type: "fast",
					numResults: 3,
					includeDomains: ["docs.example.org", "blog.example.net/2025"],
					excludeDomains: ["spam.example.com"],
					startPublishedDate: "2025-01-01T00:00:00.000Z",
					endPublishedDate: "2025-12-31T23:59:59.999Z",
					category: "news",
					contents: { highlights: { maxCharacters: 500 }, text: { maxCharacters: 10000 }, maxAgeHours: 24 },
				},
			},
			expect: {
				result: (r) => {
					const { results, costUsd, warnings } = asSearch(r);
					expect(costUsd).toBe(0.008);
					expect(warnings).toEqual([
						"exa: recency uses startPublishedDate: pages without a published date are dropped",
					]);
					expect(results).toHaveLength(3);
					expect(results[0]).toEqual({
						title: "Incremental regeneration and the page cache",
						url: "https://docs.example.org/guides/isr-cache",
						snippet: "A request that arrives after expiry is served the stale page while a new version is generated.",
						content: expect.stringContaining("Pages are rebuilt in the background"),
						publishedAt: "2025-06-12",
						score: 0.41,
					});
					expect(results[1]).toMatchObject({ publishedAt: "2025-09-03", title: "On-demand revalidation in practice" });
					expect(results[2]).toEqual({
						title: "",
						url: "https://docs.example.org/reference/revalidate",
						snippet: "revalidate(path: string): Promise<void> — marks the cached entry for path as stale.",
						content: "revalidate(path: string): Promise<void> — marks the cached entry for path as stale.",
					});
				},
			},
		},
		{
			name: "search: defaults to type auto, highlights only, and no content in results",
			capability: "search",
			request: plain,
			respond: { body: fixture("exa/search_success.json") },
			expectRequest: {
				path: "/search",
				body: { query: plain.query, type: "auto", numResults: 3, contents: { highlights: { maxCharacters: 500 } } },
			},
			expect: {
				result: (r) => {
					expect(asSearch(r).results.every((item) => item.content === undefined)).toBe(true);
					expect(asSearch(r).warnings).toBeUndefined();
				},
			},
		},
		{
			name: "search: a named recency becomes startPublishedDate; an unsendable site pattern drops includes with a warning",
			capability: "search",
			request: { ...plain, recency: "week", domains: ["google.*", "docs.example.org"], maxResults: 500 },
			respond: { json: { requestId: "r", results: [] } },
			expectRequest: {
				bodyIncludes: { numResults: 100, startPublishedDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) },
			},
			expect: {
				result: (r) => {
					expect(asSearch(r).results).toEqual([]);
					expect(asSearch(r).warnings).toContain("exa: sent a wider site filter for google.*, docs.example.org");
				},
			},
		},
		{
			name: "search: the key comes from the call, pi headers and config headers are added (config wins)",
			capability: "search",
			request: plain,
			key: { secret: "exa-other-key-123456", label: "k2" },
			piAuth: { headers: { "x-pi": "1", "x-both": "pi" } },
			config: { headers: { "X-Both": "config" } },
			respond: { json: { results: [] } },
			expectRequest: { headers: { "x-api-key": "exa-other-key-123456", "x-pi": "1", "x-both": "config" } },
			expect: { result: (r) => expect(asSearch(r).results).toEqual([]) },
		},
		{
			name: "search: 401 INVALID_API_KEY is auth, key exhausted",
			capability: "search",
			request: plain,
			respond: { status: 401, body: fixture("exa/error_401_invalid_api_key.json") },
			expect: { errorClass: "auth", keyVerdict: "exhausted", reasonIncludes: "Invalid API key" },
		},
		{
			name: "search: 400 INVALID_REQUEST_BODY is bad-request",
			capability: "search",
			request: plain,
			respond: { status: 400, body: fixture("exa/error_400_invalid_request_body.json") },
			expect: { errorClass: "bad-request", reasonIncludes: "Invalid request body" },
		},
		{
			name: "search: 402 NO_MORE_CREDITS is quota, key exhausted",
			capability: "search",
			request: plain,
			respond: { status: 402, body: fixture("exa/error_402_no_more_credits.json") },
			expect: { errorClass: "quota", keyVerdict: "exhausted" },
		},
		{
			name: "search: 429 is rate-limit",
			capability: "search",
			request: plain,
			respond: { status: 429, body: fixture("exa/error_429_rate_limited.json") },
			expect: { errorClass: "rate-limit", keyVerdict: "rate-limited", reasonIncludes: "10 requests per second" },
		},
		{
			name: "search: a 403 content refusal is bad-request, not the key's fault",
			capability: "search",
			request: plain,
			respond: { status: 403, json: { requestId: "x", error: "Blocked by robots.txt", tag: "ROBOTS_FILTER_FAILED" } },
			expect: { errorClass: "bad-request" },
		},
		{
			name: "fetch: sends /contents with the URL and text, parses text, title and cost",
			capability: "fetch",
			request: fetchIsr,
			config: { options: { maxAgeHours: 0 } },
			respond: { body: fixture("exa/contents_success_partial.json") },
			expectRequest: {
				method: "POST",
				path: "/contents",
				headers: auth,
				body: { urls: [fetchIsr.url], text: true, maxAgeHours: 0 },
			},
			expect: {
				result: (r) =>
					expect(asFetch(r)).toEqual({
						content: expect.stringContaining("# Incremental regeneration and the page cache"),
						title: "Incremental regeneration and the page cache",
						finalUrl: fetchIsr.url,
						extraction: "verbatim",
						costUsd: 0.002,
					}),
			},
		},
		{
			name: "fetch: a statuses[] CRAWL_NOT_FOUND for the URL is a failure",
			capability: "fetch",
			request: fetchGone,
			respond: { body: fixture("exa/contents_success_partial.json") },
			expect: { errorClass: "bad-request", reasonIncludes: "CRAWL_NOT_FOUND" },
		},
		{
			name: "fetch: a statuses[] CRAWL_TIMEOUT fails this page only (bad-request: Exa is not cooled for it)",
			capability: "fetch",
			request: fetchGone,
			respond: {
				json: {
					results: [],
					statuses: [{ id: fetchGone.url, status: "error", error: { tag: "CRAWL_TIMEOUT", httpStatusCode: 408 } }],
				},
			},
			expect: { errorClass: "bad-request", reasonIncludes: "CRAWL_TIMEOUT" },
		},
		{
			name: "fetch: 401 is auth",
			capability: "fetch",
			request: fetchIsr,
			respond: { status: 401, body: fixture("exa/error_401_invalid_api_key.json") },
			expect: { errorClass: "auth", keyVerdict: "exhausted" },
		},
	],
});
