// Table tests for site patterns: every grammar row of docs/site-patterns.md, the invalid forms, warnings,
// aliases, ports and path rules. Entries and covers() are in site-relations.test.ts, properties in sites.property.test.ts.

import { describe, expect, it } from "vitest";
import { isHostOnly, matchesUrl, normalizeUrl, parseSitePattern, type SitePattern } from "../engine/sites.ts";

function pattern(raw: string): SitePattern {
	const parsed = parseSitePattern(raw);
	if (!parsed.ok) throw new Error(`expected ${raw} to parse: ${parsed.error}`);
	return parsed.pattern;
}

interface MatchRow {
	description: string;
	pattern: string;
	matches: string[];
	rejects: string[];
}

const grammar: MatchRow[] = [
	{
		description: "host matches the host and every subdomain at any depth",
		pattern: "github.com",
		matches: ["https://github.com/", "https://gist.github.com/x", "http://a.b.c.github.com/"],
		rejects: ["https://codedgithub.com/", "https://github.com.evil.net/", "https://github.co/"],
	},
	{
		description: ".suffix is the same as suffix",
		pattern: ".cn",
		matches: ["https://zhihu.cn/", "https://a.b.gov.cn/", "https://cn/"],
		rejects: ["https://cn.com/", "https://zhihucn/"],
	},
	{
		description: ".com.cn is a two-label suffix",
		pattern: ".com.cn",
		matches: ["https://www.sina.com.cn/", "https://sina.com.cn/"],
		rejects: ["https://example.cn/", "https://com.cn.example.org/"],
	},
	{
		description: "*.host matches subdomains only",
		pattern: "*.github.io",
		matches: ["https://foo.github.io/", "https://a.foo.github.io/x"],
		rejects: ["https://github.io/", "https://foogithub.io/"],
	},
	{
		description: "=host matches exactly that host",
		pattern: "=docs.python.org",
		matches: ["https://docs.python.org/3/", "http://docs.python.org:8000/"],
		rejects: ["https://www.docs.python.org/", "https://python.org/"],
	},
	{
		description: "name.* matches name under any public suffix",
		pattern: "google.*",
		matches: ["https://google.com/", "https://www.google.co.uk/", "https://google.de/", "https://google.internal/"],
		rejects: [
			"https://google.com.evil.net/",
			"https://notgoogle.com/",
			"https://google/",
			"https://google.evil.co.uk/",
		],
	},
	{
		description: "name.* with several labels matches on a label boundary",
		pattern: "maps.google.*",
		matches: ["https://maps.google.co.jp/", "https://a.maps.google.com/"],
		rejects: ["https://google.com/", "https://xmaps.google.com/"],
	},
	{
		description: "host/path matches the path on a segment boundary, case-sensitively",
		pattern: "github.com/golang",
		matches: ["https://github.com/golang", "https://github.com/golang/", "https://github.com/golang/go/issues"],
		rejects: [
			"https://github.com/golang-migrate",
			"https://github.com/Golang",
			"https://github.com/",
			"https://x.com/golang",
		],
	},
	{
		description: "host/glob matches when a segment-prefix of the path matches",
		pattern: "github.com/*/*/issues",
		matches: ["https://github.com/org/repo/issues/12", "https://github.com/org/repo/issues"],
		rejects: [
			"https://github.com/org/issues",
			"https://github.com/org/repo/pulls/1",
			"https://github.com/org/repo/issuesx",
		],
	},
	{
		description: "** crosses segments",
		pattern: "github.com/**/issues",
		matches: ["https://github.com/a/issues", "https://github.com/a/b/c/issues/1"],
		rejects: ["https://github.com/a/b/pulls"],
	},
	{
		description: "* stays within one segment",
		pattern: "docs.rs/*-sys",
		matches: ["https://docs.rs/openssl-sys/latest", "https://docs.rs/-sys"],
		rejects: ["https://docs.rs/openssl/x-sys", "https://docs.rs/openssl-sysx"],
	},
	{
		description: "host:port also needs the effective port",
		pattern: "localhost:8080",
		matches: ["http://localhost:8080/", "https://api.localhost:8080/x"],
		rejects: ["http://localhost/", "http://localhost:8081/"],
	},
	{
		description: "an explicit default port equals the scheme's default",
		pattern: "github.com:443",
		matches: ["https://github.com/", "https://github.com:443/", "http://github.com:443/"],
		rejects: ["http://github.com/"],
	},
	{
		description: "an IPv4 pattern matches that address only",
		pattern: "127.0.0.1",
		matches: ["http://127.0.0.1:3000/", "http://127.1/", "http://0x7f.0.0.1/"],
		rejects: ["http://127.0.0.2/", "http://localhost/"],
	},
	{
		description: "an IPv6 pattern in brackets",
		pattern: "[::1]",
		matches: ["http://[::1]:8080/", "http://[0:0::1]/"],
		rejects: ["http://[::2]/", "http://127.0.0.1/"],
	},
	{
		description: "an IPv4 shorthand pattern is canonicalised",
		pattern: "127.1",
		matches: ["http://127.0.0.1/"],
		rejects: ["http://127.0.0.2/"],
	},
];

