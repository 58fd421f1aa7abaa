// Result post-processing on a messy provider answer (test/fixtures/executor/search-raw.json): URL normalisation,
// duplicates, domain and exclusion filters, client-side recency, cuts, maxResults; and fetch windows.

import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FetchRequest, SearchRequest } from "../engine/request-types.ts";
import { cutText, normalizeResultUrl, processSearch, windowFetch } from "../executor/results.ts";
import type { NativeFilters, ProviderFetchResult, ProviderSearchResult } from "../providers/contract.ts";
import { ALL_NATIVE } from "./helpers/fake-providers.ts";

const RAW = JSON.parse(
	readFileSync(new URL("./fixtures/executor/search-raw.json", import.meta.url), "utf8"),
) as ProviderSearchResult;
const NOW = Date.parse("2025-06-02T12:00:00Z");

function request(extra: Partial<SearchRequest> = {}): SearchRequest {
	return {
		kind: "search",
		query: "go generics",
		domains: [],
		excludeDomains: [],
		maxResults: 20,
		includeContent: false,
		...extra,
	};
}

const ALL_URLS = [
	"https://go.dev/doc/tutorial/generics",
	"https://github.com/golang/go/issues/43651?tab=comments",
	"https://github.com/golang-migrate/migrate",
	"https://blog.golang.org/why-generics?q=a%20b",
	"https://www.zhihu.com/question/1",
	"https://go.dev/blog/intro-generics",
	"https://twitter.com/golang/status/1",
];

describe("processSearch on the fixture", () => {
	const table: Array<{
		description: string;
		request: Partial<SearchRequest>;
		native?: Partial<NativeFilters>;
		urls: string[];
		warnings: string[];
	}> = [
		{
			description: "normalises URLs, drops duplicates and invalid URLs",
			request: {},
			urls: ALL_URLS,
			warnings: ["dropped 2 results without a valid http(s) URL"],
		},
		{
			description: "keeps only results inside domains",
			request: { domains: ["go.dev"] },
			urls: ["https://go.dev/doc/tutorial/generics", "https://go.dev/blog/intro-generics"],
			warnings: ["dropped 2 results without a valid http(s) URL", "removed 5 results outside domains"],
		},
		{
			description: "matches a path domain on segment boundaries",
			request: { domains: ["github.com/golang"] },
			urls: ["https://github.com/golang/go/issues/43651?tab=comments"],
			warnings: ["dropped 2 results without a valid http(s) URL", "removed 6 results outside domains"],
		},
		{
			description: "treats x.com and twitter.com as one site",
			request: { domains: ["x.com"] },
			urls: ["https://twitter.com/golang/status/1"],
			warnings: ["dropped 2 results without a valid http(s) URL", "removed 6 results outside domains"],
		},
		{
			description: "removes results inside excludeDomains",
			request: { excludeDomains: ["github.com", "zhihu.com"] },
			urls: ALL_URLS.filter((u) => !u.includes("github.com") && !u.includes("zhihu")),
			warnings: ["dropped 2 results without a valid http(s) URL", "removed 3 results in excludeDomains"],
		},
		{
			description: "applies a named recency by publishedAt when the backend cannot, keeping undated results",
			request: { recency: "week" },
			native: { recency: false },
			urls: [
				"https://go.dev/doc/tutorial/generics",
				"https://github.com/golang-migrate/migrate",
				"https://www.zhihu.com/question/1",
				"https://go.dev/blog/intro-generics",
			],
			warnings: [
				"dropped 2 results without a valid http(s) URL",
				"recency applied to the results by publishedAt (the backend cannot filter by date): removed 3; 1 undated result kept",
			],
		},
		{
			description: "leaves recency to a backend that applies it",
			request: { recency: "week" },
			urls: ALL_URLS,
			warnings: ["dropped 2 results without a valid http(s) URL"],
		},
		{
			description: "applies a date range when the backend has no date ranges",
			request: { recency: "2021-01-01..2021-12-31" },
			native: { dateRange: false },
			urls: ["https://github.com/golang/go/issues/43651?tab=comments", "https://go.dev/blog/intro-generics"],
			warnings: [
				"dropped 2 results without a valid http(s) URL",
				"recency applied to the results by publishedAt (the backend cannot filter by date): removed 5; 1 undated result kept",
			],
		},
		{
			description: "returns at most maxResults, after filtering",
			request: { maxResults: 2, excludeDomains: ["go.dev"] },
			urls: ALL_URLS.filter((u) => !u.includes("go.dev")).slice(0, 2),
			warnings: ["dropped 2 results without a valid http(s) URL", "removed 2 results in excludeDomains"],
		},
	];
	it.each(table)("$description", ({ request: extra, native, urls, warnings }) => {
		const out = processSearch(RAW, request(extra), { ...ALL_NATIVE, ...native }, NOW);
		expect(out.results.map((r) => r.url)).toEqual(urls);
		expect(out.warnings).toEqual(warnings);
	});

	it("keeps the first of two duplicates with its own title", () => {
		const out = processSearch(RAW, request(), ALL_NATIVE, NOW);
		expect(out.results[0]?.title).toBe("Tutorial");
	});
});

