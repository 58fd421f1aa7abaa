// Site-pattern globs in bounded time: adversarial globs (`*a*a*a…b`, `**/a/**/a/…`) against long paths, each run
// bounded by the matcher's own step count (never a wall-clock assert), plus the red-team's reproductions through
// parsing, `site:` operators and `explain fetch` with a config rule. Regression: picomatch's regex backtracked.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import { extractSiteOperators } from "../engine/query-operators.ts";
import { searchRequest } from "../engine/requests.ts";
import { compileRawGlob, type GlobOps, matchGlob } from "../engine/site-glob.ts";
import { matchesUrl, parseSitePattern, type SitePattern } from "../engine/sites.ts";
import { processSearch } from "../executor/results.ts";
import { noNativeFilters } from "../providers/params/filters.ts";
import { oracleMatch } from "./oracle/sites-oracle.ts";

function pattern(raw: string): SitePattern {
	const parsed = parseSitePattern(raw);
	if (!parsed.ok) throw new Error(parsed.error);
	return parsed.pattern;
}

/** The documented bound: steps ≤ (pattern chars + segments) × (path chars + segments + 1). */
function bound(glob: string[][], path: string[]): number {
	const patternSize = glob.reduce((n, pieces) => n + pieces.join("*").length + 1, 0);
	const pathSize = path.reduce((n, s) => n + s.length + 1, 0) + 1;
	return patternSize * pathSize;
}

const worst = { ops: 0, ratio: 0, cases: 0 };
afterAll(() => {
	console.log(
		`glob: ${worst.cases} adversarial cases, worst ${worst.ops} steps, worst steps/bound ${worst.ratio.toFixed(3)}`,
	);
});

function measured(glob: string[][], path: string[]): number {
	const ops: GlobOps = { count: 0 };
	matchGlob(compileGlob(glob), path, ops);
	worst.cases++;
	worst.ops = Math.max(worst.ops, ops.count);
	worst.ratio = Math.max(worst.ratio, ops.count / bound(glob, path));
	return ops.count;
}

/** A glob compiled from its segments' pieces, as the parser compiles the raw segments they were split from. */
const compileGlob = (glob: string[][]) =>
	compileRawGlob(
		glob.map((pieces) => pieces.join("*")),
		(piece) => piece,
	);

/** Raw pattern segments split on `*`: "**" is ["", "", ""]. */
const split = (segment: string) => segment.split("*");

const letters = fc.constantFrom("a", "a", "a", "b");
/** Segments that make backtracking matchers explode: runs of `*a`, stars next to stars, a tail that fails. */
const adversarialSegment = fc.oneof(
	fc.integer({ min: 1, max: 15 }).map((n) => `${"*a".repeat(n)}*b`),
	fc.array(fc.constantFrom("*", "a", "b", "**", "aa"), { minLength: 1, maxLength: 30 }).map((p) => p.join("")),
	fc.constant("**"),
	fc.constant("a"),
);
const adversarialGlob = fc.array(adversarialSegment, { minLength: 1, maxLength: 12 }).map((s) => s.map(split));
const adversarialPath = fc.oneof(
	fc.array(fc.string({ unit: letters, maxLength: 100 }), { minLength: 1, maxLength: 40 }),
	fc.integer({ min: 1, max: 500 }).map((n) => Array.from({ length: n }, () => "a")),
	fc.integer({ min: 1, max: 200 }).map((n) => ["a".repeat(n)]),
);

describe("site glob matching is bounded", () => {
	it("stays within pattern size × path size steps on 1,500 adversarial globs and paths", () => {
		fc.assert(
			fc.property(adversarialGlob, adversarialPath, (glob, path) => {
				expect(measured(glob, path)).toBeLessThanOrEqual(bound(glob, path));
			}),
			{ numRuns: 1500 },
		);
	});

	it("bounds the red-team's globs: *a*a*a*a*a*a*a*b on a 100-character segment, **/a/… on 500 segments", () => {
		const star = [split("*a*a*a*a*a*a*a*b")];
		const long = ["a".repeat(100)];
		expect(measured(star, long)).toBeLessThanOrEqual(bound(star, long));
		const deep = "**/a/**/a/**/a/**/a/**/b".split("/").map(split);
		const segments = Array.from({ length: 500 }, () => "a");
		expect(matchGlob(compileGlob(deep), segments)).toBe(false);
		expect(measured(deep, segments)).toBeLessThanOrEqual(bound(deep, segments));
	});

	it("matches like the slow oracle on small globs and paths", () => {
		const small = fc.array(fc.constantFrom("*", "**", "a*", "*a", "a*b", "ab", "*a*", "***", "b"), {
			minLength: 1,
			maxLength: 4,
		});
		const smallPath = fc.array(fc.constantFrom("", "a", "b", "ab", "aab", "ba", "abab"), { maxLength: 5 });
		fc.assert(
			fc.property(small, smallPath, (glob, path) => {
				const raw = `example.com/${glob.join("/")}`;
				const url = `https://example.com/${path.join("/")}`;
				expect(matchesUrl(pattern(raw), url)).toBe(oracleMatch(raw, url));
			}),
			{ numRuns: 1000 },
		);
	});

	it("filters results by a site: operator with a backtracking glob against a 100-character segment", () => {
		const { query, domains } = extractSiteOperators("hello site:example.com/*a*a*a*a*a*a*a*b");
		const request = searchRequest({ query, domains: [...domains] });
		const results = [`https://example.com/${"a".repeat(100)}`, `https://example.com/${"a".repeat(100)}b/x`];
		const raw = { results: results.map((url) => ({ title: "t", url, snippet: "s" })) };
		const out = processSearch(raw, request, noNativeFilters(10), 0);
		expect(out.results.map((r) => r.url)).toEqual([results[1]]);
	});

	it("explains a fetch against a config rule glob **/a/**/a/**/a/**/a/**/b over 500 segments", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pwa-glob-"));
		try {
			const file = join(dir, "pi-web-access.json");
			const rule = { name: "deep", sites: ["example.com/**/a/**/a/**/a/**/a/**/b"], fetch: ["direct"] };
			writeFileSync(file, JSON.stringify({ providers: { direct: { type: "direct" } }, rules: [rule] }));
			const out: string[] = [];
			const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t), env: {} };
			const url = `https://example.com/${Array.from({ length: 500 }, () => "a").join("/")}`;
			expect(await main(["explain", "fetch", url, "--config", file], io)).toBe(0);
			expect(out.join("")).not.toContain('rule "deep"');
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}, 10_000);
});