describe("site pattern grammar", () => {
	for (const row of grammar) {
		it(`${row.pattern}: ${row.description}`, () => {
			const p = pattern(row.pattern);
			for (const url of row.matches) expect({ url, match: matchesUrl(p, url) }).toEqual({ url, match: true });
			for (const url of row.rejects) expect({ url, match: matchesUrl(p, url) }).toEqual({ url, match: false });
		});
	}

	it("assigns the kinds the doc names", () => {
		const kinds = ["github.com", ".cn", "*.github.io", "=a.b", "google.*", "127.1", "[::1]", "=127.0.0.1"].map(
			(raw) => pattern(raw).kind,
		);
		expect(kinds).toEqual(["host", "host", "subdomains", "exact", "any-suffix", "ip", "ip", "ip"]);
	});

	it("normalises hosts: case, IDN, trailing dot, IPv4 shorthand", () => {
		expect(pattern("GitHub.COM.").host).toBe("github.com");
		expect(pattern("bücher.de").host).toBe("xn--bcher-kva.de");
		expect(pattern("bücher.*").host).toBe("xn--bcher-kva");
		expect(pattern("0x7f.1").host).toBe("127.0.0.1");
		expect(pattern("[0:0::1]:8080")).toMatchObject({ host: "[::1]", port: 8080 });
	});

	it("keeps decoded path segments and marks globs", () => {
		expect(pattern("github.com/gol%61ng/").path).toEqual(["golang"]);
		expect(pattern("github.com/*/x")).toMatchObject({ glob: true, path: ["*", "x"] });
		expect(pattern("github.com/golang").glob).toBe(false);
		expect(isHostOnly(pattern("github.com/"))).toBe(true);
		expect(isHostOnly(pattern("github.com/a"))).toBe(false);
	});
});

describe("invalid site patterns", () => {
	const invalid: Array<[string, RegExp, string?]> = [
		["https://github.com/golang", /scheme/, 'write "github.com/golang"'],
		["ftp://x.org", /scheme/],
		["user@github.com", /userinfo/, 'write "github.com"'],
		["github.com?tab=repos", /`\?` and `#`/, 'write "github.com"'],
		["github.com/a#readme", /`\?` and `#`/],
		["git*hub.com", /`\*` is only allowed/],
		["*github.com", /`\*` is only allowed/],
		["github.*.com", /`\*` is only allowed/],
		["*", /`\*` is only allowed/],
		["*.google.*", /cannot be combined/],
		["=google.*", /cannot be combined/],
		["a..b", /empty label/],
		[".", /host is missing/],
		["*.", /host is missing/],
		["=", /host is missing/],
		["..cn", /empty label/],
		["*.127.0.0.1", /IP address/],
		[".127.0.0.1", /IP address/],
		["*.[::1]", /IP address/],
		["", /empty/],
		["   ", /empty/],
		["a b.com", /whitespace/],
		["github.com:abc", /port/],
		["github.com:0", /port/],
		["github.com:70000", /port/],
		["::1", /brackets/, 'write "[::1]"'],
		["[::1", /closing/],
		["/golang", /host is missing/],
		["a.1", /not a valid host/],
		["[nope]", /not a valid host/],
	];
	for (const [raw, message, fix] of invalid) {
		it(`rejects ${JSON.stringify(raw)}`, () => {
			const parsed = parseSitePattern(raw);
			expect(parsed.ok).toBe(false);
			if (parsed.ok) return;
			expect(parsed.error).toMatch(message);
			expect(parsed.error).toContain(JSON.stringify(raw));
			if (fix !== undefined) expect(parsed.fix).toBe(fix);
		});
	}

	it("allows @ in the path (medium.com/@user)", () => {
		expect(matchesUrl(pattern("medium.com/@user"), "https://medium.com/@user/post")).toBe(true);
	});
});

describe("public suffix warnings", () => {
	for (const raw of ["github.io", "co.uk", "com", "blogspot.com", "co.uk/path"]) {
		it(`warns that ${raw} matches every site under the suffix`, () => {
			const parsed = parseSitePattern(raw);
			expect(parsed.ok && parsed.warning).toMatch(/matches every site under this suffix/);
		});
	}
	for (const raw of [
		".github.io",
		".cn",
		".com.cn",
		"*.github.io",
		"=github.io",
		"github.com",
		"localhost",
		"google.*",
	]) {
		it(`does not warn about ${raw}`, () => {
			const parsed = parseSitePattern(raw);
			expect(parsed).toMatchObject({ ok: true });
			expect(parsed.ok && parsed.warning).toBeUndefined();
		});
	}
});