describe("cuts", () => {
	const long = { title: "t", url: "https://a.example/", snippet: "s".repeat(600), content: "c".repeat(5000) };

	it("cuts snippets at 500 and content at 4,000 characters with a marker and a web_fetch hint", () => {
		const out = processSearch({ results: [long] }, request({ includeContent: true }), ALL_NATIVE, NOW);
		expect(out.results[0]?.snippet).toBe(`${"s".repeat(500)} […]`);
		expect(out.results[0]?.content).toBe(`${"c".repeat(4000)} […]`);
		expect(out.warnings).toHaveLength(1);
		expect(out.warnings[0]).toContain("use web_fetch for the full page");
	});

	it("drops content unless includeContent is set", () => {
		const out = processSearch({ results: [long] }, request(), ALL_NATIVE, NOW);
		expect(out.results[0]).not.toHaveProperty("content");
		expect(out.warnings[0]).toMatch(/^cut 1 snippet or excerpt /);
	});

	it("never cuts inside a surrogate pair", () => {
		const text = `${"a".repeat(499)}😀tail`;
		expect(cutText(text, 500).text).toBe(`${"a".repeat(499)} […]`);
		expect(cutText("short", 500)).toEqual({ text: "short", cut: false });
	});
});

describe("normalizeResultUrl", () => {
	it.each([
		["HTTPS://Example.COM/Path?utm_source=x#frag", "https://example.com/Path"],
		["https://a.example/?b=1&utm_medium=2&fbclid=3&gclid=4&c=%20", "https://a.example/?b=1&c=%20"],
		["https://a.example/?q=a+b", "https://a.example/?q=a+b"],
		["mailto:someone@example.com", undefined],
		["", undefined],
	])("%s → %s", (input, expected) => {
		expect(normalizeResultUrl(input)).toBe(expected);
	});

	it("is idempotent and leaves no fragment or tracking parameter", () => {
		const param = fc.constantFrom("utm_source", "UTM_x", "fbclid", "gclid", "q", "page", "ref");
		const arb = fc
			.tuple(fc.webUrl({ withFragments: true }), fc.array(fc.tuple(param, fc.webSegment()), { maxLength: 4 }))
			.map(([url, params]) => {
				const sep = url.includes("?") ? "&" : "?";
				return params.length === 0 ? url : `${url}${sep}${params.map(([k, v]) => `${k}=${v}`).join("&")}`;
			});
		fc.assert(
			fc.property(arb, (url) => {
				const once = normalizeResultUrl(url);
				if (once === undefined) return true;
				expect(normalizeResultUrl(once)).toBe(once);
				expect(once).not.toContain("#");
				expect(/[?&](utm_[^=&]*|fbclid|gclid)=/i.test(once)).toBe(false);
				return true;
			}),
		);
	});

	it("answers like the WHATWG parser for URLs it takes without parsing", () => {
		// The slow oracle for a URL without a query: parse, keep http(s) only, drop the fragment.
		const parsed = (raw: string): string | undefined => {
			try {
				const url = new URL(raw.trim());
				if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
				url.hash = "";
				return url.href;
			} catch {
				return undefined;
			}
		};
		const piece = fc.constantFrom(
			..."aZ09-._~!$&'()*+,;=:@/%^|`{}[]\\ \t\"<>é".split(""),
			...["%2e", "%2E", "%41", "%zz", ".", "..", "xn--", "xn--a", "0x1", "1", "A", "//", ":443", "@", "?", "#"],
		);
		const text = (maxLength: number) => fc.array(piece, { maxLength }).map((parts) => parts.join(""));
		const host = fc.oneof(
			fc.domain(),
			fc
				.array(fc.oneof(fc.stringMatching(/^[a-z0-9-]{0,6}$/), fc.constantFrom("xn--a", "xn--ls8h", "0x1f", "08")), {
					minLength: 1,
					maxLength: 4,
				})
				.map((labels) => labels.join(".")),
			text(6),
		);
		const arb = fc.oneof(
			fc.webUrl({ withQueryParameters: false, withFragments: false }),
			fc
				.tuple(fc.constantFrom("http://", "https://", "HTTP://", "ftp://", "https:/"), host, text(12))
				.map(([scheme, name, path]) => `${scheme}${name}/${path}`),
		);
		fc.assert(
			fc.property(arb, (url) => {
				if (url.includes("?")) return true;
				expect(normalizeResultUrl(url)).toBe(parsed(url));
				return true;
			}),
			{ numRuns: 5000 },
		);
	});
});

