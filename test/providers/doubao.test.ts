// doubao (Custom edition) provider: the exact web_search bodies of both request fixtures, the success fixture
// parsed field by field, every error code classified per docs/providers/doubao.md (HTTP 200 or not), site/time mapping,
// and timeouts that are never retried on the same key.

import { describe, expect, it } from "vitest";
import { WebAccessError } from "../../engine/errors.ts";
import type { SearchRequest } from "../../engine/request-types.ts";
import type { CallContext, ProviderSearchResult } from "../../providers/contract.ts";
import doubao, { buildSearchRequest, doubaoTimeRange, parseSearchResponse } from "../../providers/doubao/provider.ts";
import {
	CONTRACT_KEY,
	type ContractCase,
	type FakeResponse,
	fixture,
	fixtureJson,
	runProviderContract,
} from "../contract/provider-contract.ts";
import { startFakeServer } from "../helpers/fake-server.ts";

const request: SearchRequest = {
	kind: "search",
	query: "示例数据库 连接池 配置",
	domains: ["docs.example.org", "blog.example.net"],
	excludeDomains: [],
	recency: "year",
	maxResults: 3,
	includeContent: true,
};

const envelope = (name: string, status = 200): FakeResponse => ({
	status,
	body: fixture(`doubao/${name}`),
	headers: { "content-type": "application/json" },
});

/** An error envelope with any code, as the API sends it (HTTP 200 unless told). */
const codeEnvelope = (codeN: number, message: string, status = 200): FakeResponse => ({
	status,
	json: {
		ResponseMetadata: {
			RequestId: "r",
			Action: "",
			Version: "",
			Service: "",
			Region: "",
			Error: { CodeN: codeN, Code: String(codeN), Message: message },
		},
		Result: null,
	},
});

