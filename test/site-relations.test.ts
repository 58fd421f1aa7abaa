// Table tests for how site patterns relate: domains entries (entryUrl, matchesEntry), covers() for shadowed
// rules, and the canonical spelling formatSitePattern gives.

import { describe, expect, it } from "vitest";
import {
	covers,
	entryUrl,
	formatSitePattern,
	matchesEntry,
	parseSitePattern,
	type SitePattern,
} from "../engine/sites.ts";

function pattern(raw: string): SitePattern {
	const parsed = parseSitePattern(raw);
	if (!parsed.ok) throw new Error(`expected ${raw} to parse: ${parsed.error}`);
	return parsed.pattern;
}

describe("domains entries", () => {
	it("turns an entry into its representative URL", () => {
		expect(entryUrl(pattern("*.github.io/x")).href).toBe("https://sub.github.io/x");
		expect(entryUrl(pattern(".cn")).host).toBe("cn");
		expect(entryUrl(pattern("google.*")).host).toBe("google.com");
		expect(entryUrl(pattern("localhost:8080/a%20b")).href).toBe("https://localhost:8080/a%20b");
		expect(entryUrl(pattern("github.com"))).toMatchObject({ port: 443, path: [""] });
	});

	const rows: Array<[string, string, boolean]> = [
		["x.com", "x.com/golang", true],
		["github.com/golang", "github.com", false],
		["github.com/golang", "github.com/golang/go", true],
		["twitter.com", "x.com", true],
		["*.github.io", "github.io", false],
		["*.github.io", "*.github.io", true],
		["github.io", "*.github.io", true],
		["=github.io", "*.github.io", false],
		[".cn", "zhihu.cn", true],
		["google.*", "google.*", true],
		["google.*", "google.de", true],
		["localhost:8080", "localhost", false],
		["localhost", "localhost:8080", true],
	];
	for (const [site, entry, expected] of rows) {
		it(`site ${site} ${expected ? "matches" : "does not match"} entry ${entry}`, () => {
			expect(matchesEntry(pattern(site), pattern(entry))).toBe(expected);
		});
	}
});

describe("covers (shadowed rules)", () => {
	const rows: Array<[string, string, boolean]> = [
		["github.com", "gist.github.com", true],
		["github.com", "*.github.com", true],
		["github.com", "=github.com", true],
		["*.github.com", "github.com", false],
		["*.github.com", "a.github.com", true],
		["github.com", "codedgithub.com", false],
		["*.github.com", "=codedgithub.com", false],
		["*.github.com", "*.codedgithub.com", false],
		["google.*", "=google.com.evil.net", false],
		["=github.com", "github.com", false],
		["github.com", "github.com/golang", true],
		["github.com/golang", "github.com", false],
		["github.com/golang", "github.com/golang/go", true],
		["github.com/golang", "github.com/golang-migrate", false],
		["github.com/golang", "github.com/golang/*/issues", true],
		["github.com/*/*/issues", "github.com/a/b/issues/1", true],
		["github.com/*", "github.com/*", true],
		["github.com/*/x", "github.com/*", false],
		["x.com", "twitter.com/foo", true],
		["twitter.com", "=x.com", true],
		["x.com/i/status/1", "x.com/jack/status/1", false],
		["x.com/jack/status/1", "x.com/i/status/1", true],
		["google.*", "=google.de", true],
		["google.*", "maps.google.*", true],
		["google.*", "google.com", false],
		["github.com", "github.*", false],
		["localhost:8080", "localhost", false],
		["localhost", "localhost:8080", true],
		["127.0.0.1", "127.1", true],
		["com", "127.0.0.1", false],
		["com", "github.com", true],
	];
	for (const [a, b, expected] of rows) {
		it(`${a} ${expected ? "covers" : "does not cover"} ${b}`, () => {
			expect(covers(pattern(a), pattern(b))).toBe(expected);
		});
	}
});

describe("formatSitePattern", () => {
	const rows: Array<[string, string]> = [
		["GitHub.com.", "github.com"],
		[".CN", ".cn"],
		["*.Bücher.de:8080/a%2Fb/", "*.xn--bcher-kva.de:8080/a%2Fb"],
		["google.*/x/*", "google.*/x/*"],
		["=[0::1]", "[::1]"],
		["zh.wikipedia.org/wiki/%E4%B8%AD", "zh.wikipedia.org/wiki/中"],
	];
	for (const [raw, expected] of rows) {
		it(`spells ${raw} as ${expected}`, () => {
			expect(formatSitePattern(pattern(raw))).toBe(expected);
		});
	}
});
