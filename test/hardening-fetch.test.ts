// The keyless fetcher across redirects: configured headers (X-Api-Key, X-Auth-Token, …) never reach another origin,
// only User-Agent and Accept-Language do; every hop gets the 8,192-character URL cap; the text output names the final
// URL once, shortened, so the untrusted-content wrapper's markers are always whole. Regressions: only
// authorization/cookie/proxy-authorization were stripped, and a 15,000-character Location was followed and printed.

import type { IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchRequest } from "../engine/requests.ts";
import type { FetchResult } from "../engine/result-types.ts";
import type { CallContext } from "../providers/contract.ts";
import { modelText, truncateLines } from "../runtime/format.ts";
import { failureOf, fetchWith, LOOPBACK, redirect, send, startServer, type TestServer } from "./direct-helpers.ts";

let first: TestServer;
let second: TestServer;
beforeAll(async () => {
	[first, second] = await Promise.all([startServer(), startServer()]);
});
afterAll(async () => {
	await Promise.all([first.close(), second.close()]);
});

const HEADERS = {
	"X-Api-Key": "xk-cross-origin-1",
	"X-Auth-Token": "tok-cross-origin-2",
	Authorization: "Bearer cross-origin-3",
	"Accept-Language": "de-CH",
	"User-Agent": "configured-agent/2",
	"X-Custom": "vendor-thing",
};

function withHeaders(headers: Record<string, string>): CallContext {
	return {
		config: { name: "direct", type: "direct", options: {}, headers },
		signal: new AbortController().signal,
		timeoutMs: 20_000,
		onProgress: () => {},
		fetchGuard: LOOPBACK,
	};
}

describe("direct across redirects", () => {
	it("sends every configured header to its own origin, and only User-Agent and Accept-Language to another", async () => {
		const seen: Record<string, IncomingHttpHeaders> = {};
		first.route("/start", (req, res) => {
			seen.first = req.headers;
			redirect(`${second.origin}/landing`)(req, res);
		});
		second.route("/landing", (req, res) => {
			seen.second = req.headers;
			send("landed", { "content-type": "text/plain" })(req, res);
		});
		expect((await fetchWith(`${first.origin}/start`, withHeaders(HEADERS))).content).toBe("landed");
		expect(seen.first).toMatchObject({ "x-api-key": "xk-cross-origin-1", "x-auth-token": "tok-cross-origin-2" });
		expect(seen.second?.["x-api-key"]).toBeUndefined();
		expect(seen.second?.["x-auth-token"]).toBeUndefined();
		expect(seen.second?.authorization).toBeUndefined();
		expect(seen.second?.["x-custom"]).toBeUndefined();
		expect(seen.second?.["accept-language"]).toBe("de-CH");
		expect(seen.second?.["user-agent"]).toBe("configured-agent/2");
	});

	it("refuses a redirect to a URL over 8,192 characters", async () => {
		first.route("/long", redirect(`${second.origin}/${"a".repeat(15_000)}`));
		const error = await failureOf(fetchWith(`${first.origin}/long`));
		expect(error.message).toMatch(/redirect to a URL of 150\d\d characters; at most 8192 are followed/);
		expect(second.hits.filter((hit) => hit.length > 8000)).toEqual([]);
	});
});

describe("a fetched page's text output", () => {
	const url = "https://example.com/start";
	const finalUrl = `https://example.com/${"b".repeat(8100)}`;
	const result: FetchResult = {
		provider: "direct",
		url,
		finalUrl,
		content: "page text ".repeat(300),
		extraction: "verbatim",
		truncated: false,
		warnings: [],
		attempts: [],
		latencyMs: 5,
	};

	it("names a long final URL once, shortened, and keeps both wrapper markers within the window", () => {
		const request = fetchRequest({ url });
		const { text } = modelText(result, request, { maxChars: 2000, truncate: truncateLines });
		expect(text.length).toBeLessThanOrEqual(2000);
		expect(text).toContain("<<<BEGIN UNTRUSTED WEB CONTENT from https://example.com/bbb");
		expect(text).toContain("<<<END UNTRUSTED WEB CONTENT>>>");
		expect(text.match(/https:\/\/example\.com\/b/g)).toHaveLength(1);
		expect(text).not.toContain("b".repeat(400));
		expect(text).toContain("page text");
	});
});
