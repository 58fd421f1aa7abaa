// searxng provider: the exact GET it sends (format=json, time_range, instance options), every fixture parsed or
// classified, results cut to maxResults client-side, and the 403 "JSON disabled" page explained with its fix.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SearchRequest } from "../../engine/request-types.ts";
import type { CallContext, ProviderSearchResult } from "../../providers/contract.ts";
import searxng, { buildSearchRequest, parseSearchResponse } from "../../providers/searxng/provider.ts";
import { type ContractCase, fixture, runProviderContract } from "../contract/provider-contract.ts";
import { runCli } from "../helpers/cli-run.ts";
import { startFakeServer } from "../helpers/fake-server.ts";

const request: SearchRequest = {
	kind: "search",
	query: "example-db connection pooling",
	domains: [],
	excludeDomains: [],
	maxResults: 10,
	includeContent: false,
};

const call: CallContext = {
	config: { name: "searxng", type: "searxng", baseUrl: "https://searx.example.org/", options: {} },
	signal: new AbortController().signal,
	timeoutMs: 1000,
	onProgress: () => {},
};

const json = (name: string) => ({ body: fixture(`searxng/${name}`), headers: { "content-type": "application/json" } });

const cases: ContractCase[] = [
	{
		name: "sends q, format=json and the instance options of request.http; parses every result field",
		capability: "search",
		request: { ...request, recency: "year" },
		config: {
			options: {
				categories: ["general"],
				language: "en",
				pageno: 1,
				safesearch: 1,
				engines: ["duckduckgo", "brave", "bing"],
			},
		},
		respond: json("search_success.json"),
		expectRequest: {
			method: "GET",
			pathname: "/search",
			query: {
				q: "example-db connection pooling",
				format: "json",
				categories: "general",
				language: "en",
				time_range: "year",
				pageno: "1",
				safesearch: "1",
				engines: "duckduckgo,brave,bing",
			},
			headers: { accept: "application/json", authorization: undefined },
		},
		expect: {
			result: (r) => {
				const result = r as ProviderSearchResult;
				expect(result.results).toEqual([
					{
						title: "Connection pooling | example-db docs",
						url: "https://docs.example.org/db/pooling",
						snippet: "Pools keep a fixed number of server connections open and hand them to clients on demand.",
						score: 3.5,
					},
					{
						title: "Five connection pooling pitfalls",
						url: "https://blog.example.net/pooling-pitfalls",
						snippet: "Long transactions starve the pool; set a statement timeout.",
						publishedAt: "2026-01-14",
						score: 1,
					},
					{
						title: "Pool exhausted under load · Issue #41",
						url: "https://git.example.com/example-db/pool/issues/41",
						snippet: "When max_connections is reached new clients wait up to pool_timeout seconds.",
						score: 0.3333333333333333,
					},
				]);
				expect(result.answer).toBe("Connection pooling reuses a bounded set of database connections across clients.");
				expect(result.warnings).toEqual([
					"searxng: engines that did not answer: google (Suspended: too many requests), startpage (timeout)",
				]);
				expect(result.details?.suggestions).toEqual(["example-db pool size", "example-db pgbouncer"]);
				expect(result.details?.infoboxes).toHaveLength(1);
			},
		},
	},
	{
		name: "sends only q and format without options or recency, and returns the whole page (the executor cuts after filtering)",
		capability: "search",
		request: { ...request, maxResults: 2, recency: "2026-01-01..2026-02-01" },
		respond: json("search_success.json"),
		expectRequest: { path: "/search?q=example-db+connection+pooling&format=json" },
		expect: {
			result: (r) => {
				const urls = (r as ProviderSearchResult).results.map((item) => item.url);
				expect(urls.slice(0, 2)).toEqual([
					"https://docs.example.org/db/pooling",
					"https://blog.example.net/pooling-pitfalls",
				]);
				expect(urls.length, "more than maxResults: a cut here came before the domain filter").toBeGreaterThan(2);
			},
		},
	},
	{
		name: "puts domains into q as site: operators (OR-ed) and excludeDomains as -site:, so the engines search there",
		capability: "search",
		request: { ...request, domains: ["docs.example.org", "*.example.net/blog"], excludeDomains: ["spam.example.com"] },
		respond: json("search_success.json"),
		expectRequest: {
			query: {
				q: "example-db connection pooling (site:docs.example.org OR site:example.net) -site:spam.example.com",
				format: "json",
			},
		},
		expect: { result: (r) => expect((r as ProviderSearchResult).results.length).toBeGreaterThan(0) },
	},
	{
		name: "says that includeContent gets no page text from SearXNG (snippets only)",
		capability: "search",
		request: { ...request, includeContent: true },
		respond: json("search_empty.json"),
		expect: {
			result: (r) => {
				expect((r as ProviderSearchResult).warnings).toContain(
					"searxng: SearXNG returns snippets only, so includeContent adds no page text (fetch a result's URL to read it)",
				);
			},
		},
	},
	{
		name: "an empty answer is no results, with the unresponsive engine as a warning",
		capability: "search",
		request: { ...request, query: "zzqxjv-nonexistent-term" },
		respond: json("search_empty.json"),
		expect: {
			result: (r) => {
				const result = r as ProviderSearchResult;
				expect(result.results).toEqual([]);
				expect(result.warnings).toEqual(["searxng: engines that did not answer: duckduckgo (CAPTCHA)"]);
			},
		},
	},
	{
		name: "a 403 HTML page says JSON output is disabled on the instance and how to enable it",
		capability: "search",
		request,
		respond: {
			status: 403,
			body: fixture("searxng/error_403_json_disabled.html"),
			headers: { "content-type": "text/html" },
		},
		expect: { errorClass: "bad-request", keyVerdict: "fatal", reasonIncludes: "JSON output is disabled" },
	},
	{
		name: "400 No query is a bad request naming the backend's message",
		capability: "search",
		request,
		respond: { status: 400, ...json("error_400_no_query.json") },
		expect: { errorClass: "bad-request", reasonIncludes: "No query" },
	},
	{
		name: "the limiter's plain-text 429 is rate-limit",
		capability: "search",
		request,
		respond: { status: 429, body: fixture("searxng/error_429_limiter.txt"), headers: { "content-type": "text/plain" } },
		expect: { errorClass: "rate-limit", reasonIncludes: "Too Many Requests" },
	},
	{
		name: "500 search error is a server error",
		capability: "search",
		request,
		respond: { status: 500, ...json("error_500_search_error.json") },
		expect: { errorClass: "server", reasonIncludes: "search error" },
	},
	{
		name: "a 200 JSON without a results array is a parse error",
		capability: "search",
		request,
		respond: { json: { query: "x" } },
		expect: { errorClass: "parse" },
	},
];

