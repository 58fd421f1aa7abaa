// Properties of routing (site-patterns.md invariants 9–12): the compiled index agrees with a linear oracle,
// a rule that matches nothing changes no plan, plans name configured providers once in chain order, and
// a JSON5 round trip of the config changes nothing.

import fc from "fast-check";
import JSON5 from "json5";
import { describe, expect, it } from "vitest";
import type { Config, Rule } from "../engine/config-types.ts";
import { plan } from "../engine/plan.ts";
import type { WebRequest } from "../engine/request-types.ts";
import { compile } from "../engine/route.ts";
import { testContext } from "./helpers/plan-context.ts";
import { oraclePlan } from "./oracle/plan-oracle.ts";

const HOSTS = [
	"github.com",
	"gist.github.com",
	"x.com",
	"twitter.com",
	"go.dev",
	"pkg.go.dev",
	"zhihu.cn",
	"a.b.gov.cn",
	"google.co.uk",
	"www.google.de",
	"docs.python.org",
	"foo.github.io",
	"127.0.0.1",
	"example.org",
];
const PATHS = [
	"",
	"/golang",
	"/golang/go",
	"/golang-migrate",
	"/jack/status/42",
	"/i/status/42",
	"/doc/a.pdf",
	"/org/repo/issues/1",
];
const SITES = [
	"github.com",
	"github.com/golang",
	"*.github.com",
	"=github.com",
	"x.com",
	"twitter.com/jack",
	"x.com/jack/status/42",
	".cn",
	"gov.cn",
	"go.dev",
	"google.*",
	"*.github.io",
	"github.com/*/*/issues",
	"127.0.0.1",
	"docs.python.org",
	"example.org:8080",
	"=pkg.go.dev",
];
const ENTRIES = [
	"github.com",
	"github.com/golang",
	"x.com",
	"twitter.com/jack",
	"zhihu.cn",
	".cn",
	"*.github.com",
	"google.*",
	"go.dev/doc",
	"example.org",
	"foo.github.io",
	"127.0.0.1",
];
const NAMES = ["p1", "p2", "p3", "s4", "f5"];

const chainArb = fc.option(
	fc.subarray(NAMES, { minLength: 0 }).chain((xs) => fc.shuffledSubarray(xs, { minLength: xs.length })),
	{ nil: undefined },
);

const ruleArb = fc.record({
	sites: fc.option(fc.subarray(SITES, { minLength: 1, maxLength: 4 }), { nil: undefined }),
	queryScript: fc.option(fc.constant(["Han"]), { nil: undefined }),
	fileTypes: fc.option(fc.constant(["pdf"]), { nil: undefined }),
	recency: fc.option(fc.subarray(["day", "week", "range"], { minLength: 1 }), { nil: undefined }),
	search: chainArb,
	fetch: chainArb,
});

const configArb: fc.Arbitrary<Config> = fc
	.record({
		rules: fc.array(ruleArb, { maxLength: 10 }),
		search: chainArb,
		fetch: chainArb,
		providers: fc.subarray(NAMES, { minLength: 1 }),
	})
	.map(({ rules, search, fetch, providers }) => {
		const built: Rule[] = rules.map((r, index) => {
			const rule: Rule = { name: `r${index}`, index };
			for (const key of ["sites", "queryScript", "fileTypes", "recency", "search", "fetch"] as const) {
				const value = r[key];
				if (value !== undefined) (rule as unknown as Record<string, unknown>)[key] = value;
			}
			return rule;
		});
		return {
			providers: providers.map((name) => ({ name, type: "exa", options: {} })),
			rules: built,
			policy: {},
			...(search ? { search } : {}),
			...(fetch ? { fetch } : {}),
		};
	});