describe("windowFetch", () => {
	const text = "0123456789".repeat(5000); // 50,000 characters
	const raw: ProviderFetchResult = { content: text, extraction: "verbatim" };
	const fetchRequest = (offset: number, maxChars: number): FetchRequest => ({
		kind: "fetch",
		url: "https://a.example/",
		offset,
		maxChars,
	});

	it.each([
		{
			description: "default window",
			offset: 0,
			maxChars: 20_000,
			expected: { length: 20_000, truncated: true, nextOffset: 20_000 },
		},
		{
			description: "last window",
			offset: 45_000,
			maxChars: 20_000,
			expected: { length: 5000, truncated: false, nextOffset: undefined },
		},
		{
			description: "maxChars raised to 1,000",
			offset: 0,
			maxChars: 10,
			expected: { length: 1000, truncated: true, nextOffset: 1000 },
		},
		{
			description: "maxChars capped at 100,000",
			offset: 0,
			maxChars: 1e6,
			expected: { length: 50_000, truncated: false, nextOffset: undefined },
		},
	])("$description", ({ offset, maxChars, expected }) => {
		const out = windowFetch(raw, fetchRequest(offset, maxChars));
		expect({ length: out.content.length, truncated: out.truncated, nextOffset: out.nextOffset }).toEqual(expected);
		expect(out.content).toBe(text.slice(offset, offset + expected.length));
		expect(out.totalChars).toBe(50_000);
	});

	it("says so when the offset is past the end", () => {
		const out = windowFetch(raw, fetchRequest(60_000, 1000));
		expect(out.content).toBe("");
		expect(out.truncated).toBe(false);
		expect(out.warnings).toEqual(["offset 60000 is past the end of the text (50000 characters)"]);
	});

	it("keeps a window the provider paged itself", () => {
		const paged: ProviderFetchResult = {
			content: "lines 200-400",
			extraction: "verbatim",
			window: { truncated: true, nextOffset: 400 },
		};
		const out = windowFetch(paged, fetchRequest(200, 1000));
		expect(out).toEqual({ content: "lines 200-400", truncated: true, nextOffset: 400, warnings: [] });
	});

	it("warns when a model wrote the text", () => {
		const out = windowFetch({ content: "summary", extraction: "model" }, fetchRequest(0, 20_000));
		expect(out.warnings[0]).toMatch(/^extraction: model/);
	});

	it("pages through any text without losing or repeating a character", () => {
		fc.assert(
			fc.property(
				fc.string({ unit: "grapheme", maxLength: 3000 }),
				fc.integer({ min: 1000, max: 1500 }),
				(content, maxChars) => {
					let offset = 0;
					let joined = "";
					for (let guard = 0; guard < 100; guard++) {
						const out = windowFetch({ content, extraction: "verbatim" }, fetchRequest(offset, maxChars));
						joined += out.content;
						if (!out.truncated) break;
						offset = out.nextOffset!;
					}
					return joined === content;
				},
			),
		);
	});
});