const cases: ContractCase[] = [
	{
		name: "POST /search_api/web_search with the fixture's body (Sites, OneYear, markdown); every field parsed",
		capability: "search",
		request,
		config: { options: { queryRewrite: false } },
		respond: envelope("web_search_success.json"),
		expectRequest: {
			method: "POST",
			path: "/search_api/web_search",
			headers: { authorization: `Bearer ${CONTRACT_KEY.secret}`, "content-type": "application/json" },
			body: fixtureJson("doubao/web_search_request.json"),
		},
		expect: {
			result: (r) => {
				const result = r as ProviderSearchResult;
				expect(result.results).toEqual([
					{
						title: "连接池配置指南 | 示例数据库文档",
						url: "https://docs.example.org/db/zh/pooling",
						snippet:
							"连接池会预先建立固定数量的数据库连接，客户端请求时从池中借出，用完后归还。默认池大小为 10，可通过 pool_size 调整；当所有连接都被占用时，新请求会等待 pool_timeout 秒后报错。文档还建议为长事务设置语句超时，避免连接被长期占用导致池耗尽。",
						content: "# 连接池配置\n\n## pool_size\n\n默认 10。\n\n## pool_timeout\n\n默认 30 秒。",
						publishedAt: "2026-01-08",
						score: 0.9312,
					},
					{
						title: "连接池耗尽的五个常见原因",
						url: "https://blog.example.net/pool-exhaustion",
						snippet:
							"文章总结了导致连接池耗尽的五个常见原因：长事务、连接泄漏、池大小过小、突发流量以及慢查询，并给出了监控指标与排查步骤。",
						publishedAt: "2025-11-20",
						score: 0.8127,
					},
				]);
				expect(result.details).toEqual({ resultCount: 2, timeCostMs: 418, logId: "20260301120000ABCDEF0123456789AB" });
				expect(result.warnings).toBeUndefined();
			},
		},
	},
	{
		name: "BlockHosts, a YYYY-MM-DD..YYYY-MM-DD TimeRange, Industry and the other options as in the fixture",
		capability: "search",
		request: {
			...request,
			query: "example-db release notes",
			domains: [],
			excludeDomains: ["spam.example.com"],
			recency: "2025-12-01..2026-02-28",
			maxResults: 10,
			includeContent: false,
		},
		config: { options: { needContent: true, authInfoLevel: 1, industry: "gov", contentFormat: "text" } },
		respond: envelope("web_search_success.json"),
		expectRequest: { body: fixtureJson("doubao/web_search_request_blockhosts_daterange.json") },
		expect: {
			result: (r) => {
				const items = (r as ProviderSearchResult).results;
				expect(items).toHaveLength(2);
				expect(items.every((item) => item.content === undefined)).toBe(true);
			},
		},
	},
	{
		name: "10400 (HTTP 200) is a fatal bad request",
		capability: "search",
		request,
		respond: envelope("web_search_error_10400_param.json"),
		expect: { errorClass: "bad-request", keyVerdict: "fatal", reasonIncludes: "query or search type is empty" },
	},
	{
		name: "10406 free quota exhausted exhausts the key",
		capability: "search",
		request,
		respond: envelope("web_search_error_10406_free_quota.json"),
		expect: { errorClass: "quota", keyVerdict: "exhausted", reasonIncludes: "10406" },
	},
	{
		name: "700429 QPS limit rate-limits the key",
		capability: "search",
		request,
		respond: envelope("web_search_error_700429_rate_limit.json"),
		expect: { errorClass: "rate-limit", keyVerdict: "rate-limited", reasonIncludes: "700429" },
	},
	{
		name: "700901 invalid key exhausts it (auth)",
		capability: "search",
		request,
		respond: envelope("web_search_error_700901_invalid_key.json"),
		expect: { errorClass: "auth", keyVerdict: "exhausted", reasonIncludes: "invalid api key" },
	},
	{
		name: "the envelope wins over a non-2xx status: 10406 with HTTP 403 is still quota",
		capability: "search",
		request,
		respond: envelope("web_search_error_10406_free_quota.json", 403),
		expect: { errorClass: "quota", keyVerdict: "exhausted" },
	},
	...(
		[
			[10402, "bad-request", "fatal"],
			[10403, "auth", "exhausted"],
			[10408, "bad-request", "fatal"],
			[10409, "auth", "exhausted"],
			[10410, "quota", "exhausted"],
			[10412, "quota", "exhausted"],
			[10500, "server", "retry-same-key"],
			[10501, "server", "retry-same-key"],
		] as const
	).map(
		([code, errorClass, keyVerdict]): ContractCase => ({
			name: `${code} is ${errorClass} with key verdict ${keyVerdict}`,
			capability: "search",
			request,
			respond: codeEnvelope(code, "synthetic message"),
			expect: { errorClass, keyVerdict, reasonIncludes: String(code) },
		}),
	),
	{
		name: "an unknown code is a server error that leaves the key alone",
		capability: "search",
		request,
		respond: codeEnvelope(12345, "something new", 500),
		expect: { errorClass: "server", reasonIncludes: "12345" },
	},
	{
		name: "a backend message echoing the key is masked",
		capability: "search",
		request,
		respond: codeEnvelope(700901, `invalid api key ${CONTRACT_KEY.secret}`),
		expect: { errorClass: "auth", keyVerdict: "exhausted", reasonIncludes: "[key]" },
	},
	{
		name: "a 200 without Result and without an error is a parse error",
		capability: "search",
		request,
		respond: { json: { ResponseMetadata: { RequestId: "r" }, Result: null } },
		expect: { errorClass: "parse" },
	},
];

runProviderContract({ definition: doubao, cases });

const call = (options: Record<string, unknown> = {}): CallContext => ({
	config: { name: "doubao", type: "doubao", options },
	key: { secret: "k", label: "key1" },
	signal: new AbortController().signal,
	timeoutMs: 1000,
	onProgress: () => {},
});

const bodyOf = (req: Partial<SearchRequest>, options?: Record<string, unknown>) =>
	buildSearchRequest({ ...request, ...req }, call(options)).body as Record<string, unknown>;

