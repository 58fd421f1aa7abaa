// Plan tables: which chain a request gets (per-call provider, first matching rule, default) and why steps skip.

import { describe, expect, it } from "vitest";
import type { Config } from "../engine/config-types.ts";
import { explain, planToJson } from "../engine/explain.ts";
import { plan } from "../engine/plan.ts";
import type { FetchRequest, SearchRequest } from "../engine/request-types.ts";
import { compile } from "../engine/route.ts";
import { testContext } from "./helpers/plan-context.ts";

const provider = (name: string, type = "exa") => ({ name, type, options: {} });

const config: Config = {
	providers: [
		provider("exa"),
		provider("grok", "sub2api-grok"),
		provider("ds", "deepseek"),
		provider("fdirect", "direct"),
	],
	search: ["exa", "ds"],
	fetch: ["exa", "fdirect"],
	rules: [
		{ name: "X", index: 0, sites: ["x.com"], search: ["grok"], fetch: ["grok"] },
		{ name: "CN", index: 1, sites: [".cn"], search: ["ds", "exa"] },
		{ name: "Han", index: 2, queryScript: ["Han"], search: ["ds"] },
		{ name: "PDF", index: 3, fileTypes: ["pdf"], fetch: ["fdirect"] },
		{ name: "News", index: 4, recency: ["day"], search: ["exa"], policy: { onEmpty: "stop" } },
		{ name: "Go", index: 5, sites: ["github.com/golang"], search: ["exa"], fetch: ["exa"] },
	],
	policy: { maxAttempts: 3 },
};
const table = compile(config);

const search = (query: string, extra: Partial<SearchRequest> = {}): SearchRequest => ({
	kind: "search",
	query,
	domains: [],
	excludeDomains: [],
	maxResults: 5,
	includeContent: false,
	...extra,
});
const fetch = (url: string, extra: Partial<FetchRequest> = {}): FetchRequest => ({
	kind: "fetch",
	url,
	offset: 0,
	maxChars: 20000,
	...extra,
});

const cases: Array<{
	description: string;
	request: SearchRequest | FetchRequest;
	source: string;
	rule?: string;
	chain: string[];
}> = [
	{
		description: "a search without domains takes the default chain",
		request: search("rust"),
		source: "default",
		chain: ["exa", "ds"],
	},
	{
		description: "site: in the query moves into domains and matches a site rule",
		request: search("elon site:x.com"),
		source: "rule",
		rule: "X",
		chain: ["grok"],
	},
	{
		description: "twitter.com is the same site as x.com",
		request: search("q", { domains: ["twitter.com/jack"] }),
		source: "rule",
		rule: "X",
		chain: ["grok"],
	},
	{
		description: "a suffix rule matches a subdomain entry",
		request: search("q", { domains: ["www.zhihu.cn"] }),
		source: "rule",
		rule: "CN",
		chain: ["ds", "exa"],
	},
	{
		description: "a rule with only a search chain is no candidate for a fetch",
		request: fetch("https://www.zhihu.cn/a"),
		source: "default",
		chain: ["exa", "fdirect"],
	},
	{
		description: "queryScript holds for Han letters",
		request: search("泛型 golang"),
		source: "rule",
		rule: "Han",
		chain: ["ds"],
	},
	{
		description: "fileTypes holds for a fetch of a .pdf path",
		request: fetch("https://arxiv.org/pdf/1.PDF"),
		source: "rule",
		rule: "PDF",
		chain: ["fdirect"],
	},
	{
		description: "recency condition",
		request: search("news", { recency: "day" }),
		source: "rule",
		rule: "News",
		chain: ["exa"],
	},
	{
		description: "path rule does not match the bare host entry",
		request: search("q", { domains: ["github.com"] }),
		source: "default",
		chain: ["exa", "ds"],
	},
	{
		description: "path rule matches a deeper entry",
		request: search("q", { domains: ["github.com/golang/go"] }),
		source: "rule",
		rule: "Go",
		chain: ["exa"],
	},
	{
		description: "path rule matches a fetch URL on a segment boundary",
		request: fetch("https://github.com/golang/go/issues"),
		source: "rule",
		rule: "Go",
		chain: ["exa"],
	},
	{
		description: "path rule does not match /golang-migrate",
		request: fetch("https://github.com/golang-migrate/x"),
		source: "default",
		chain: ["exa", "fdirect"],
	},
	{
		description: "a per-call provider is the only step",
		request: search("q site:x.com", { provider: "ds" }),
		source: "provider",
		chain: ["ds"],
	},
];