runProviderContract({ definition: searxng, cases });

describe("searxng definition", () => {
	it("is keyless, requires baseUrl and filters nothing natively: sites and time_range only steer the engines", () => {
		expect(searxng.needsKey).toBe(false);
		expect(searxng.required).toEqual(["baseUrl"]);
		expect(searxng.native).toMatchObject({ hosts: false, excludeHosts: false, recency: false, dateRange: false });
	});

	it("spells out the settings.yml fix in the 403 message", () => {
		const res = { status: 403, headers: {}, text: fixture("searxng/error_403_json_disabled.html"), url: "x" };
		expect(() => parseSearchResponse(res, request, call)).toThrow(
			"JSON output is disabled on this SearXNG instance; enable it by adding `json` to `search.formats` in the instance's settings.yml",
		);
	});

	it("joins the base URL without doubling its trailing slash", () => {
		expect(buildSearchRequest(request, call).url).toBe(
			"https://searx.example.org/search?q=example-db+connection+pooling&format=json",
		);
	});
});

describe("searxng through the executor", () => {
	it("drops results dated outside --recency (engines may ignore time_range), keeping the undated", async () => {
		const server = await startFakeServer();
		try {
			const home = mkdtempSync(join(tmpdir(), "pwa-searxng-recency-"));
			const file = join(home, "cfg.json");
			writeFileSync(file, JSON.stringify({ providers: { sx: { type: "searxng", baseUrl: server.url } } }));
			server.respond(json("search_success.json"));
			const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
			const { code, stdout } = await runCli(
				["search", "--json", "--recency", "week", "pooling", "--config", file],
				env,
			);
			expect(code).toBe(0);
			const result = JSON.parse(stdout);
			expect(new URL(`http://x${server.requests[0]?.path}`).searchParams.get("time_range")).toBe("week");
			// The fixture's one dated result is from 2026-01-14: outside the last week, whenever this runs after it.
			expect(result.results.map((r: { url: string }) => r.url)).not.toContain(
				"https://blog.example.net/pooling-pitfalls",
			);
			expect(result.results.length).toBeGreaterThan(0);
			expect(result.warnings.join("\n")).toMatch(/recency applied to the results by publishedAt/);
		} finally {
			await server.close();
		}
	});
});
