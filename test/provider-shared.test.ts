// The small shared pieces of the provider layer: parsed site patterns turned into backend filters, recency windows,
// dates as YYYY-MM-DD, URL joining, header precedence and typed option getters.

import { describe, expect, it } from "vitest";
import { recencyWindow } from "../engine/recency.ts";
import { parseSitePattern, type SitePattern } from "../engine/sites.ts";
import type { CallContext } from "../providers/contract.ts";
import { joinUrl, requestHeaders, resolveBaseUrl } from "../providers/http/call.ts";
import { isoDate } from "../providers/http/json.ts";
import { excludeFilters, includeFilters, siteFilter } from "../providers/params/filters.ts";
import { enumOption, numberOption, stringArrayOption, stringOption } from "../providers/params/options.ts";

const call = (over: Partial<CallContext["config"]>, piAuth?: CallContext["piAuth"]): CallContext => ({
	config: { name: "p", type: "t", options: {}, ...over },
	piAuth,
	signal: new AbortController().signal,
	timeoutMs: 1000,
	onProgress: () => {},
});

/** The pattern as plan() hands it to providers (CallContext.sites). */
function site(raw: string): SitePattern {
	const parsed = parseSitePattern(raw);
	if (!parsed.ok) throw new Error(parsed.error);
	return parsed.pattern;
}
const sites = (raws: string[]) => raws.map(site);

describe("siteFilter", () => {
	it.each([
		["github.com", { paths: true }, { value: "github.com", widened: false }],
		[".cn", { paths: true }, { value: "cn", widened: false }],
		["=docs.python.org", { paths: true }, { value: "docs.python.org", widened: true }],
		["*.github.io", { paths: true }, { value: "github.io", widened: true }],
		["*.github.io", { paths: true, subdomainWildcard: true }, { value: "*.github.io", widened: false }],
		["github.com/golang/", { paths: true }, { value: "github.com/golang", widened: false }],
		["github.com/golang", { paths: false }, { value: "github.com", widened: true }],
		["github.com/*/*/issues", { paths: true }, { value: "github.com", widened: true }],
		["localhost:8080", { paths: true }, { value: "localhost", widened: true }],
		["[::1]", { paths: true }, { value: "[::1]", widened: false }],
		["google.*", { paths: true }, { widened: true }],
	])("maps %s", (pattern, support, expected) => {
		expect(siteFilter(site(pattern), support)).toEqual(expected);
	});

	it("sends all includes or none, and only exact excludes", () => {
		expect(includeFilters(sites(["a.org", "=a.org", "b.org/x"]), { paths: false })).toEqual({
			values: ["a.org", "b.org"],
			widened: ["=a.org", "b.org/x"],
		});
		expect(includeFilters(sites(["a.org", "google.*"]), { paths: true })).toEqual({
			values: [],
			widened: ["a.org", "google.*"],
		});
		expect(excludeFilters(sites(["a.org", "b.org/x", "=c.org"]), { paths: false })).toEqual({
			values: ["a.org"],
			dropped: ["b.org/x", "=c.org"],
		});
	});
});

describe("recencyWindow", () => {
	const now = new Date("2026-03-31T12:00:00.000Z");
	it.each([
		["day", { named: "day", since: "2026-03-30T12:00:00.000Z", from: "2026-03-30" }],
		["week", { named: "week", since: "2026-03-24T12:00:00.000Z", from: "2026-03-24" }],
		["month", { named: "month", since: "2026-03-01T12:00:00.000Z", from: "2026-03-01" }],
		["year", { named: "year", since: "2025-03-31T12:00:00.000Z", from: "2025-03-31" }],
		["2025-01-01..2025-02-01", { from: "2025-01-01", to: "2025-02-01" }],
		["2025-01-01..", { from: "2025-01-01" }],
		["..2025-02-01", { to: "2025-02-01" }],
	] as const)("reads %s", (recency, expected) => {
		expect(recencyWindow(recency, now)).toEqual(expected);
	});
});

describe("family helpers", () => {
	it("writes dates as the day written, whatever the zone of this machine", () => {
		expect(isoDate("2025-06-12T00:00:00.000Z")).toBe("2025-06-12");
		expect(isoDate("Wed, 04 Mar 2026 16:10:00 GMT")).toBe("2026-03-04");
		expect(isoDate("Tue, 03 Mar 2026 23:30:00 -0500")).toBe("2026-03-03");
		expect(isoDate("Dec 1, 2025")).toBe("2025-12-01");
		expect(isoDate("2 days ago")).toBeUndefined();
		expect(isoDate(42)).toBeUndefined();
	});

	it("joins URLs with one slash and an ordered query without undefined values", () => {
		expect(joinUrl("https://a.org/", "/search")).toBe("https://a.org/search");
		expect(joinUrl("https://a.org/v1", "x", { q: "a b", n: 3, skip: undefined, t: false })).toBe(
			"https://a.org/v1/x?q=a+b&n=3&t=false",
		);
	});

	it("takes config baseUrl over pi's over the default, and config headers over pi's over the provider's", () => {
		expect(resolveBaseUrl(call({ baseUrl: "https://c.org/" }, { baseUrl: "https://pi.org" }), "https://d.org")).toBe(
			"https://c.org",
		);
		expect(resolveBaseUrl(call({}, { baseUrl: "https://pi.org" }), "https://d.org")).toBe("https://pi.org");
		expect(resolveBaseUrl(call({}), "https://d.org")).toBe("https://d.org");
		const headers = requestHeaders(call({ headers: { "X-A": "config" } }, { headers: { "x-a": "pi", "x-b": "pi" } }), {
			"x-a": "own",
			"x-c": "own",
			"x-none": undefined,
		});
		expect(headers).toEqual({ "x-a": "config", "x-b": "pi", "x-c": "own" });
	});

	it("reads options of the wrong type as absent", () => {
		const options = { s: "x", e: "b", n: 3, bad: 4, list: ["a"], mixed: ["a", 1], empty: "" };
		expect(stringOption(options, "s")).toBe("x");
		expect(stringOption(options, "bad")).toBeUndefined();
		expect(stringOption(options, "empty")).toBeUndefined();
		expect(numberOption(options, "s")).toBeUndefined();
		expect(numberOption(options, "n")).toBe(3);
		expect(enumOption(options, "e", ["a", "b"])).toBe("b");
		expect(enumOption(options, "s", ["a", "b"])).toBeUndefined();
		expect(stringArrayOption(options, "list")).toEqual(["a"]);
		expect(stringArrayOption(options, "mixed")).toBeUndefined();
	});
});
