// brave against a fake backend: the exact GET query string and token header, fixtures parsed (missing `web` is an
// empty answer), 422 SUBSCRIPTION_TOKEN_INVALID as auth, and the comma-separated rate-limit headers read for the delay.

import { describe, expect, it } from "vitest";
import type { SearchRequest } from "../../engine/request-types.ts";
import brave, { braveRetryAfterMs } from "../../providers/brave/provider.ts";
import type { ProviderFetchResult, ProviderSearchResult } from "../../providers/contract.ts";
import { CONTRACT_KEY, fixture, runProviderContract } from "../contract/provider-contract.ts";

const search: SearchRequest = {
	kind: "search",
	query: "example-proxy tls passthrough",
	domains: [],
	excludeDomains: [],
	recency: "month",
	maxResults: 3,
	includeContent: true,
};
const plainSearch: SearchRequest = { ...search, recency: undefined, includeContent: false };
const asSearch = (r: ProviderSearchResult | ProviderFetchResult) => r as ProviderSearchResult;
const rateHeaders = {
	"x-ratelimit-limit": "1, 15000",
	"x-ratelimit-policy": "1;w=1, 15000;w=2592000",
	"x-ratelimit-remaining": "0, 14523",
	"x-ratelimit-reset": "1, 1209600",
};

runProviderContract({
	definition: brave,
	cases: [
		{
			name: "search: GET with q, count, freshness, extra snippets and the subscription token",
			capability: "search",
			request: search,
			config: { options: { country: "us", safesearch: "moderate" } },
			respond: { body: fixture("brave/search_success.json"), headers: { "x-ratelimit-remaining": "0, 14523" } },
			expectRequest: {
				method: "GET",
				pathname: "/res/v1/web/search",
				query: {
					q: "example-proxy tls passthrough",
					count: "3",
					freshness: "pm",
					extra_snippets: "true",
					text_decorations: "false",
					country: "us",
					safesearch: "moderate",
				},
				headers: { "x-subscription-token": CONTRACT_KEY.secret, accept: "application/json", authorization: undefined },
			},
			expect: {
				result: (r) =>
					expect(asSearch(r).results).toEqual([
						{
							title: "TLS passthrough | example-proxy docs",
							url: "https://docs.example.org/proxy/tls-passthrough",
							snippet: "In passthrough mode the proxy routes on the SNI header and never terminates TLS.",
							content:
								"Passthrough cannot inspect HTTP headers because the stream stays encrypted.\n\nUse the sni_routes table to map hostnames to backends.",
							publishedAt: "2026-02-11",
						},
						{
							title: "Choosing between TLS termination and passthrough",
							url: "https://blog.example.net/tls-termination-vs-passthrough",
							snippet: "A comparison of the two modes, with latency numbers from a small benchmark.",
						},
					]),
			},
		},
		{
			name: "search: site filters become query operators and a date range becomes freshness from..to",
			capability: "search",
			request: {
				...plainSearch,
				domains: ["docs.example.org", "blog.example.net/tls"],
				excludeDomains: ["spam.example.com"],
				recency: "2026-01-01..2026-02-28",
				maxResults: 40,
			},
			respond: { body: fixture("brave/search_success_minimal_no_web.json") },
			expectRequest: {
				query: {
					q: "example-proxy tls passthrough site:docs.example.org OR site:blog.example.net -site:spam.example.com",
					count: "20",
					freshness: "2026-01-01to2026-02-28",
					text_decorations: "false",
				},
			},
			expect: { result: (r) => expect(asSearch(r).results).toEqual([]) },
		},
		{
			name: "search: 422 SUBSCRIPTION_TOKEN_INVALID is auth, key exhausted",
			capability: "search",
			request: plainSearch,
			respond: { status: 422, body: fixture("brave/error_422_invalid_token.json") },
			expect: { errorClass: "auth", keyVerdict: "exhausted", reasonIncludes: "subscription token is invalid" },
		},
		{
			name: "search: 422 VALIDATION is bad-request",
			capability: "search",
			request: plainSearch,
			respond: { status: 422, body: fixture("brave/error_422_validation_missing_q.json") },
			expect: { errorClass: "bad-request", reasonIncludes: "Unable to validate" },
		},
		{
			name: "search: 429 reads the exhausted per-second window from X-RateLimit-Reset",
			capability: "search",
			request: plainSearch,
			respond: { status: 429, body: fixture("brave/error_429_rate_limited.json"), headers: rateHeaders },
			expect: { errorClass: "rate-limit", keyVerdict: "rate-limited", retryAfterMs: 1000 },
		},
		{
			name: "search: 429 with the monthly window exhausted is quota",
			capability: "search",
			request: plainSearch,
			respond: {
				status: 429,
				body: fixture("brave/error_429_rate_limited.json"),
				headers: { ...rateHeaders, "x-ratelimit-remaining": "1, 0" },
			},
			expect: { errorClass: "quota", keyVerdict: "exhausted", retryAfterMs: 1_209_600_000 },
		},
		{
			name: "search: 402 CREDIT_EXHAUSTED is quota",
			capability: "search",
			request: plainSearch,
			respond: {
				status: 402,
				json: { type: "ErrorResponse", error: { status: 402, code: "CREDIT_EXHAUSTED", detail: "No credits left." } },
			},
			expect: { errorClass: "quota", keyVerdict: "exhausted" },
		},
	],
});

describe("braveRetryAfterMs", () => {
	it("takes the longest exhausted window, else the shortest window, else Retry-After", () => {
		expect(braveRetryAfterMs({ "x-ratelimit-reset": "1, 50", "x-ratelimit-remaining": "0, 0" })).toBe(50_000);
		expect(braveRetryAfterMs({ "x-ratelimit-reset": "3, 1209600" })).toBe(3000);
		expect(braveRetryAfterMs({ "retry-after": "4" })).toBe(4000);
		expect(braveRetryAfterMs({})).toBeUndefined();
	});
});
