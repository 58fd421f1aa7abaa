// The routing index: table tests for ordering, dedup and every pattern kind, and a differential property
// against a linear scan with the slow oracle (invariant 9 at the level of site patterns).

import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { GrowingSiteIndex } from "../engine/site-index.ts";
import { entryUrl, type NormalizedUrl, normalizeUrl, parseSitePattern, type SitePattern } from "../engine/sites.ts";
import { label, patternRaw, segment, url } from "./oracle/site-arbitraries.ts";
import { linearCandidates } from "./oracle/sites-oracle.ts";

function pattern(raw: string): SitePattern {
	const parsed = parseSitePattern(raw);
	if (!parsed.ok) throw new Error(parsed.error);
	return parsed.pattern;
}

function normalized(href: string): NormalizedUrl {
	const result = normalizeUrl(href);
	if (!result.ok) throw new Error(result.error);
	return result.url;
}

/** The index filled with `entries` in order, as compile fills a table's (engine/route.ts). */
function filled<T>(entries: Array<{ pattern: SitePattern; value: T }>): GrowingSiteIndex<T> {
	const index = new GrowingSiteIndex<T>();
	for (const { pattern, value } of entries) index.add(pattern, value);
	return index;
}

function indexOf(rows: Array<[string, string]>) {
	return filled(rows.map(([raw, value]) => ({ pattern: pattern(raw), value })));
}

function hits(index: ReturnType<typeof indexOf>, href: string): string[] {
	return index.candidates(normalized(href)).map(({ value, pattern }) => `${value}:${pattern.raw}`);
}

describe("the site index (GrowingSiteIndex)", () => {
	const index = indexOf([
		["github.com/golang", "golang"],
		["*.github.io", "pages"],
		["=docs.python.org", "python-docs"],
		["google.*", "google"],
		["127.1", "loopback"],
		["[::1]:8080", "loopback6"],
		["x.com/jack/status/20", "post"],
		["twitter.com", "x"],
		["github.com", "github"],
		[".cn", "china"],
		["localhost:8080", "dev"],
		["maps.google.*", "maps"],
	]);

	const rows: Array<[string, string[]]> = [
		["https://github.com/golang/go", ["golang:github.com/golang", "github:github.com"]],
		["https://github.com/golang-migrate", ["github:github.com"]],
		["https://foo.github.io/", ["pages:*.github.io"]],
		["https://github.io/", []],
		["https://docs.python.org/3/", ["python-docs:=docs.python.org"]],
		["https://www.docs.python.org/", []],
		["https://www.google.co.uk/", ["google:google.*"]],
		["https://maps.google.de/", ["google:google.*", "maps:maps.google.*"]],
		["http://127.0.0.1:3000/", ["loopback:127.1"]],
		["http://[::1]:8080/", ["loopback6:[::1]:8080"]],
		["http://[::1]/", []],
		["https://x.com/i/web/status/20", ["post:x.com/jack/status/20", "x:twitter.com"]],
		["https://mobile.twitter.com/i/status/20", ["post:x.com/jack/status/20", "x:twitter.com"]],
		["https://www.zhihu.cn/", ["china:.cn"]],
		["http://api.localhost:8080/", ["dev:localhost:8080"]],
		["http://localhost/", []],
		["https://example.org/", []],
	];
	for (const [href, expected] of rows) {
		it(`finds ${expected.length === 0 ? "nothing" : expected.join(", ")} for ${href}`, () => {
			expect(hits(index, href)).toEqual(expected);
		});
	}

	it("returns each value once, with its first matching pattern, in the value's insertion order", () => {
		const shared = indexOf([
			["docs.rs", "b"],
			["=api.github.com", "a"],
			["github.com/golang", "c"],
			["github.com", "a"],
			["*.github.com", "c"],
		]);
		expect(hits(shared, "https://api.github.com/golang")).toEqual(["a:=api.github.com", "c:github.com/golang"]);
		expect(hits(shared, "https://github.com/golang/x")).toEqual(["a:github.com", "c:github.com/golang"]);
		expect(shared.size).toBe(5);
	});

	it("serves domains entries through their representative URL", () => {
		expect(index.candidates(entryUrl(pattern("*.github.io/x"))).map((h) => h.value)).toEqual(["pages"]);
		expect(index.candidates(entryUrl(pattern("github.com"))).map((h) => h.value)).toEqual(["github"]);
	});

	it("files a host named with one path under one map key, and grows a map of paths only for a second", () => {
		const rows: Array<[string, string]> = Array.from({ length: 1000 }, (_, i) => [`h${i}.example/docs`, "docs"]);
		const entries = rows.map(([raw, value]) => ({ pattern: pattern(raw), value }));
		const sets = vi.spyOn(Map.prototype, "set");
		let big: ReturnType<typeof indexOf>;
		try {
			big = filled(entries);
			// A map of leading path segments per host was made and filled for every one of them: 2,001 keys set.
			expect(sets.mock.calls.length).toBe(1001);
		} finally {
			sets.mockRestore();
		}
		expect(hits(big, "https://h7.example/docs/x")).toEqual(["docs:h7.example/docs"]);
		expect(hits(big, "https://h7.example/blog")).toEqual([]);
		const grown = indexOf([...rows.slice(0, 3), ["h1.example/blog", "blog"], ["h1.example/docs/more", "more"]]);
		expect(hits(grown, "https://h1.example/blog/1")).toEqual(["blog:h1.example/blog"]);
		expect(hits(grown, "https://h1.example/docs/more")).toEqual(["docs:h1.example/docs", "more:h1.example/docs/more"]);
	});

	it("is empty for an empty index", () => {
		expect(new GrowingSiteIndex<string>().candidates(normalized("https://github.com/"))).toEqual([]);
	});
});

describe("index against a linear scan with the oracle", () => {
	it("agrees on random pattern sets × random URLs", () => {
		let nonEmpty = 0;
		const entries = fc.array(fc.tuple(patternRaw, fc.nat(6)), { minLength: 1, maxLength: 14 });
		// Half of the URLs are built from one of the set's own patterns, so that hits are common.
		const scenario = entries.chain((list) =>
			fc.tuple(
				fc.constant(list),
				fc.oneof(
					url,
					fc
						.tuple(fc.constantFrom(...list), fc.array(label, { maxLength: 2 }), fc.array(segment, { maxLength: 2 }))
						.map(([[raw], sub, more]) => {
							const entry = entryUrl(pattern(raw));
							const host = [...sub, entry.host].join(".");
							const path = [...entry.path.map(encodeURIComponent), ...more].join("/");
							return `https://${host}:${entry.port}/${path}`;
						}),
				),
			),
		);
		fc.assert(
			fc.property(scenario, ([list, href]) => {
				const index = filled(list.map(([raw, value]) => ({ pattern: pattern(raw), value })));
				const expected = linearCandidates(
					list.map(([raw, value]) => ({ raw, value })),
					href,
				);
				const result = normalizeUrl(href);
				const actual = result.ok ? index.candidates(result.url) : [];
				if (expected.length > 0) nonEmpty++;
				expect(actual.map(({ value, pattern }) => [value, pattern.raw])).toEqual(
					expected.map(({ value, raw }) => [value, raw]),
				);
			}),
			{ numRuns: 1200 },
		);
		expect(nonEmpty).toBeGreaterThan(300);
	});
});
