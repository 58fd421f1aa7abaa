// Providers take the site patterns plan() parsed (CallContext.sites) and never parse a domain string themselves:
// every registered search type, on a real loopback backend, sends for a pattern written oddly (upper case, trailing
// dot, an IDN, dot segments, a percent-escape) exactly what it sends for the pattern's canonical spelling, and
// sends what call.sites says even when the request's strings say something else. A static scan keeps the parser's
// entry points out of provider modules other than providers/params/filters.ts, and recency ranges out of them all.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SearchRequest } from "../../engine/request-types.ts";
import { formatSitePattern, parseSitePattern, type RequestSites, requestSites } from "../../engine/sites.ts";
import type { CallContext, ProviderDefinition } from "../../providers/contract.ts";
import { allProviderTypes } from "../../providers/registry.ts";
import { CONTRACT_KEY, fixture } from "../contract/provider-contract.ts";
import { type FakeServer, type RecordedRequest, startFakeServer } from "../helpers/fake-server.ts";
import { wire } from "../helpers/wired.ts";

/** Patterns hand parsers got wrong, each with a canonical spelling that differs from it as text. */
const WEB_DOMAINS = [
	"Docs.EXAMPLE.org.",
	"bücher.example",
	"*.Example.NET",
	"go.dev/./doc/",
	"blog.example.com/%64ocs",
];
const WEB_EXCLUDES = [
	"Spam.Example.COM.",
	"=Exact.example.com",
	"*.ADS.example",
	"Tracker.example:8080",
	"münchen.example",
];
/** All X hosts, so the xAI family plans an x_search: the handles must come out of the parsed paths. */
const X_DOMAINS = ["X.COM/%67olang", "twitter.com./RustLang/"];

function canonical(raw: string): string {
	const parsed = parseSitePattern(raw);
	if (!parsed.ok) throw new Error(parsed.error);
	return formatSitePattern(parsed.pattern);
}

function search(domains: string[], excludeDomains: string[]): SearchRequest {
	return { kind: "search", query: "release notes", domains, excludeDomains, maxResults: 5, includeContent: false };
}

/** What each type needs beyond a base URL and a key to build a request at all. */
const NEEDS: Record<string, Partial<CallContext>> = {
	model: { currentModel: { provider: "openai", id: "gpt-test", api: "openai-responses" } },
};
const GATEWAY = { provider: "gw", model: "m-sites" };

function callFor(definition: ProviderDefinition, server: FakeServer, sites?: RequestSites): CallContext {
	const gateway = definition.required?.includes("provider") ? GATEWAY : {};
	return {
		config: { name: `sites-${definition.type}`, type: definition.type, baseUrl: server.url, options: {}, ...gateway },
		...(definition.needsKey ? { key: CONTRACT_KEY } : {}),
		piAuth: { apiKey: CONTRACT_KEY.secret, baseUrl: server.url },
		signal: new AbortController().signal,
		timeoutMs: 10_000,
		onProgress: () => {},
		...NEEDS[definition.type],
		...(sites ? { sites } : {}),
	};
}

/** The request the backend received (method, path and body: headers may carry signatures and keys). */
async function sent(definition: ProviderDefinition, server: FakeServer, request: SearchRequest, sites?: RequestSites) {
	server.reset();
	// The empty queue answers 500: only the request matters here, so the classified failure is ignored.
	await definition.search!(request, callFor(definition, server, sites)).catch(() => undefined);
	expect(server.requests.length, `${definition.type} sent no request`).toBeGreaterThan(0);
	const { method, path, body }: RecordedRequest = server.requests[0]!;
	return { method, path: decodeURIComponent(path), body: body === "" ? undefined : JSON.parse(body) };
}

