// sub2api-claude: the Anthropic Messages family through a gateway's Claude group (`<root>/v1/messages`), with the
// pi provider's base URL, key and headers; provider and model required; tool errors after good results only warn.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchRequest } from "../../engine/request-types.ts";
import type { CallContext, ProviderSearchResult } from "../../providers/contract.ts";
import definition, {
	buildFetchRequest,
	buildSearchRequest,
	canServe,
} from "../../providers/sub2api-claude/provider.ts";
import {
	CONTRACT_KEY,
	type ContractCase,
	fixture,
	fixtureJson,
	runProviderContract,
} from "../contract/provider-contract.ts";
import { type FakeServer, startFakeServer } from "../helpers/fake-server.ts";
import { messagesSse } from "../helpers/model-sse.ts";

type Json = Record<string, unknown>;

function search(query: string, extra: Partial<SearchRequest> = {}): SearchRequest {
	return { kind: "search", query, domains: [], excludeDomains: [], maxResults: 5, includeContent: false, ...extra };
}

const config = { provider: "gateway-claude", model: "claude-sonnet-5-5", baseUrl: "{server}" };
const request = search("example-server 3 default port");
const success = fixtureJson("anthropic/response_web_search_success.json") as Json;

/** Success, then a second search that failed with `code`. */
function laterFailure(code: string): Json {
	const blocks = success.content as Json[];
	const failed = {
		type: "web_search_tool_result",
		tool_use_id: "srvtoolu_02",
		content: { type: "web_search_tool_result_error", error_code: code },
	};
	return { ...success, content: [...blocks.slice(0, 3), failed, ...blocks.slice(3)] };
}

const cases: ContractCase[] = [
	{
		name: "search goes to <root>/v1/messages with the configured model, the key as x-api-key and gateway headers",
		capability: "search",
		request,
		config: { ...config, headers: { "x-group": "claude" } },
		respond: { sse: fixture("anthropic/stream_web_search.sse") },
		expectRequest: {
			path: "/v1/messages",
			headers: { "x-api-key": CONTRACT_KEY.secret, "anthropic-version": "2023-06-01", "x-group": "claude" },
			bodyIncludes: {
				model: "claude-sonnet-5-5",
				tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 3 }],
				stream: true,
			},
		},
		expect: {
			result: (r) =>
				expect((r as ProviderSearchResult).answer).toBe("In version 3 the default listener moved to port 8443 (TLS)."),
		},
	},
	{
		name: "a later search failing after good results keeps the results and warns",
		capability: "search",
		request,
		config,
		respond: { sse: messagesSse(laterFailure("max_uses_exceeded")) },
		expect: {
			result: (r) => {
				const result = r as ProviderSearchResult;
				expect(result.results).toHaveLength(2);
				expect(result.warnings).toEqual([expect.stringContaining("max_uses_exceeded")]);
			},
		},
	},
	{
		name: "unavailable in the only tool result is a server error",
		capability: "search",
		request,
		config,
		respond: {
			sse: messagesSse({
				...success,
				content: [
					{ type: "server_tool_use", id: "srvtoolu_03", name: "web_search", input: { query: "x" } },
					{
						type: "web_search_tool_result",
						tool_use_id: "srvtoolu_03",
						content: { type: "web_search_tool_result_error", error_code: "unavailable" },
					},
				],
			}),
		},
		expect: { errorClass: "server", keyVerdict: undefined, reasonIncludes: "unavailable" },
	},
	{
		name: "fetch is verbatim through the same endpoint",
		capability: "fetch",
		request: { kind: "fetch", url: "https://docs.example.org/server/ports", offset: 0, maxChars: 20_000 },
		config,
		respond: { sse: messagesSse(fixtureJson("anthropic/response_web_fetch_success.json") as Json) },
		expectRequest: { path: "/v1/messages", bodyIncludes: { model: "claude-sonnet-5-5" } },
		expect: {
			result: (r) =>
				expect(r).toMatchObject({ extraction: "verbatim", title: "Ports and listeners | example-server docs" }),
		},
	},
];

runProviderContract({ definition, cases });

function callFor(extra: Partial<CallContext>): CallContext {
	return {
		config: {
			name: "claude",
			type: "sub2api-claude",
			provider: "gateway-claude",
			model: "claude-sonnet-5-5",
			options: {},
		},
		key: CONTRACT_KEY,
		signal: new AbortController().signal,
		timeoutMs: 30_000,
		onProgress: () => {},
		...extra,
	};
}

describe("sub2api-claude definition", () => {
	it("requires provider and model, has no vendor defaults, and says it serves no PDFs", () => {
		expect(definition.required).toEqual(["provider", "model"]);
		expect(definition.defaults).toEqual({});
		expect(definition.extraction).toBe("verbatim");
		expect(canServe({ kind: "fetch", url: "https://a.example/x.pdf", offset: 0, maxChars: 1000 })).toBe(false);
	});

	it("builds <root>/v1/messages from the pi provider's base URL, with or without /v1", () => {
		const fetchRequest = { kind: "fetch" as const, url: "https://a.example/", offset: 0, maxChars: 1000 };
		expect(buildSearchRequest(request, callFor({ piAuth: { baseUrl: "https://gw.example" } })).url).toBe(
			"https://gw.example/v1/messages",
		);
		expect(buildFetchRequest(fetchRequest, callFor({ piAuth: { baseUrl: "https://gw.example/v1/" } })).url).toBe(
			"https://gw.example/v1/messages",
		);
		expect(() => buildSearchRequest(request, callFor({}))).toThrow(/no base URL/);
	});
});

describe("sub2api-claude through the pi provider", () => {
	let server: FakeServer;
	beforeAll(async () => {
		server = await startFakeServer();
	});
	afterAll(() => server.close());

	it("uses the pi provider's base URL and headers; config headers win", async () => {
		server.respond({ sse: fixture("anthropic/stream_web_search.sse") });
		const call = callFor({ piAuth: { baseUrl: `${server.url}/claude`, headers: { "x-a": "pi", "x-b": "pi" } } });
		call.config = { ...call.config, headers: { "x-b": "config" } };
		const result = await definition.search?.(request, call);
		expect(server.requests[0]?.path).toBe("/claude/v1/messages");
		expect(server.requests[0]?.headers["x-a"]).toBe("pi");
		expect(server.requests[0]?.headers["x-b"]).toBe("config");
		expect(result?.results).toHaveLength(2);
	});
});
