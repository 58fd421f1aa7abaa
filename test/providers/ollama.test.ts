// ollama provider: the exact web_search / web_fetch POSTs (Bearer, snake_case max_results capped at 10), both
// success fixtures parsed field by field, and every error fixture classified.

import { describe, expect, it } from "vitest";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type { ProviderFetchResult, ProviderSearchResult } from "../../providers/contract.ts";
import ollama from "../../providers/ollama/provider.ts";
import {
	CONTRACT_KEY,
	type ContractCase,
	fixture,
	fixtureJson,
	runProviderContract,
} from "../contract/provider-contract.ts";

const search: SearchRequest = {
	kind: "search",
	query: "example-orm migration rollback",
	domains: [],
	excludeDomains: [],
	maxResults: 3,
	includeContent: false,
};

const fetchRequest: FetchRequest = {
	kind: "fetch",
	url: "https://docs.example.org/orm/migrations/rollback",
	offset: 0,
	maxChars: 20_000,
};

const json = (name: string, status = 200) => ({
	status,
	body: fixture(`ollama/${name}`),
	headers: { "content-type": "application/json" },
});

const bearer = { authorization: `Bearer ${CONTRACT_KEY.secret}`, "content-type": "application/json" };

const cases: ContractCase[] = [
	{
		name: "search: POST /api/web_search with query and max_results, Bearer key; results parsed",
		capability: "search",
		request: search,
		respond: json("web_search_success.json"),
		expectRequest: {
			method: "POST",
			path: "/api/web_search",
			headers: bearer,
			body: fixtureJson("ollama/web_search_request.json"),
		},
		expect: {
			result: (r) => {
				expect((r as ProviderSearchResult).results).toEqual([
					{
						title: "Rolling back migrations | example-orm",
						url: "https://docs.example.org/orm/migrations/rollback",
						snippet:
							"Use `orm migrate down --to <id>` to revert to a specific revision. Rollbacks run the down() step of each migration in reverse order...",
					},
					{
						title: "Safe schema rollbacks in production",
						url: "https://blog.example.net/2026/02/safe-rollbacks",
						snippet: "Before rolling back, take a snapshot. Destructive down() steps cannot restore dropped columns...",
					},
					{
						title: "migrate down fails with lock timeout · Issue #812",
						url: "https://git.example.com/example-orm/issues/812",
						snippet:
							"Running migrate down while the app holds connections causes a lock timeout; stop workers first...",
					},
				]);
			},
		},
	},
	{
		name: "search: max_results is capped at the documented 10; config headers are sent",
		capability: "search",
		request: { ...search, maxResults: 25 },
		config: { headers: { "x-team": "docs" } },
		respond: json("web_search_success.json"),
		expectRequest: {
			path: "/api/web_search",
			headers: { "x-team": "docs" },
			body: { query: "example-orm migration rollback", max_results: 10 },
		},
		expect: { result: (r) => expect((r as ProviderSearchResult).results).toHaveLength(3) },
	},
	{
		name: "fetch: POST /api/web_fetch with the url; title and markdown content kept verbatim",
		capability: "fetch",
		request: fetchRequest,
		respond: json("web_fetch_success.json"),
		expectRequest: {
			method: "POST",
			path: "/api/web_fetch",
			headers: bearer,
			body: fixtureJson("ollama/web_fetch_request.json"),
		},
		expect: {
			result: (r) => {
				const result = r as ProviderFetchResult;
				expect(result).toEqual({
					title: "Rolling back migrations | example-orm",
					content:
						"# Rolling back migrations\n\nUse `orm migrate down --to <id>` to revert to a specific revision.\n\n## Order\n\nDown steps run in reverse order of application.",
					extraction: "verbatim",
				});
			},
		},
	},
	{
		name: "search: 401 unauthorized exhausts the key",
		capability: "search",
		request: search,
		respond: json("error_401_unauthorized.json", 401),
		expect: { errorClass: "auth", keyVerdict: "exhausted", reasonIncludes: "unauthorized" },
	},
	{
		name: "search: 400 missing query is a bad request",
		capability: "search",
		request: search,
		respond: json("error_400_bad_request.json", 400),
		expect: { errorClass: "bad-request", reasonIncludes: "query is required" },
	},
	{
		name: "search: 429 is rate-limit for the key",
		capability: "search",
		request: search,
		respond: json("error_429_rate_limited.json", 429),
		expect: { errorClass: "rate-limit", keyVerdict: "rate-limited", reasonIncludes: "too many requests" },
	},
	{
		name: "fetch: 401 unauthorized exhausts the key",
		capability: "fetch",
		request: fetchRequest,
		respond: json("error_401_unauthorized.json", 401),
		expect: { errorClass: "auth", keyVerdict: "exhausted" },
	},
	{
		name: "fetch: 429 is rate-limit",
		capability: "fetch",
		request: fetchRequest,
		respond: json("error_429_rate_limited.json", 429),
		expect: { errorClass: "rate-limit", keyVerdict: "rate-limited" },
	},
	{
		name: "fetch: a 200 answer without content is a parse error",
		capability: "fetch",
		request: fetchRequest,
		respond: { json: { title: "only a title" } },
		expect: { errorClass: "parse" },
	},
];

runProviderContract({ definition: ollama, cases });

describe("ollama definition", () => {
	it("uses $OLLAMA_API_KEY against ollama.com and applies no filters itself", () => {
		expect(ollama.defaults).toMatchObject({ baseUrl: "https://ollama.com", apiKey: "$OLLAMA_API_KEY" });
		expect(ollama.needsKey).toBe(true);
		expect(ollama.extraction).toBe("verbatim");
		expect(ollama.native).toEqual({
			hosts: false,
			paths: false,
			excludeHosts: false,
			excludePaths: false,
			recency: false,
			dateRange: false,
			maxResults: 10,
		});
	});
});