describe("doubao request mapping", () => {
	it.each([
		["day", "OneDay"],
		["week", "OneWeek"],
		["month", "OneMonth"],
		["year", "OneYear"],
		["2025-12-01..2026-02-28", "2025-12-01..2026-02-28"],
		["2025-12-01..", "2025-12-01..2026-03-01"],
		["..2026-02-28", "1970-01-01..2026-02-28"],
	] as const)("recency %s → TimeRange %s", (recency, expected) => {
		expect(doubaoTimeRange(recency, new Date("2026-03-01T12:00:00Z"))).toBe(expected);
	});

	it("sends the host of path, wildcard and exact-host patterns as Sites (the executor narrows)", () => {
		const body = bodyOf({ domains: ["go.dev/doc", "*.github.io", "=docs.python.org", "localhost:8080", ".cn"] });
		expect(body.Filter).toMatchObject({ Sites: "go.dev|github.io|docs.python.org|localhost|cn" });
	});

	it("sends no Sites for a `name.*` pattern and says so", () => {
		const domains = ["google.*", "a.com"];
		expect(bodyOf({ domains }).Filter).not.toHaveProperty("Sites");
		const res = { status: 200, headers: {}, text: fixture("doubao/web_search_success.json"), url: "x" };
		expect(parseSearchResponse(res, { ...request, domains }, call()).warnings).toEqual([
			"doubao: a `name.*` site pattern cannot be sent as Filter.Sites; searched all sites",
		]);
	});

	it("never blocks more than asked: only plain hosts become BlockHosts, at most five", () => {
		const filter = bodyOf({
			excludeDomains: ["a.com", "*.b.com", "c.com/path", "=d.com", "e.com", "f.com", "g.com", "h.com", "i.com"],
		}).Filter as Record<string, unknown>;
		expect(filter.BlockHosts).toBe("a.com|e.com|f.com|g.com|h.com");
	});

	it("caps Count at 50, cuts the query to 100 characters and omits QueryControl unless configured", () => {
		const body = bodyOf({ maxResults: 80, query: "数".repeat(120) });
		expect(body.Count).toBe(50);
		expect(body.Query).toBe("数".repeat(100));
		expect(body).not.toHaveProperty("QueryControl");
		expect(bodyOf({}, { queryRewrite: true }).QueryControl).toEqual({ QueryRewrite: true });
	});

	it("drops results on whole-host exclusions beyond the five BlockHosts and warns about a cut query", async () => {
		const server = await startFakeServer();
		try {
			server.respond(envelope("web_search_success.json"));
			const excluded = ["a.com", "b.com", "c.com", "d.com", "e.com", "example.net"];
			const result = await doubao.search!(
				{ ...request, query: "q".repeat(101), excludeDomains: excluded },
				{ ...call(), config: { ...call().config, baseUrl: server.url } },
			);
			expect(result.results.map((item) => item.url)).toEqual(["https://docs.example.org/db/zh/pooling"]);
			expect(result.warnings).toEqual(["doubao: query cut to 100 characters (the API's limit)"]);
		} finally {
			await server.close();
		}
	});
});

describe("doubao classification", () => {
	it("never retries a timed-out call on the same key (it may have been billed)", async () => {
		const server = await startFakeServer();
		try {
			server.respond({ hang: true, headers: { "content-type": "application/json" } });
			const failure = await doubao.search!(request, {
				...call(),
				signal: AbortSignal.timeout(50),
				config: { ...call().config, baseUrl: server.url },
			}).then(
				() => undefined,
				(error: unknown) => error,
			);
			const classification = doubao.classify(failure);
			expect(classification.errorClass).toBe("timeout");
			expect(classification.keyVerdict).toBeUndefined();
		} finally {
			await server.close();
		}
		const undiciTimeout = new WebAccessError("timed out", {
			kind: "timeout",
			code: "timeout",
			keyVerdict: "retry-same-key",
		});
		expect(doubao.classify(undiciTimeout).keyVerdict).toBeUndefined();
	});

	it("has subscription-first keys, $DOUBAO_SEARCH_API_KEY and native site/time filters", () => {
		expect(doubao.keyOrder).toBe("subscription-first");
		expect(doubao.defaults.apiKey).toBe("$DOUBAO_SEARCH_API_KEY");
		expect(doubao.native).toMatchObject({
			hosts: true,
			excludeHosts: true,
			recency: true,
			dateRange: true,
			maxResults: 50,
		});
	});
});
