// deepseek against a fake backend: filters folded into the 128-character query as operators, 3× results when
// site: is used, fetch Markdown unescaped, the key from the call as Bearer, and every error fixture classified.

import { describe, expect, it } from "vitest";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { ProviderFetchResult, ProviderSearchResult } from "../../providers/contract.ts";
import deepseek, { searchQuery, unescapeMarkdown } from "../../providers/deepseek/provider.ts";
import { CONTRACT_KEY, fixture, runProviderContract } from "../contract/provider-contract.ts";

const search: SearchRequest = {
	kind: "search",
	query: "ripgrep config file",
	domains: ["docs.example.org"],
	excludeDomains: ["spam.example.com"],
	recency: "2025-01-01..2025-12-31",
	maxResults: 5,
	includeContent: false,
};
const plain: SearchRequest = { ...search, domains: [], excludeDomains: [], recency: undefined };
const page: FetchRequest = {
	kind: "fetch",
	url: "https://docs.example.org/tools/ripgrep/config",
	offset: 0,
	maxChars: 5000,
};
const asSearch = (r: ProviderSearchResult | ProviderFetchResult) => r as ProviderSearchResult;
const asFetch = (r: ProviderSearchResult | ProviderFetchResult) => r as ProviderFetchResult;
const auth = { authorization: `Bearer ${CONTRACT_KEY.secret}`, "content-type": "application/json" };

runProviderContract({
	definition: deepseek,
	cases: [
		{
			name: "search: puts site:, after:, before: and -site: in the query and asks for 3× results",
			capability: "search",
			request: search,
			respond: { body: fixture("deepseek/search_success.json") },
			expectRequest: {
				method: "POST",
				path: "/v1/tools/search",
				headers: auth,
				body: {
					query: "site:docs.example.org after:2025-01-01 before:2025-12-31 -site:spam.example.com ripgrep config file",
					count: 15,
					need_content: false,
				},
			},
			expect: {
				result: (r) => {
					const { results, warnings } = asSearch(r);
					expect(warnings).toBeUndefined();
					expect(results).toHaveLength(2);
					expect(results[0]).toEqual({
						title: "Configuration file | Example Tools Docs",
						url: "https://docs.example.org/tools/ripgrep/config",
						snippet: expect.stringMatching(/^The configuration file is located through an environment variable/),
						publishedAt: "2025-11-04",
						score: 2.2,
					});
					expect(results[1]).toMatchObject({ publishedAt: "2024-03-18", score: 1.4 });
				},
			},
		},
		{
			name: "search: a /v1 base URL is not doubled; need_content follows includeContent; count is capped at 50",
			capability: "search",
			request: { ...plain, includeContent: true, maxResults: 80 },
			config: { baseUrl: "{server}/v1/" },
			respond: { body: fixture("deepseek/search_success_empty.json") },
			expectRequest: { path: "/v1/tools/search", body: { query: plain.query, count: 50, need_content: true } },
			expect: { result: (r) => expect(asSearch(r).results).toEqual([]) },
		},
		{
			name: "search: filters that do not fit in 128 characters are left out with a warning",
			capability: "search",
			request: { ...search, query: "x".repeat(100), domains: ["a-rather-long-documentation-host.example.org"] },
			respond: { json: { results: [] } },
			// The filters are applied afterwards (none reached the backend): 3 × maxResults are asked for.
			expectRequest: { body: { query: `after:2025-01-01 ${"x".repeat(100)}`, count: 15, need_content: false } },
			expect: {
				result: (r) =>
					expect(asSearch(r).warnings).toEqual([
						"deepseek: domains, recency, excludeDomains did not fit in the 128-character query; filtered afterwards",
					]),
			},
		},
		{
			name: "search: pi's auth supplies base URL and headers",
			capability: "search",
			request: plain,
			config: { baseUrl: undefined },
			piAuth: { baseUrl: "{server}/v1", headers: { "x-pi-client": "pi" } },
			respond: { json: { results: [] } },
			expectRequest: { path: "/v1/tools/search", headers: { "x-pi-client": "pi", ...auth } },
			expect: { result: (r) => expect(asSearch(r).results).toEqual([]) },
		},
		{
			name: "search: 401 is auth, key exhausted (the masked key in the message is fine)",
			capability: "search",
			request: plain,
			respond: { status: 401, body: fixture("deepseek/error_401_auth.json") },
			expect: { errorClass: "auth", keyVerdict: "exhausted", reasonIncludes: "Authentication Fails" },
		},
		{
			name: "search: 402 insufficient balance is quota",
			capability: "search",
			request: plain,
			respond: { status: 402, body: fixture("deepseek/error_402_insufficient_balance.json") },
			expect: { errorClass: "quota", keyVerdict: "exhausted", reasonIncludes: "Insufficient Balance" },
		},
		{
			name: "search: 429 is rate-limit",
			capability: "search",
			request: plain,
			respond: { status: 429, body: fixture("deepseek/error_429_rate_limit.json") },
			expect: { errorClass: "rate-limit", keyVerdict: "rate-limited" },
		},
		{
			name: "fetch: posts the URL and returns the Markdown with its title",
			capability: "fetch",
			request: page,
			respond: { body: fixture("deepseek/fetch_success.json") },
			expectRequest: { method: "POST", path: "/v1/tools/fetch", headers: auth, body: { url: page.url } },
			expect: {
				result: (r) =>
					expect(asFetch(r)).toEqual({
						title: "Configuration file | Example Tools Docs",
						content: JSON.parse(fixture("deepseek/fetch_success.json")).content,
						extraction: "verbatim",
					}),
			},
		},
		{
			name: "fetch: backslash escapes are removed from the Markdown",
			capability: "fetch",
			request: page,
			respond: { json: { title: "", content: "snake\\_case and 1\\. item \\[link\\]" } },
			expect: {
				result: (r) => expect(asFetch(r)).toEqual({ content: "snake_case and 1. item [link]", extraction: "verbatim" }),
			},
		},
		{
			name: "fetch: 400 invalid URL is bad-request",
			capability: "fetch",
			request: { ...page, url: "notaurl" },
			respond: { status: 400, body: fixture("deepseek/error_400_invalid_url.json") },
			expect: { errorClass: "bad-request", reasonIncludes: "valid HTTP or HTTPS URL" },
		},
		{
			name: "fetch: 404 failed to fetch URL is bad-request",
			capability: "fetch",
			request: page,
			respond: { status: 404, body: fixture("deepseek/error_404_fetch_failed.json") },
			expect: { errorClass: "bad-request", reasonIncludes: "failed to fetch URL" },
		},
	],
});

describe("deepseek helpers", () => {
	it("keeps escapes inside code spans and fenced blocks", () => {
		const text = "a\\*b `x\\*y`\n```\nre = /\\./\n```\nc\\_d";
		expect(unescapeMarkdown(text)).toBe("a*b `x\\*y`\n```\nre = /\\./\n```\nc_d");
	});

	it("never builds a query over 128 characters", () => {
		const long = "word ".repeat(40).trim();
		const { query, warnings } = searchQuery({ ...search, query: long });
		expect([...query].length).toBeLessThanOrEqual(128);
		expect(warnings[0]).toBe("deepseek: query cut to 128 characters");
	});
});