describe("x.com and twitter.com", () => {
	const rows: MatchRow[] = [
		{
			description: "a pattern on x.com matches twitter.com",
			pattern: "x.com",
			matches: ["https://twitter.com/", "https://mobile.twitter.com/a", "https://x.com/"],
			rejects: ["https://nottwitter.com/", "https://twitter.co/"],
		},
		{
			description: "a pattern on twitter.com matches x.com",
			pattern: "twitter.com/golang",
			matches: ["https://x.com/golang", "https://twitter.com/golang/status/1"],
			rejects: ["https://x.com/golangx"],
		},
		{
			description: "=x.com matches both hosts exactly",
			pattern: "=x.com",
			matches: ["https://twitter.com/", "https://x.com/"],
			rejects: ["https://mobile.twitter.com/", "https://mobile.x.com/"],
		},
		{
			description: "a post pattern matches the /i/status and /i/web/status forms on both hosts",
			pattern: "x.com/jack/status/20",
			matches: [
				"https://x.com/jack/status/20",
				"https://x.com/i/status/20",
				"https://x.com/i/web/status/20",
				"https://twitter.com/i/web/status/20",
				"https://twitter.com/jack/status/20/photo/1",
				"https://mobile.twitter.com/i/status/20",
			],
			rejects: ["https://x.com/i/status/201", "https://x.com/other/status/20", "https://x.com/i/web/status/2"],
		},
		{
			description: "a pattern naming a photo of a post is matched by its path only",
			pattern: "x.com/jack/status/20/photo/1",
			matches: ["https://x.com/jack/status/20/photo/1", "https://twitter.com/jack/status/20/photo/1"],
			rejects: ["https://x.com/i/status/20", "https://x.com/jack/status/20", "https://x.com/i/status/20/photo/1"],
		},
	];
	for (const row of rows) {
		it(row.description, () => {
			const p = pattern(row.pattern);
			for (const url of row.matches) expect({ url, match: matchesUrl(p, url) }).toEqual({ url, match: true });
			for (const url of row.rejects) expect({ url, match: matchesUrl(p, url) }).toEqual({ url, match: false });
		});
	}

	it("records the post id", () => {
		expect(pattern("twitter.com/jack/status/20").statusId).toBe("20");
		expect(pattern("x.com/i/web/status/7").statusId).toBe("7");
		expect(pattern("x.com/jack/status/20/photo/1").statusId).toBeUndefined();
	});
});

describe("path and URL normalisation", () => {
	const cases: Array<[string, string, boolean]> = [
		["github.com/gol%61ng", "https://github.com/golang/go", true],
		["github.com/golang", "https://github.com/gol%61ng", true],
		["zh.wikipedia.org/wiki/中文", "https://zh.wikipedia.org/wiki/%E4%B8%AD%E6%96%87", true],
		["github.com/golang/", "https://github.com/golang", true],
		["github.com/golang/", "https://github.com/golang-x", false],
		["github.com/", "https://github.com", true],
		["github.com/*", "https://github.com", false],
		["github.com/a%2Fb", "https://github.com/a/b", false],
		["github.com/a%2Fb", "https://github.com/a%2fb/c", true],
		["github.com/a%2A", "https://github.com/a*", true],
		["github.com/a%2A", "https://github.com/ab", false],
		["bücher.de", "https://xn--bcher-kva.de/", true],
		["xn--bcher-kva.de", "https://www.bücher.de/", true],
		["github.com", "https://u:p@GITHUB.COM.:443/x?q=1#f", true],
		["github.com/a", "https://github.com/b?x=/a#/a", false],
		["github.com/a/../b", "https://github.com/b", true],
	];
	for (const [raw, url, expected] of cases) {
		it(`${raw} ${expected ? "matches" : "does not match"} ${url}`, () => {
			expect(matchesUrl(pattern(raw), url)).toBe(expected);
		});
	}

	it("normalises a URL and never keeps its password", () => {
		const result = normalizeUrl("HTTPS://user:secret@Bücher.DE.:443/gol%61ng/?q#f");
		expect(result).toEqual({
			ok: true,
			url: {
				scheme: "https",
				host: "xn--bcher-kva.de",
				port: 443,
				path: ["golang", ""],
				href: "https://xn--bcher-kva.de./gol%61ng/?q#f",
			},
		});
	});

	for (const bad of ["not a url", "ftp://x.com/", "mailto:a@b.com", "file:///etc/passwd", "https://a.1/"]) {
		it(`reports ${JSON.stringify(bad)} as an invalid URL and matches nothing`, () => {
			const result = normalizeUrl(bad);
			expect(result.ok).toBe(false);
			expect(!result.ok && result.error).toMatch(/^invalid URL/);
			expect(matchesUrl(pattern("com"), bad)).toBe(false);
		});
	}
});
