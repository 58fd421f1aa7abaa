// doubao-global provider: the exact global_search body (DocCount ≤ 20, MaxSnippetLength, images off, no filters),
// the success fixture parsed (text snippet parts joined, images dropped), and top-level and result-level errors.

import { describe, expect, it } from "vitest";
import type { SearchRequest } from "../../engine/request-types.ts";
import type { ProviderSearchResult } from "../../providers/contract.ts";
import doubaoGlobal from "../../providers/doubao-global/provider.ts";
import {
	CONTRACT_KEY,
	type ContractCase,
	type FakeResponse,
	fixture,
	fixtureJson,
	runProviderContract,
} from "../contract/provider-contract.ts";

const request: SearchRequest = {
	kind: "search",
	query: "示例数据库 连接池",
	domains: [],
	excludeDomains: [],
	maxResults: 2,
	includeContent: false,
};

const envelope = (name: string, status = 200): FakeResponse => ({
	status,
	body: fixture(`doubao/${name}`),
	headers: { "content-type": "application/json" },
});

/** The fixture's body except MaxImageCountPerDoc: images are always off (the result shape has no room for them). */
const fixtureBody = { ...(fixtureJson("doubao/global_search_request.json") as object), MaxImageCountPerDoc: 0 };

const cases: ContractCase[] = [
	{
		name: "POST /search_api/global_search with Query, DocCount, MaxSnippetLength and images off; documents parsed",
		capability: "search",
		request,
		config: { options: { maxSnippetLength: 500 } },
		respond: envelope("global_search_success.json"),
		expectRequest: {
			method: "POST",
			path: "/search_api/global_search",
			headers: { authorization: `Bearer ${CONTRACT_KEY.secret}`, "content-type": "application/json" },
			body: fixtureBody,
		},
		expect: {
			result: (r) => {
				const result = r as ProviderSearchResult;
				expect(result.results).toEqual([
					{
						title: "连接池配置指南 | 示例数据库文档",
						url: "https://docs.example.org/db/zh/pooling",
						snippet:
							"连接池会预先建立固定数量的数据库连接，客户端请求时从池中借出，用完后归还。\n默认池大小为 10，可通过 pool_size 调整；等待超时由 pool_timeout 控制。",
						publishedAt: "2026-01-08",
					},
					{
						title: "A study of connection pool sizing",
						url: "https://papers.example.edu/pooling-study.pdf",
						snippet: "We measure throughput as a function of pool size under mixed OLTP workloads...",
					},
				]);
				expect(result.details).toEqual({ totalDocCount: 20 });
			},
		},
	},
	{
		name: "sends no site or time filters, caps DocCount at 20 and uses a 1000-token snippet by default",
		capability: "search",
		request: { ...request, maxResults: 50, domains: ["docs.example.org"], excludeDomains: ["a.com"], recency: "week" },
		respond: envelope("global_search_success.json"),
		expectRequest: {
			body: { Query: "示例数据库 连接池", DocCount: 20, MaxSnippetLength: 1000, MaxImageCountPerDoc: 0 },
		},
		expect: { result: (r) => expect((r as ProviderSearchResult).results).toHaveLength(2) },
	},
	{
		name: "10400 query is empty is a fatal bad request",
		capability: "search",
		request,
		respond: envelope("global_search_error_10400.json"),
		expect: { errorClass: "bad-request", keyVerdict: "fatal", reasonIncludes: "query is empty" },
	},
	{
		name: "a result-level ErrorCode 700901 is an invalid key that exhausts it",
		capability: "search",
		request,
		respond: envelope("global_search_result_level_error_700901.json"),
		expect: { errorClass: "auth", keyVerdict: "exhausted", reasonIncludes: "700901" },
	},
	{
		name: "a result-level 10409 (subscription key on Global) exhausts the key",
		capability: "search",
		request,
		respond: {
			json: {
				ResponseMetadata: { RequestId: "r" },
				Result: { TotalDocCount: 0, Documents: [], ErrorCode: 10409, ErrorMsg: "package mode unsupported" },
			},
		},
		expect: { errorClass: "auth", keyVerdict: "exhausted", reasonIncludes: "10409" },
	},
];

runProviderContract({ definition: doubaoGlobal, cases });

describe("doubao-global definition", () => {
	it("uses postpaid keys only and applies no site or time filter itself", () => {
		expect(doubaoGlobal.keyOrder).toBe("postpaid-only");
		expect(doubaoGlobal.defaults.apiKey).toBe("$DOUBAO_SEARCH_API_KEY");
		expect(doubaoGlobal.native).toEqual({
			hosts: false,
			paths: false,
			excludeHosts: false,
			excludePaths: false,
			recency: false,
			dateRange: false,
			maxResults: 20,
		});
	});
});
