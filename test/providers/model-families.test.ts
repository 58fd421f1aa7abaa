// The model-mediated families' shared pieces: searchWithFamily / fetchWithFamily for the `model` type (explicit
// model id, call base URL), site patterns → tool hosts, X handle planning, citation snippets and dates.

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recencyBounds } from "../../engine/recency.ts";
import type { SearchRequest } from "../../engine/request-types.ts";
import {
	type NormalizedUrl,
	normalizeUrl,
	parseSitePattern,
	requestSites,
	type SitePattern,
} from "../../engine/sites.ts";
import type { CallContext } from "../../providers/contract.ts";
import { calendarDate, cleanUrl, sentenceBefore } from "../../providers/families/citations.ts";
import { isXHost, planXSearch, xHandle } from "../../providers/families/grok-family.ts";
import { fetchWithFamily, MODEL_FAMILIES, searchWithFamily } from "../../providers/model/family-table.ts";
import { allowedHosts, blockedHosts, toolHost } from "../../providers/params/filters.ts";
import { CONTRACT_KEY, fixture, fixtureJson } from "../contract/provider-contract.ts";
import { type FakeServer, startFakeServer } from "../helpers/fake-server.ts";
import { messagesSse } from "../helpers/model-sse.ts";

function search(query: string, extra: Partial<SearchRequest> = {}): SearchRequest {
	return { kind: "search", query, domains: [], excludeDomains: [], maxResults: 5, includeContent: false, ...extra };
}

/** The search's site filters parsed as plan() parses them. */
const plan = (query: string, extra: Partial<SearchRequest> = {}) => requestSites(search(query, extra));

/** The pattern as plan() hands it to providers (CallContext.sites). */
function site(raw: string): SitePattern {
	const parsed = parseSitePattern(raw);
	if (!parsed.ok) throw new Error(parsed.error);
	return parsed.pattern;
}
const sites = (raws: string[]) => raws.map(site);

/** The tool host of a pattern as written; undefined when it does not parse (plan() leaves such entries out). */
function patternHost(raw: string): string | undefined {
	const parsed = parseSitePattern(raw);
	return parsed.ok ? toolHost(parsed.pattern) : undefined;
}

function url(text: string): NormalizedUrl {
	const normalized = normalizeUrl(text);
	if (!normalized.ok) throw new Error(normalized.error);
	return normalized.url;
}

describe("searchWithFamily / fetchWithFamily", () => {
	let server: FakeServer;
	beforeAll(async () => {
		server = await startFakeServer();
	});
	afterAll(() => server.close());

	function callFor(piBase: string): CallContext {
		return {
			config: { name: "model", type: "model", model: "ignored-config-model", options: {} },
			key: CONTRACT_KEY,
			piAuth: { baseUrl: piBase },
			currentModel: { provider: "p", id: "m", api: "openai-responses" },
			signal: new AbortController().signal,
			timeoutMs: 30_000,
			onProgress: () => {},
		};
	}

	it("openai: sends the given model to <pi base>/responses", async () => {
		server.reset();
		server.respond({ sse: fixture("openai/stream.sse") });
		const r = await searchWithFamily("openai", search("example-cli"), callFor(`${server.url}/v1`), "gpt-6-luna");
		expect(server.requests[0]?.path).toBe("/v1/responses");
		expect(JSON.parse(server.requests[0]?.body ?? "{}").model).toBe("gpt-6-luna");
		expect(r.results).toHaveLength(2);
	});

	it("anthropic: fetches verbatim through <root>/v1/messages with the given model", async () => {
		server.reset();
		server.respond({
			sse: messagesSse(fixtureJson("anthropic/response_web_fetch_success.json") as Record<string, unknown>),
		});
		const request = {
			kind: "fetch" as const,
			url: "https://docs.example.org/server/ports",
			offset: 0,
			maxChars: 20_000,
		};
		const r = await fetchWithFamily("anthropic", request, callFor(server.url), "claude-opus-5-5");
		expect(server.requests[0]?.path).toBe("/v1/messages");
		expect(JSON.parse(server.requests[0]?.body ?? "{}").model).toBe("claude-opus-5-5");
		expect(r.extraction).toBe("verbatim");
	});

	it("xai: searches X with the given model and reports cost", async () => {
		server.reset();
		server.respond({ sse: fixture("xai/stream.sse") });
		const r = await searchWithFamily(
			"xai",
			search("q", { domains: ["x.com"] }),
			callFor(`${server.url}/v1`),
			"grok-4.7",
		);
		expect(JSON.parse(server.requests[0]?.body ?? "{}").model).toBe("grok-4.7");
		expect(r.costUsd).toBeCloseTo(0.019725, 12);
	});

	it("each family says how its fetch text is produced", () => {
		expect(MODEL_FAMILIES.openai.extraction).toBe("model");
		expect(MODEL_FAMILIES.anthropic.extraction).toBe("verbatim");
		expect(MODEL_FAMILIES.xai.extraction).toBe("model");
	});
});