const requestArb: fc.Arbitrary<WebRequest> = fc.oneof(
	fc
		.record({
			query: fc.constantFrom("golang generics", "泛型", "news today", "Привет"),
			domains: fc.subarray(ENTRIES, { maxLength: 2 }),
			recency: fc.option(fc.constantFrom("day", "week", "2024-01-01..2024-02-01"), { nil: undefined }),
			provider: fc.option(fc.constantFrom("p1", "zz"), { freq: 8, nil: undefined }),
		})
		.map(
			(r): WebRequest => ({
				kind: "search",
				query: r.query,
				domains: r.domains,
				excludeDomains: [],
				maxResults: 5,
				includeContent: false,
				...(r.recency ? { recency: r.recency as WebRequest extends { recency?: infer R } ? R : never } : {}),
				...(r.provider ? { provider: r.provider } : {}),
			}),
		),
	fc
		.record({
			host: fc.constantFrom(...HOSTS),
			path: fc.constantFrom(...PATHS),
			scheme: fc.constantFrom("https", "http"),
		})
		.map((r): WebRequest => ({ kind: "fetch", url: `${r.scheme}://${r.host}${r.path}`, offset: 0, maxChars: 20000 })),
);

const context = testContext();
const canServe = (capability: "search" | "fetch") => (name: string) =>
	capability === "search" ? !name.startsWith("f") : !name.startsWith("s");

describe("routing properties", () => {
	it("9. the compiled index and the linear oracle agree on every (config, request)", () => {
		fc.assert(
			fc.property(configArb, fc.array(requestArb, { minLength: 1, maxLength: 5 }), (config, requests) => {
				const table = compile(config);
				for (const request of requests) {
					const got = plan(table, request, context);
					const want = oraclePlan(config, got.request, canServe(request.kind));
					expect({ source: got.source, ruleIndex: got.rule?.index ?? null, chain: got.chain }).toEqual(want);
				}
			}),
			{ numRuns: 1500 },
		);
	});

	it("10. adding a rule that matches nothing in a request leaves that request's plan unchanged", () => {
		fc.assert(
			fc.property(configArb, requestArb, fc.nat(), (config, request, at) => {
				const before = plan(compile(config), request, context);
				const position = at % (config.rules.length + 1);
				const inert: Rule = {
					name: "inert",
					index: -1,
					sites: ["never-matches.invalid"],
					search: ["p1"],
					fetch: ["p1"],
				};
				const rules = [...config.rules.slice(0, position), inert, ...config.rules.slice(position)];
				const after = plan(compile({ ...config, rules }), request, context);
				expect(after.source).toBe(before.source);
				expect(after.rule?.name).toBe(before.rule?.name);
				expect(after.chain).toEqual(before.chain);
				expect(after.steps).toEqual(before.steps);
			}),
			{ numRuns: 500 },
		);
	});

	it("11. plans name only configured providers, each at most once, in chain order", () => {
		fc.assert(
			fc.property(configArb, requestArb, (config, request) => {
				const result = plan(compile(config), request, context);
				const names = result.steps.map((s) => s.provider);
				expect(new Set(names).size).toBe(names.length);
				expect(names).toEqual(result.chain);
				const configured = new Set(config.providers.map((p) => p.name));
				for (const step of result.steps) {
					if (!configured.has(step.provider)) {
						expect(result.source).toBe("provider");
						expect(step).toMatchObject({ status: "skipped", reason: "not configured" });
					}
				}
				if (result.source === "rule") {
					const rule = config.rules.find((r) => r.index === result.rule?.index);
					const chain = (request.kind === "search" ? rule?.search : rule?.fetch) ?? [];
					expect(result.chain).toEqual([...new Set(chain.filter((n) => configured.has(n)))]);
				}
			}),
			{ numRuns: 500 },
		);
	});

	it("12. compile(JSON5.parse(JSON5.stringify(config))) plans exactly like compile(config)", () => {
		fc.assert(
			fc.property(configArb, fc.array(requestArb, { minLength: 1, maxLength: 3 }), (config, requests) => {
				const a = compile(config);
				const b = compile(JSON5.parse(JSON5.stringify(config)) as Config);
				for (const request of requests) expect(plan(b, request, context)).toEqual(plan(a, request, context));
			}),
			{ numRuns: 300 },
		);
	});
});
