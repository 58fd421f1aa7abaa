// sub2api-codex: the OpenAI Responses family through a gateway's Codex group. The base URL, key and headers come
// from the pi provider (`<base>/responses`); provider and model are required and nothing falls back to OpenAI.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isWebAccessError } from "../../engine/errors.ts";
import type { SearchRequest } from "../../engine/request-types.ts";
import type { CallContext, ProviderSearchResult } from "../../providers/contract.ts";
import definition, { buildFetchRequest, buildSearchRequest } from "../../providers/sub2api-codex/provider.ts";
import { CONTRACT_KEY, type ContractCase, fixture, runProviderContract } from "../contract/provider-contract.ts";
import { type FakeServer, startFakeServer } from "../helpers/fake-server.ts";

function search(query: string, extra: Partial<SearchRequest> = {}): SearchRequest {
	return { kind: "search", query, domains: [], excludeDomains: [], maxResults: 5, includeContent: false, ...extra };
}

const config = { provider: "gateway-codex", model: "gpt-6-luna", baseUrl: "{server}/v1" };
const request = search("example-cli 4.0 release", { domains: ["docs.example.org"] });

const cases: ContractCase[] = [
	{
		name: "search goes to <base>/responses with the configured model and gateway headers (config wins over pi)",
		capability: "search",
		request,
		config: { ...config, headers: { "x-group": "codex-config" }, options: { searchContextSize: "high" } },
		piAuth: { headers: { "x-group": "codex-pi", "x-pi-only": "yes" } },
		respond: { sse: fixture("openai/stream.sse") },
		expectRequest: {
			path: "/v1/responses",
			headers: { authorization: `Bearer ${CONTRACT_KEY.secret}`, "x-group": "codex-config", "x-pi-only": "yes" },
			bodyIncludes: {
				model: "gpt-6-luna",
				tools: [
					{ type: "web_search", filters: { allowed_domains: ["docs.example.org"] }, search_context_size: "high" },
				],
				store: false,
				stream: true,
			},
		},
		expect: {
			result: (r) => {
				const result = r as ProviderSearchResult;
				expect(result.answer).toMatch(/^Version 4\.0 drops the legacy config format/);
				expect(result.results.map((x) => x.url)).toEqual([
					"https://docs.example.org/cli/changelog/4.0",
					"https://blog.example.net/2026/01/example-cli-4",
				]);
			},
		},
	},
	{
		name: "fetch is model-written through the same endpoint",
		capability: "fetch",
		request: { kind: "fetch", url: "https://docs.example.org/cli/changelog/4.0", offset: 0, maxChars: 20_000 },
		config,
		respond: { sse: fixture("openai/stream.sse") },
		expectRequest: { path: "/v1/responses", bodyIncludes: { model: "gpt-6-luna" } },
		expect: { result: (r) => expect(r).toMatchObject({ extraction: "model" }) },
	},
];

runProviderContract({ definition, cases });

function callFor(extra: Partial<CallContext>): CallContext {
	return {
		config: { name: "codex", type: "sub2api-codex", provider: "gateway-codex", model: "gpt-6-luna", options: {} },
		key: CONTRACT_KEY,
		signal: new AbortController().signal,
		timeoutMs: 30_000,
		onProgress: () => {},
		...extra,
	};
}

describe("sub2api-codex definition", () => {
	it("requires provider and model and has no vendor defaults", () => {
		expect(definition.required).toEqual(["provider", "model"]);
		expect(definition.defaults).toEqual({});
		expect(definition.optionsSchema.model).toBeUndefined();
		expect(Object.keys(definition.optionsSchema).sort()).toEqual(["searchContextSize", "userLocation"]);
	});

	it("takes the base URL from the pi provider when the config has none", () => {
		const call = callFor({ piAuth: { baseUrl: "https://gw.example/v1/" } });
		expect(buildSearchRequest(request, call).url).toBe("https://gw.example/v1/responses");
		expect(buildFetchRequest({ kind: "fetch", url: "https://a.example/x", offset: 0, maxChars: 1000 }, call).url).toBe(
			"https://gw.example/v1/responses",
		);
	});

	it("without any base URL fails as a config problem instead of calling OpenAI", () => {
		let thrown: unknown;
		try {
			buildSearchRequest(request, callFor({}));
		} catch (error) {
			thrown = error;
		}
		expect(isWebAccessError(thrown) && thrown.kind).toBe("config");
		expect(definition.classify(thrown).errorClass).toBe("bad-request");
	});

	it("without a model fails as a config problem", () => {
		const call = callFor({ piAuth: { baseUrl: "https://gw.example/v1" } });
		call.config = { name: "codex", type: "sub2api-codex", options: {} };
		expect(() => buildSearchRequest(request, call)).toThrow(/no model configured/);
	});
});

describe("sub2api-codex through the pi provider's base URL", () => {
	let server: FakeServer;
	beforeAll(async () => {
		server = await startFakeServer();
	});
	afterAll(() => server.close());

	it("sends to the pi provider's base URL with its headers", async () => {
		server.respond({ sse: fixture("openai/stream.sse") });
		const call = callFor({ piAuth: { baseUrl: `${server.url}/gw/v1`, headers: { "x-gateway": "1" } } });
		const result = await definition.search?.(request, call);
		expect(server.requests[0]?.path).toBe("/gw/v1/responses");
		expect(server.requests[0]?.headers["x-gateway"]).toBe("1");
		expect(result?.results).toHaveLength(2);
	});
});
