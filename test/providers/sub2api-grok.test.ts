// sub2api-grok: the xAI family through a gateway's Grok group (`<base>/responses` of the pi provider), provider and
// model required, 180 s default timeout; the X handle logic and cost work as for xai.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchRequest } from "../../engine/request-types.ts";
import type { CallContext, ProviderSearchResult } from "../../providers/contract.ts";
import definition, { buildFetchRequest, buildSearchRequest } from "../../providers/sub2api-grok/provider.ts";
import { CONTRACT_KEY, type ContractCase, fixture, runProviderContract } from "../contract/provider-contract.ts";
import { type FakeServer, startFakeServer } from "../helpers/fake-server.ts";

function search(query: string, extra: Partial<SearchRequest> = {}): SearchRequest {
	return { kind: "search", query, domains: [], excludeDomains: [], maxResults: 5, includeContent: false, ...extra };
}

const config = { provider: "xai", model: "grok-4.6", baseUrl: "{server}/v1" };

const cases: ContractCase[] = [
	{
		name: "X search through the gateway: one handle rewrites citations, cost from ticks",
		capability: "search",
		request: search("example-lang 2.0", { domains: ["x.com/examplelang"], recency: "2026-01-01..2026-01-31" }),
		config,
		respond: { sse: fixture("xai/stream.sse") },
		expectRequest: {
			path: "/v1/responses",
			headers: { authorization: `Bearer ${CONTRACT_KEY.secret}` },
			bodyIncludes: {
				model: "grok-4.6",
				tools: [
					{
						type: "x_search",
						allowed_x_handles: ["examplelang"],
						from_date: "2026-01-01",
						to_date: "2026-01-31",
						enable_image_understanding: false,
					},
				],
			},
		},
		expect: {
			result: (r) => {
				const result = r as ProviderSearchResult;
				expect(result.results.map((x) => x.url)).toContain("https://x.com/examplelang/status/1900000000000000001");
				expect(result.costUsd).toBeCloseTo(0.019725, 12);
				expect(result.details).toMatchObject({ tool: "x_search", model: "grok-4.6", xSearches: 1 });
			},
		},
	},
	{
		name: "fetch of a page is model-written through the gateway",
		capability: "fetch",
		request: { kind: "fetch", url: "https://blog.example.net/example-lang-2", offset: 0, maxChars: 20_000 },
		config,
		respond: { sse: fixture("xai/stream.sse") },
		expectRequest: { path: "/v1/responses", bodyIncludes: { model: "grok-4.6" } },
		expect: { result: (r) => expect(r).toMatchObject({ extraction: "model" }) },
	},
];

runProviderContract({ definition, cases });

function callFor(extra: Partial<CallContext>): CallContext {
	return {
		config: { name: "grok", type: "sub2api-grok", provider: "xai", model: "grok-4.6", options: {} },
		key: CONTRACT_KEY,
		signal: new AbortController().signal,
		timeoutMs: 180_000,
		onProgress: () => {},
		...extra,
	};
}

describe("sub2api-grok definition", () => {
	it("requires provider and model, keeps only the 180 s timeout as a default", () => {
		expect(definition.required).toEqual(["provider", "model"]);
		expect(definition.defaults).toEqual({ timeoutMs: 180_000 });
		expect(definition.optionsSchema.model).toBeUndefined();
	});

	it("builds <base>/responses from the pi provider and fails without any base URL", () => {
		const call = callFor({ piAuth: { baseUrl: "https://gw.example/grok/v1" } });
		expect(buildSearchRequest(search("q"), call).url).toBe("https://gw.example/grok/v1/responses");
		expect(
			buildFetchRequest({ kind: "fetch", url: "https://x.com/a/status/1", offset: 0, maxChars: 1000 }, call).url,
		).toBe("https://gw.example/grok/v1/responses");
		expect(() => buildSearchRequest(search("q"), callFor({}))).toThrow(/no base URL/);
	});
});

describe("sub2api-grok progress", () => {
	let server: FakeServer;
	beforeAll(async () => {
		server = await startFakeServer();
	});
	afterAll(() => server.close());

	it("reports the web search and the X search as they finish", async () => {
		server.respond({ sse: fixture("xai/stream.sse") });
		const progress: string[] = [];
		const call = callFor({ piAuth: { baseUrl: `${server.url}/v1` }, onProgress: (line) => progress.push(line) });
		await definition.search?.(search("example-lang"), call);
		expect(progress).toEqual([
			"searching: example-lang 2.0 release changes",
			"searching X: example-lang 2.0 from:examplelang",
		]);
	});
});