describe("plan", () => {
	for (const c of cases) {
		it(c.description, () => {
			const result = plan(table, c.request, testContext());
			expect(result.source).toBe(c.source);
			expect(result.rule?.name).toBe(c.rule);
			expect(result.chain).toEqual(c.chain);
		});
	}

	it("the first matching rule wins, in declaration order (firewall-like)", () => {
		const result = plan(table, search("泛型", { domains: ["x.com"] }), testContext());
		expect(result.rule).toEqual({ name: "X", index: 0, site: "x.com", matched: "x.com" });
	});

	it("applies the rule's policy over the top-level policy", () => {
		expect(plan(table, search("n", { recency: "day" }), testContext()).policy).toEqual({
			maxAttempts: 3,
			onEmpty: "stop",
		});
		expect(plan(table, search("n"), testContext()).policy).toEqual({ maxAttempts: 3 });
	});

	it("marks steps skipped with the context's reason, and types that cannot serve as such", () => {
		const result = plan(
			compile({ ...config, search: ["exa", "fdirect", "ds"] }),
			search("q"),
			testContext(new Set(["ds"])),
		);
		expect(result.steps).toEqual([
			{ provider: "exa", type: "exa", status: "ready" },
			{ provider: "fdirect", type: "direct", status: "skipped", reason: "cannot search" },
			{ provider: "ds", type: "deepseek", status: "skipped", reason: "no credentials" },
		]);
	});

	it("an unconfigured per-call provider is a skipped step saying so", () => {
		const result = plan(table, search("q", { provider: "bing" }), testContext());
		expect(result.steps).toEqual([{ provider: "bing", type: "unknown", status: "skipped", reason: "not configured" }]);
	});

	it("compile keeps configured names once each in every chain, and leaves clean chains and rules as they are", () => {
		const messy = compile({
			...config,
			search: ["exa", "bing", "exa", "ds"],
			rules: [
				{ name: "A", index: 0, sites: ["a.org"], search: ["ds", "ds", "gone"], fetch: ["fdirect"] },
				{ name: "B", index: 1, sites: ["b.org"], search: ["exa", "ds"] },
			],
		});
		expect(messy.config.search).toEqual(["exa", "ds"]);
		expect(messy.config.rules[0]).toEqual({
			name: "A",
			index: 0,
			sites: ["a.org"],
			search: ["ds"],
			fetch: ["fdirect"],
		});
		expect(messy.config.rules[1]).toEqual({ name: "B", index: 1, sites: ["b.org"], search: ["exa", "ds"] });
		expect(plan(messy, search("q", { domains: ["a.org"] }), testContext()).chain).toEqual(["ds"]);
		expect(table.config.rules).toEqual(config.rules);
	});

	it("without configured chains the default is every capable provider in declaration order", () => {
		const open = compile({ ...config, search: undefined, fetch: undefined, rules: [] });
		expect(plan(open, search("q"), testContext()).chain).toEqual(["exa", "grok", "ds"]);
		expect(plan(open, fetch("https://a.org"), testContext()).chain).toEqual(["exa", "grok", "ds", "fdirect"]);
	});

	it("explain says which rule matched by which site against which domain, and why steps skip", () => {
		const text = explain(plan(table, search("q site:x.com/elonmusk"), testContext(new Set(["grok"]))));
		expect(text).toContain('search "q" · domains: x.com/elonmusk');
		expect(text).toContain('rule "X" (#1) matched: site x.com matches domain x.com/elonmusk');
		expect(text).toContain("1. grok (sub2api-grok) skipped: no credentials");
	});

	it("explain --json keeps the contract's field names", () => {
		const json = planToJson(plan(table, search("q -site:b.com", { recency: "day" }), testContext()));
		expect(Object.keys(json)).toEqual(["capability", "request", "source", "rule", "chain", "steps", "warnings"]);
		expect(json.request).toEqual({ query: "q", domains: [], excludeDomains: ["b.com"], recency: "day" });
	});

	it('leaves a paid: "explicit" provider out of default chains (saying why) but uses it when a call or a rule names it', () => {
		const paid = { ...provider("grok", "sub2api-grok"), paid: "explicit" as const };
		const explicit = compile({
			...config,
			providers: [provider("exa"), paid, provider("ds", "deepseek")],
			search: ["grok", "exa"],
			fetch: undefined,
			rules: [{ name: "X", index: 0, sites: ["x.com"], search: ["grok"] }],
		});
		const byDefault = plan(explicit, search("q"), testContext());
		expect(byDefault.steps[0]).toMatchObject({ provider: "grok", status: "skipped" });
		expect(byDefault.steps[0]?.reason).toContain('paid: "explicit"');
		expect(explain(byDefault)).toContain('1. grok (sub2api-grok) skipped: paid: "explicit": used only when');
		// The derived default chain (no `fetch` configured) leaves it out the same way.
		expect(plan(explicit, fetch("https://a.org"), testContext()).steps[1]).toMatchObject({ status: "skipped" });
		expect(plan(explicit, search("q", { provider: "grok" }), testContext()).steps[0]?.status).toBe("ready");
		expect(plan(explicit, search("q", { domains: ["x.com"] }), testContext()).steps[0]?.status).toBe("ready");
	});

	it("merges a rule's budget field by field over the top-level budget", () => {
		const budgeted = compile({
			...config,
			policy: { budget: { usdPerDay: 1, usdPerCall: 0.1 } },
			rules: [{ name: "News", index: 0, recency: ["day"], search: ["exa"], policy: { budget: { usdPerCall: 0.01 } } }],
		});
		expect(plan(budgeted, search("n", { recency: "day" }), testContext()).policy.budget).toEqual({
			usdPerDay: 1,
			usdPerCall: 0.01,
		});
	});
});