describe("site patterns for search tools", () => {
	it("reduces patterns to plain hosts and refuses forms no tool takes", () => {
		expect(patternHost("Docs.Example.org")).toBe("docs.example.org");
		expect(patternHost("go.dev/doc")).toBe("go.dev");
		expect(patternHost("=pkg.go.dev")).toBe("pkg.go.dev");
		expect(patternHost("*.github.io")).toBe("github.io");
		expect(patternHost(".com.cn")).toBe("com.cn");
		expect(patternHost("localhost:8080")).toBeUndefined();
		expect(patternHost("example.com:8443")).toBe("example.com");
		for (const pattern of [".cn", "google.*", "127.0.0.1", "[::1]", ""]) expect(patternHost(pattern)).toBeUndefined();
	});

	it("an allow-list is all or nothing; a block-list keeps only whole hosts", () => {
		expect(allowedHosts(sites(["a.example", "a.example/x", "b.example"]), 5)).toEqual(["a.example", "b.example"]);
		expect(allowedHosts(sites(["a.example", ".cn"]), 5)).toBeUndefined();
		expect(allowedHosts(sites(["a.example", "b.example"]), 1)).toBeUndefined();
		expect(blockedHosts(sites(["a.example", "b.example/path", "google.*"]), 5)).toEqual(["a.example"]);
		expect(blockedHosts([], 5)).toBeUndefined();
	});

	it("patternHost never throws and returns only dotted lower-case hosts (property)", () => {
		fc.assert(
			fc.property(fc.string(), (pattern) => {
				const host = patternHost(pattern);
				return host === undefined || /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host);
			}),
		);
	});
});

describe("X planning", () => {
	it("recognises X hosts and account paths", () => {
		expect(isXHost("x.com") && isXHost("mobile.twitter.com")).toBe(true);
		expect(isXHost("box.com") || isXHost("x.com.evil.net")).toBe(false);
		expect(xHandle(site("x.com/GoLang"))).toBe("golang");
		expect(xHandle(url("https://x.com/golang/status/1"))).toBe("golang");
		expect(xHandle(site("x.com/i/status/1"))).toBeUndefined();
		expect(xHandle(site("x.com"))).toBeUndefined();
	});

	it("plans x_search only when every domain is an X host", () => {
		expect(planXSearch(plan("q"))).toBeUndefined();
		expect(planXSearch(plan("q", { domains: ["x.com/a", "github.com"] }))).toBeUndefined();
		expect(planXSearch(plan("q", { domains: ["x.com/a", "twitter.com/b"] }))).toEqual({
			handles: ["a", "b"],
			excluded: [],
		});
		expect(planXSearch(plan("q", { domains: ["x.com/a", "x.com"], excludeDomains: ["x.com/c"] }))).toEqual({
			handles: [],
			excluded: ["c"],
		});
		const many = Array.from({ length: 11 }, (_, i) => `x.com/user${i}`);
		expect(planXSearch(plan("q", { domains: many }))?.handles).toEqual([]);
	});
});

describe("citations and dates", () => {
	it("takes the sentence a citation supports, without links", () => {
		const text = "First point. The [docs](https://a.example) say port 8443 ([a.example](https://a.example/p)).";
		expect(sentenceBefore(text, text.indexOf("([a.example]") + 1)).toBe("The docs say port 8443");
	});

	it("removes tracking parameters and fragments", () => {
		expect(cleanUrl("https://a.example/p?utm_source=openai&id=2#top")).toBe("https://a.example/p?id=2");
		expect(cleanUrl("not a url")).toBe("not a url");
	});

	it("reads full dates, ignores relative ages", () => {
		expect(calendarDate("March 2, 2026")).toBe("2026-03-02");
		expect(calendarDate("2026-03-02T10:00:00Z")).toBe("2026-03-02");
		expect(calendarDate("3 weeks ago")).toBeUndefined();
		expect(calendarDate(null)).toBeUndefined();
	});

	it("turns recency into a from date, a range into from and to", () => {
		const now = new Date("2026-05-10T12:00:00Z");
		expect(recencyBounds("day", now.getTime())).toEqual({ from: "2026-05-09" });
		expect(recencyBounds("year", now.getTime())).toEqual({ from: "2025-05-10" });
		expect(recencyBounds("2026-01-01..2026-01-31", now.getTime())).toEqual({ from: "2026-01-01", to: "2026-01-31" });
	});
});