describe("providers send what the parsed site patterns say", async () => {
	const types = allProviderTypes().filter((facts) => facts.search);
	const definitions = await Promise.all(types.map((facts) => facts.load()));
	let server: FakeServer;
	beforeAll(async () => {
		server = await startFakeServer();
	});
	afterAll(() => server.close());
	beforeEach(() => server.reset());

	it("covers every search type and uses patterns whose canonical spelling differs", () => {
		expect(definitions.map((d) => d.type)).toEqual(expect.arrayContaining(["exa", "openai", "xai", "doubao"]));
		for (const raw of [...WEB_DOMAINS, ...WEB_EXCLUDES, ...X_DOMAINS]) expect(canonical(raw)).not.toBe(raw);
	});

	for (const [label, domains, excludes] of [
		["web patterns", WEB_DOMAINS, WEB_EXCLUDES],
		["web patterns as exclusions only", [], WEB_EXCLUDES],
		["X account patterns", X_DOMAINS, []],
	] as const) {
		it.each(types.map((t) => t.type))(`%s: ${label} written oddly send the canonical request`, async (type) => {
			const definition = definitions.find((d) => d.type === type)!;
			const expected = await sent(definition, server, search(domains.map(canonical), excludes.map(canonical)));
			const oddly = search([...domains], [...excludes]);
			expect(await sent(definition, server, oddly), "without a plan").toEqual(expected);
			expect(await sent(definition, server, oddly, requestSites(oddly)), "with plan()'s sites").toEqual(expected);
		});

		it.each(types.map((t) => t.type))(`%s: ${label} come from call.sites, not the request's strings`, async (type) => {
			const definition = definitions.find((d) => d.type === type)!;
			const canonicalRequest = search(domains.map(canonical), excludes.map(canonical));
			const expected = await sent(definition, server, canonicalRequest);
			const decoys = search(
				domains.map((_, i) => `decoy${i}.invalid`),
				excludes.map((_, i) => `other${i}.invalid`),
			);
			expect(await sent(definition, server, decoys, requestSites(canonicalRequest))).toEqual(expected);
		});
	}
});

describe("through the real stack (loader, plan(), executor, provider)", () => {
	it("a query's site: operators and odd domains reach the backend once each, canonical", async () => {
		const server = await startFakeServer();
		try {
			server.respond({ body: fixture("exa/search_success.json") });
			const providers = { exa: { type: "exa", baseUrl: server.url, apiKey: "site-test-key-0001" } };
			const wired = wire({ providers, search: ["exa"], policy: { cacheTtlMs: 0 } });
			await wired.search({
				query: "release notes site:Docs.EXAMPLE.org. -site:Spam.Example.COM",
				domains: ["bücher.example", "docs.example.org"],
			});
			expect(JSON.parse(server.requests[0]?.body ?? "{}")).toMatchObject({
				query: "release notes",
				includeDomains: ["xn--bcher-kva.example", "docs.example.org"],
				excludeDomains: ["spam.example.com"],
			});
		} finally {
			await server.close();
		}
	});
});

describe("provider modules never parse site patterns (or recencies) themselves", () => {
	const root = join(import.meta.dirname, "..", "..", "providers");
	const files = readdirSync(root, { recursive: true, encoding: "utf8" })
		.filter((entry) => entry.endsWith(".ts") && !entry.endsWith(".d.ts"))
		.map((entry) => entry.split("\\").join("/"));
	const ONE_FILTER_MODULE = "params/filters.ts";

	it("reaches the parser (parseSitePattern, sitePatterns, requestSites) only in providers/params/filters.ts", () => {
		const reaching = files.filter((file) => {
			const text = readFileSync(join(root, file), "utf8");
			return file !== ONE_FILTER_MODULE && /\b(parseSitePattern|sitePatterns|requestSites)\b/.test(text);
		});
		expect(files).toContain(ONE_FILTER_MODULE);
		expect(reaching).toEqual([]);
	});

	it("reads no request's domains / excludeDomains strings (they arrive parsed in call.sites)", () => {
		const reading = files.filter((file) => {
			const text = readFileSync(join(root, file), "utf8");
			return /\brequest\??\.(domains|excludeDomains)\b|\{[^}]*\b(domains|excludeDomains)\b[^}]*\}\s*=\s*request\b/.test(
				text,
			);
		});
		expect(reading).toEqual([]);
	});

	it("reads a recency's dates only through engine/recency.ts (no provider splits a range itself)", () => {
		const splitting = files.filter((file) => /\.split\(\s*"\.\."\s*\)/.test(readFileSync(join(root, file), "utf8")));
		expect(splitting).toEqual([]);
	});
});
