// Filters and de-duplication come before the cut to maxResults, for every provider: a backend that cannot filter
// is asked for 3× the results (within its maximum), and whatever it answers, the caller gets the first maxResults
// of filter(dedupe(answer)), in order.

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchRequest } from "../engine/requests.ts";
import type { SearchResultItem } from "../engine/result-types.ts";
import type { NativeFilters } from "../providers/contract.ts";
import { noNativeFilters, RESULT_OVERSAMPLE, resultCount } from "../providers/params/filters.ts";
import { createFakeClock } from "./helpers/fake-clock.ts";
import { ALL_NATIVE, createWorld, searchPlan } from "./helpers/fake-providers.ts";
import { type FaultServer, startFaultServer } from "./helpers/fault-server.ts";
import { wire } from "./helpers/wired.ts";

/** The slow oracle: first sighting of each URL without fragment and tracking parameters, host lower-cased. */
function dedupe(items: readonly SearchResultItem[]): string[] {
	const seen: string[] = [];
	for (const item of items) {
		const url = new URL(item.url);
		url.hash = "";
		const kept = [...url.searchParams.keys()].filter((name) => !/^utm_/i.test(name));
		url.search = kept.length === 0 ? "" : `?${kept.map((k) => `${k}=${url.searchParams.get(k)}`).join("&")}`;
		if (!seen.includes(url.href)) seen.push(url.href);
	}
	return seen;
}

const under = (url: string, site: string) => {
	const host = new URL(url).hostname;
	return host === site || host.endsWith(`.${site}`);
};

describe("filter and de-duplication before the cut", () => {
	const HOSTS = ["go.dev", "blog.go.dev", "GO.dev", "example.com", "spam.example.com", "other.org"];
	const item = fc.record({
		host: fc.constantFrom(...HOSTS),
		path: fc.constantFrom("/a", "/b", "/c", "/d"),
		utm: fc.boolean(),
		fragment: fc.boolean(),
	});
	const nativeFlags = fc.record({ hosts: fc.boolean(), excludeHosts: fc.boolean() });

	it("returns the first maxResults of filter(dedupe(answer)), in order, for any backend answer", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(item, { maxLength: 40 }),
				fc.integer({ min: 1, max: 20 }),
				fc.subarray(["go.dev", "example.com"]),
				fc.subarray(["spam.example.com", "blog.go.dev"]),
				nativeFlags,
				async (answer, maxResults, domains, excludeDomains, flags) => {
					const items: SearchResultItem[] = answer.map((a, i) => ({
						title: `t${i}`,
						url: `https://${a.host}${a.path}${a.utm ? "?utm_source=x" : ""}${a.fragment ? "#top" : ""}`,
						snippet: "",
					}));
					const clock = createFakeClock();
					const world = createWorld(clock);
					world.add("p", async () => ({ results: items }), { native: { ...flags, paths: false } });
					const plan = searchPlan(["p"], { cacheTtlMs: 0, onEmpty: "stop" }, { maxResults, domains, excludeDomains });
					const result = await clock.run(world.executor().search(plan));
					const expected = dedupe(items)
						.filter((url) => domains.length === 0 || domains.some((d) => under(url, d)))
						.filter((url) => !excludeDomains.some((d) => under(url, d)))
						.slice(0, maxResults);
					expect(result.results.map((r) => r.url)).toEqual(expected);
				},
			),
			{ numRuns: 300 },
		);
	});

	it("asks a backend for 3× maxResults, within its maximum, exactly when filters are applied afterwards", () => {
		const none = noNativeFilters(20);
		const hostsOnly: NativeFilters = { ...ALL_NATIVE, paths: false, excludePaths: false, maxResults: 50 };
		const request = (input: Parameters<typeof searchRequest>[0]) => searchRequest(input);
		expect(resultCount(request({ query: "q" }), none)).toBe(5);
		expect(resultCount(request({ query: "q", domains: ["go.dev"] }), none)).toBe(5 * RESULT_OVERSAMPLE);
		expect(resultCount(request({ query: "q", domains: ["go.dev"], maxResults: 10 }), none)).toBe(20);
		expect(resultCount(request({ query: "q", domains: ["go.dev"] }), hostsOnly)).toBe(5);
		expect(resultCount(request({ query: "q", domains: ["go.dev/doc"] }), hostsOnly)).toBe(15);
		expect(resultCount(request({ query: "q", excludeDomains: ["x.org/a"] }), hostsOnly)).toBe(15);
		expect(resultCount(request({ query: "q", recency: "week" }), none)).toBe(15);
		expect(resultCount(request({ query: "q", recency: "week" }), ALL_NATIVE)).toBe(5);
	});
});

describe("SearXNG with site:go.dev (the whole page reaches the filter)", () => {
	let server: FaultServer;
	beforeAll(async () => {
		server = await startFaultServer();
	});
	afterAll(async () => {
		await server.close();
	});

	it("finds the backend's 9th result on go.dev with maxResults 5, and a utm_ duplicate does not cost a slot", async () => {
		const results = [
			...Array.from({ length: 8 }, (_, i) => ({ url: `https://elsewhere.example/${i}`, title: `e${i}`, content: "" })),
			{ url: "https://go.dev/doc/?utm_source=feed", title: "go.dev docs", content: "" },
			{ url: "https://go.dev/doc/", title: "go.dev docs again", content: "" },
			{ url: "https://go.dev/blog/", title: "go.dev blog", content: "" },
		];
		server.reply({
			kind: "answer",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ query: "generics", results, answers: [], unresponsive_engines: [] }),
		});
		const wired = wire({ providers: { sx: { type: "searxng", baseUrl: server.url } }, search: ["sx"] });
		const result = await wired.search({ query: "generics site:go.dev", maxResults: 5 });
		expect(result.results.map((r) => r.url)).toEqual(["https://go.dev/doc/", "https://go.dev/blog/"]);
	});
});
