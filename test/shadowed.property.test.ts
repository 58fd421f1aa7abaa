// Shadowed-rule detection (schema/shadowed.ts) against the plain quadratic check it replaces: every later rule
// compared with every earlier one in order. The indexed version must report exactly the same pairs, in order.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Rule } from "../engine/config-types.ts";
import { covers, parseSitePattern, type SitePattern } from "../engine/sites.ts";
import { reportShadowed } from "../schema/shadowed.ts";
import type { NormalizeIssue } from "../schema/validate.ts";

const subset = (inner: string[] | undefined, outer: string[] | undefined) =>
	outer === undefined || (inner?.every((x) => outer.includes(x)) ?? false);

/** The slow reference: O(rules²) comparisons, first covering earlier rule wins. */
function quadraticShadowed(rules: Rule[], patterns: Map<number, SitePattern[]>): string[] {
	const out: string[] = [];
	rules.forEach((later, j) => {
		for (const earlier of rules.slice(0, j)) {
			if ((later.search && !earlier.search) || (later.fetch && !earlier.fetch)) continue;
			if (!subset(later.queryScript, earlier.queryScript)) continue;
			if (!subset(later.fileTypes, earlier.fileTypes)) continue;
			if (!subset(later.recency, earlier.recency)) continue;
			const outer = patterns.get(earlier.index);
			const inner = patterns.get(later.index);
			if (earlier.sites) {
				if (!later.sites || !inner || !outer) continue;
				if (!inner.every((b) => outer.some((a) => covers(a, b)))) continue;
			}
			out.push(`${later.index}<${earlier.index}`);
			return;
		}
	});
	return out;
}

function indexed(rules: Rule[], patterns: Map<number, SitePattern[]>): string[] {
	const issues: NormalizeIssue[] = [];
	reportShadowed(
		rules,
		rules.map((rule) => patterns.get(rule.index) ?? []),
		issues,
	);
	return issues.map((issue) => {
		const earlier = /rule "([^"]+)" before/.exec(issue.message)?.[1];
		return `${issue.at[1]}<${earlier?.slice(1)}`;
	});
}

const POOL = [
	"github.com",
	"github.com/golang",
	"github.com/golang/go",
	"github.com/golang/*",
	"github.com/*/go",
	"github.com/**",
	"*.github.com",
	"=github.com",
	"api.github.com",
	"api.github.com/v3",
	".com",
	"com",
	"github.*",
	"api.github.*",
	"=api.github.co.uk",
	"=github.co.uk",
	"github.co.uk/golang",
	"x.com",
	"twitter.com/jack",
	"x.com/jack/status/20",
	"twitter.com/i/status/20",
	"x.com/i",
	"=x.com",
	"x.*",
	"twitter.*",
	"10.0.0.1",
	"10.0.0.1:8080",
	"[::1]",
	"localhost:8080/a",
	"localhost/a",
	"*.cn",
	".cn",
	"zhihu.cn/q",
	"www.zhihu.cn",
	"docs.google.com/d%2Ax",
	"docs.google.com/d*",
	"docs.google.com/d%2Ax/*",
	"docs.google.com/d%2Ax/**",
	"github.com/golang/**",
	"github.com/golang/go*",
	"x.com/jack/*",
	"x.com/i/*/20",
	"google.*/maps",
	"=google.de/maps/x",
];

const ruleArb = fc.record({
	sites: fc.option(fc.uniqueArray(fc.constantFrom(...POOL), { minLength: 1, maxLength: 4 }), { freq: 5 }),
	search: fc.boolean(),
	fetch: fc.boolean(),
	queryScript: fc.option(fc.constantFrom(["Han"], ["Han", "Latin"])),
	fileTypes: fc.option(fc.constantFrom(["pdf"], ["pdf", "txt"])),
	recency: fc.option(fc.constantFrom(["week"], ["week", "month"])),
});

type RawRule = ReturnType<typeof ruleArb.generate>["value"];

function build(raws: RawRule[]): { rules: Rule[]; patterns: Map<number, SitePattern[]> } {
	const rules: Rule[] = [];
	const patterns = new Map<number, SitePattern[]>();
	raws.forEach((raw, index) => {
		const rule: Rule = { name: `r${index}`, index };
		if (raw.sites) rule.sites = raw.sites;
		if (raw.search || !raw.fetch) rule.search = ["a"];
		if (raw.fetch) rule.fetch = ["a"];
		if (raw.queryScript) rule.queryScript = [...raw.queryScript];
		if (raw.fileTypes) rule.fileTypes = [...raw.fileTypes];
		if (raw.recency) rule.recency = [...raw.recency];
		rules.push(rule);
		patterns.set(
			index,
			(raw.sites ?? []).map((site: string) => {
				const parsed = parseSitePattern(site);
				if (!parsed.ok) throw new Error(parsed.error);
				return parsed.pattern;
			}),
		);
	});
	return { rules, patterns };
}

describe("shadowed rules (indexed) against the quadratic reference", () => {
	it("reports the same shadowed pairs for random rule lists", () => {
		fc.assert(
			fc.property(fc.array(ruleArb, { maxLength: 30 }), (raws) => {
				const { rules, patterns } = build(raws);
				expect(indexed(rules, patterns)).toEqual(quadraticShadowed(rules, patterns));
			}),
			{ numRuns: 2000 },
		);
	});

	it("finds a name.* rule covering an exact host, and a path rule through its first segment", () => {
		const { rules, patterns } = build([
			{ sites: ["github.*"], search: true, fetch: false, queryScript: null, fileTypes: null, recency: null },
			{ sites: ["=github.co.uk"], search: true, fetch: false, queryScript: null, fileTypes: null, recency: null },
			{ sites: ["x.com/jack"], search: true, fetch: false, queryScript: null, fileTypes: null, recency: null },
			{ sites: ["twitter.com/jack/x"], search: true, fetch: false, queryScript: null, fileTypes: null, recency: null },
		]);
		expect(indexed(rules, patterns)).toEqual(["1<0", "3<2"]);
		expect(quadraticShadowed(rules, patterns)).toEqual(["1<0", "3<2"]);
	});
});
