// tavily against a fake backend: the exact /search and /extract requests, fixtures parsed (answer, raw content,
// published dates, usage), failed_results as failures, 432 as quota, and every error fixture classified.

import { expect } from "vitest";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { ProviderFetchResult, ProviderSearchResult } from "../../providers/contract.ts";
import tavily from "../../providers/tavily/provider.ts";
import { CONTRACT_KEY, fixture, runProviderContract } from "../contract/provider-contract.ts";

const search: SearchRequest = {
	kind: "search",
	query: "example-queue visibility timeout defaults",
	domains: ["docs.example.org", "=api.example.org", "blog.example.net/queues"],
	excludeDomains: ["spam.example.com", "forum.example.net/t"],
	recency: "month",
	maxResults: 3,
	includeContent: true,
};
const plain: SearchRequest = { ...search, domains: [], excludeDomains: [], recency: undefined, includeContent: false };
const page: FetchRequest = {
	kind: "fetch",
	url: "https://docs.example.org/queue/visibility-timeout",
	offset: 0,
	maxChars: 5000,
};
const asSearch = (r: ProviderSearchResult | ProviderFetchResult) => r as ProviderSearchResult;
const asFetch = (r: ProviderSearchResult | ProviderFetchResult) => r as ProviderFetchResult;
const auth = { authorization: `Bearer ${CONTRACT_KEY.secret}`, "content-type": "application/json" };

runProviderContract({
	definition: tavily,
	cases: [
		{
			name: "search: sends hosts, time_range, raw markdown content, answer and depth options",
			capability: "search",
			request: search,
			config: { options: { searchDepth: "advanced", includeAnswer: "basic", topic: "general", country: "germany" } },
			respond: { body: fixture("tavily/search_success.json") },
			expectRequest: {
				method: "POST",
				path: "/search",
				headers: auth,
				body: {
					query: search.query,
					search_depth: "advanced",
					topic: "general",
					// =api.example.org and the paths are checked afterwards, so 3 × maxResults are asked for.
					max_results: 9,
					include_domains: ["docs.example.org", "api.example.org", "blog.example.net"],
					exclude_domains: ["spam.example.com"],
					time_range: "month",
					include_answer: "basic",
					include_raw_content: "markdown",
					include_usage: true,
					country: "germany",
				},
			},
			expect: {
				result: (r) => {
					const { results, answer, details } = asSearch(r);
					expect(answer).toBe(
						"The default visibility timeout is 30 seconds and can be raised to 12 hours per queue or per message.",
					);
					expect(details).toEqual({ credits: 2, requestId: "5e7a1c2b-3d4e-4f50-8a6b-7c8d9e0f1a2b" });
					expect(results).toEqual([
						{
							title: "Visibility timeout | example-queue",
							url: "https://docs.example.org/queue/visibility-timeout",
							snippet: expect.stringMatching(/^When a consumer receives a message/),
							content: expect.stringMatching(/^# Visibility timeout/),
							score: 0.8731,
						},
						{
							title: "Quotas and limits | example-queue",
							url: "https://docs.example.org/queue/limits",
							snippet: "Visibility timeout: minimum 0 seconds, maximum 12 hours...",
							score: 0.6412,
						},
					]);
				},
			},
		},
		{
			name: "search: a date range becomes start_date/end_date; defaults basic/general, no answer, no raw content",
			capability: "search",
			request: { ...plain, recency: "2026-03-01..2026-03-31", maxResults: 50 },
			respond: { body: fixture("tavily/search_news_success.json") },
			expectRequest: {
				body: {
					query: plain.query,
					search_depth: "basic",
					topic: "general",
					max_results: 20,
					start_date: "2026-03-01",
					end_date: "2026-03-31",
					include_answer: false,
					include_raw_content: false,
					include_usage: true,
				},
			},
			expect: {
				result: (r) => {
					const { results, answer } = asSearch(r);
					expect(answer).toBeUndefined();
					expect(results).toEqual([
						{
							title: "Message queue outage delays deliveries",
							url: "https://news.example.com/2026/03/04/queue-outage",
							snippet: expect.stringMatching(/^A regional outage/),
							publishedAt: "2026-03-04",
							score: 0.7102,
						},
					]);
				},
			},
		},
		{
			name: "search: 401 is auth, key exhausted",
			capability: "search",
			request: plain,
			respond: { status: 401, body: fixture("tavily/error_401_invalid_key.json") },
			expect: { errorClass: "auth", keyVerdict: "exhausted", reasonIncludes: "missing or invalid API key" },
		},
		{
			name: "search: 400 is bad-request with Tavily's detail.error",
			capability: "search",
			request: plain,
			respond: { status: 400, body: fixture("tavily/error_400_bad_request.json") },
			expect: { errorClass: "bad-request", reasonIncludes: "Invalid time_range" },
		},
		{
			name: "search: 429 is rate-limit",
			capability: "search",
			request: plain,
			respond: { status: 429, body: fixture("tavily/error_429_rate_limit.json") },
			expect: { errorClass: "rate-limit", keyVerdict: "rate-limited", reasonIncludes: "excessive requests" },
		},
		{
			name: "search: 432 plan limit is quota, key exhausted",
			capability: "search",
			request: plain,
			respond: { status: 432, body: fixture("tavily/error_432_plan_limit.json") },
			expect: { errorClass: "quota", keyVerdict: "exhausted", reasonIncludes: "usage limit" },
		},
		{
			name: "fetch: sends /extract with markdown format and returns raw_content",
			capability: "fetch",
			request: page,
			config: { options: { extractDepth: "advanced" } },
			respond: { body: fixture("tavily/extract_success.json") },
			expectRequest: {
				method: "POST",
				path: "/extract",
				headers: auth,
				body: { urls: [page.url], extract_depth: "advanced", format: "markdown", include_usage: true },
			},
			expect: {
				result: (r) =>
					expect(asFetch(r)).toEqual({
						content: expect.stringMatching(/^# Visibility timeout\n\nWhen a consumer/),
						finalUrl: page.url,
						extraction: "verbatim",
					}),
			},
		},
		{
			name: "fetch: a URL in failed_results is a failure",
			capability: "fetch",
			request: { ...page, url: "https://docs.example.org/queue/does-not-exist" },
			respond: {
				json: {
					results: [],
					failed_results: [{ url: "https://docs.example.org/queue/does-not-exist", error: "Failed to fetch url" }],
				},
			},
			expect: { errorClass: "bad-request", reasonIncludes: "Failed to fetch url" },
		},
		{
			name: "fetch: 401 is auth",
			capability: "fetch",
			request: page,
			respond: { status: 401, body: fixture("tavily/error_401_invalid_key.json") },
			expect: { errorClass: "auth", keyVerdict: "exhausted" },
		},
	],
});
