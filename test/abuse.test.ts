// Argument abuse: web_search / web_fetch through the real tools' execute (fake ctx, loopback Exa) and through
// searchRequest / fetchRequest, the CLI and /web-access explain, with empty, 1 MB, control-character, RTL/emoji,
// javascript:/file:/data:, userinfo and zone-id URLs, 10,000 domains, wrong types and bad offsets. Each either
// answers cleanly or fails with an Error that says what is wrong and how to fix it — never a crash or a hang.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { Value } from "typebox/value";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import { type FetchInput, fetchRequest, RequestError, type SearchInput, searchRequest } from "../engine/requests.ts";
import { handleCommand } from "../extension/command.ts";
import { createHost, type Host } from "../extension/host.ts";
import { failureOutput } from "../extension/schemas.ts";
import { COMMAND_HELP, createWebFetchTool, createWebSearchTool } from "../pi-web-access/index.ts";
import { truncateLines } from "../runtime/format.ts";
import { type EchoServer, startEchoServer } from "./helpers/echo-server.ts";

/** A case: the arguments, and what must happen (the error's message, or "ok" for a clean result). */
type Case = [name: string, params: Record<string, unknown>, expected: RegExp | "ok"];

const MB = 1 << 20;
const HANG_MS = 20_000;
const URL_OK = "https://docs.example.org/guides/isr-cache";

const SEARCH_CASES: Case[] = [
	["no query at all", {}, /query is empty: say what to search for/],
	["empty query", { query: "" }, /query is empty/],
	["blank query", { query: " \t\n " }, /query is empty/],
	["1 MB query", { query: "q".repeat(MB) }, /query is 1048576 characters; keep it under 2000/],
	["NUL in query", { query: "a\u0000b" }, /query contains control characters; remove them/],
	["escape sequences in query", { query: "\u001b[31mred\u001b[0m" }, /control characters/],
	["RTL override and emoji", { query: "\u202eevil\u202c 🦀 عربى עברית" }, "ok"],
	["zero-width joiners", { query: "👩‍👩‍👧 family\u200d" }, "ok"],
	["only site operators", { query: "site:go.dev" }, "ok"],
	["number as query", { query: 42 }, /query must be text, got a number/],
	["object as query", { query: { text: "q" } }, /query must be text, got an object/],
	[
		"10,000 domains",
		{ query: "q", domains: Array.from({ length: 10_000 }, (_, i) => `d${i}.com`) },
		/domains has 10000 entries; at most 200/,
	],
	["10,000 exclusions", { query: "q", excludeDomains: Array(10_000).fill("a.com") }, /excludeDomains has 10000/],
	[
		"javascript: domain",
		{ query: "q", domains: ["javascript:alert(1)"] },
		/domains entry "javascript:alert\(1\)" is not a site pattern/,
	],
	["1 MB domain", { query: "q", domains: [`${"a".repeat(MB)}.com`] }, "ok"],
	["domains as a string", { query: "q", domains: "github.com" }, /domains must be a list of site patterns .*got text/],
	[
		"domains of numbers",
		{ query: "q", domains: [1, 2] },
		/domains must be a list of site patterns .*got a list with a number/,
	],
	["recency word", { query: "q", recency: "yesterday" }, /recency must be day, week, month, year or a range/],
	["recency backwards", { query: "q", recency: "2024-02-01..2024-01-01" }, /recency range starts after it ends/],
	["recency number", { query: "q", recency: 7 }, /recency must be text, got a number/],
	["negative maxResults", { query: "q", maxResults: -1 }, /maxResults must be a whole number from 1 to 20, got -1/],
	["NaN maxResults", { query: "q", maxResults: Number.NaN }, /maxResults must be a whole number from 1 to 20, got NaN/],
	["huge maxResults", { query: "q", maxResults: 1e308 }, /maxResults must be a whole number/],
	["maxResults as text", { query: "q", maxResults: "5" }, /maxResults must be a whole number from 1 to 20, got text/],
	["includeContent as text", { query: "q", includeContent: "yes" }, /includeContent must be true or false, got text/],
	["unknown provider", { query: "q", provider: "nope" }, /provider "nope" is not configured; configured: exa/],
	["provider as number", { query: "q", provider: 7 }, /provider must be text, got a number/],
	["null options", { query: "q", domains: null, recency: null, maxResults: null, provider: null }, "ok"],
];

const FETCH_CASES: Case[] = [
	["no url", {}, /url is empty: give an http or https URL/],
	["javascript: URL", { url: "javascript:alert(document.cookie)" }, /url must use http or https, not javascript/],
	["file: URL", { url: "file:///etc/passwd" }, /url must use http or https, not file/],
	["data: URL", { url: "data:text/html,<script>alert(1)</script>" }, /url must use http or https, not data/],
	["user and password", { url: "https://user:pa55@docs.example.org/" }, /url must not contain a user name or password/],
	["user only", { url: "http://admin@docs.example.org/" }, /must not contain a user name or password/],
	["IPv6 zone id", { url: "http://[fe80::1%25eth0]/" }, /url is not a valid absolute URL/],
	["raw IPv6 zone id", { url: "http://[fe80::1%eth0]/admin" }, /url is not a valid absolute URL/],
	["relative URL", { url: "/etc/passwd" }, /url is not a valid absolute URL/],
	[
		"1 MB URL",
		{ url: `https://docs.example.org/${"a".repeat(MB)}` },
		/url is \d{7} characters; at most 8192 are allowed/,
	],
	["space in host", { url: "https://docs example.org/" }, /not a valid absolute URL/],
	["unicode host and path", { url: "https://例え.テスト/パス?q=🦀#\u202e" }, "ok"],
	["control characters in path", { url: "https://docs.example.org/a\u0001b\u007f" }, "ok"],
	["number as url", { url: 42 }, /url must be text, got a number/],
	["negative offset", { url: URL_OK, offset: -1 }, /offset must be a whole number ≥ 0, got -1/],
	["NaN offset", { url: URL_OK, offset: Number.NaN }, /offset must be a whole number ≥ 0, got NaN/],
	["fractional offset", { url: URL_OK, offset: 1.5 }, /offset must be a whole number/],
	["astronomical offset", { url: URL_OK, offset: 1e300 }, /offset must be a whole number ≥ 0, got 1e\+300/],
	["offset past the end", { url: URL_OK, offset: 50_000_000 }, "ok"],
	["offset as text", { url: URL_OK, offset: "10" }, /offset must be a whole number ≥ 0, got text/],
	["tiny maxChars", { url: URL_OK, maxChars: 10 }, /maxChars must be a whole number from 1000 to 100000, got 10/],
	["Infinity maxChars", { url: URL_OK, maxChars: Number.POSITIVE_INFINITY }, /maxChars must be a whole number/],
	["unknown provider", { url: URL_OK, provider: "nope" }, /provider "nope" is not configured/],
];

let echo: EchoServer;
let dir: string;
let host: Host;
let cases = 0;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

const deps = () => ({
	host: async () => host,
	truncate: truncateLines,
	names: { search: "web_search", fetch: "web_fetch" },
});
const ctx = { model: undefined, modelRegistry: undefined };

/** The promise, or a rejection saying it hung (a bound on hangs, not a timing assertion). */
interface ErrorResult {
	isError?: boolean;
	content: Array<{ text: string }>;
	structuredContent?: unknown;
}

function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const hung = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`HUNG: ${what}`)), HANG_MS);
	});
	return Promise.race([promise, hung]).finally(() => clearTimeout(timer));
}

/** Runs `run`; the outcome is "ok" or the error. A TypeError or a hang is never an acceptable outcome. */
async function outcome(what: string, run: () => Promise<unknown>): Promise<"ok" | Error> {
	cases++;
	try {
		const out = (await bounded(Promise.resolve().then(run), what)) as ErrorResult | undefined;
		// A failed call is an error result the model reads: its text is the message, its structure a failure.
		if (out?.isError) {
			expect(Value.Check(failureOutput, out.structuredContent), what).toBe(true);
			throw new Error(out.content.map((c) => c.text).join("\n"));
		}
		return "ok";
	} catch (error) {
		expect(error, what).toBeInstanceOf(Error);
		const e = error as Error;
		expect(e.message, what).not.toMatch(/^HUNG|is not a function|Cannot read|undefined|\[object Object\]/);
		expect(e.constructor, `${what}: ${e.message}`).not.toBe(TypeError);
		return e;
	}
}

function expectOutcome(what: string, got: "ok" | Error, expected: RegExp | "ok"): void {
	if (expected === "ok") expect(got === "ok" ? "ok" : got.message, what).toBe("ok");
	else expect(got === "ok" ? "ok" : got.message, what).toMatch(expected);
}

beforeAll(async () => {
	echo = await startEchoServer();
	dir = mkdtempSync(join(tmpdir(), "pwa-abuse-"));
	const config = {
		providers: { exa: { type: "exa", baseUrl: echo.base("success", "exa"), apiKey: "abuse-test-key-0001" } },
		state: { persist: false },
	};
	writeFileSync(join(dir, "pi-web-access.json"), JSON.stringify(config));
	host = createHost({ env: { PI_CODING_AGENT_DIR: dir, PI_WEB_ACCESS_CONFIG: join(dir, "pi-web-access.json") } });
	process.on("unhandledRejection", onUnhandled);
});
afterAll(async () => {
	process.off("unhandledRejection", onUnhandled);
	host.close();
	await echo.close();
	rmSync(dir, { recursive: true, force: true });
	console.log(`abuse: ${cases} abuse cases`);
});

describe("web_search and web_fetch tools under abuse", () => {
	it.each(SEARCH_CASES)("web_search: %s", async (name, params, expected) => {
		const execute = createWebSearchTool(deps()).execute as (...args: unknown[]) => Promise<unknown>;
		const got = await outcome(name, () => execute("abuse", params, undefined, () => {}, ctx));
		expectOutcome(name, got, expected);
		if (got !== "ok") expect(got.message).toMatch(/^web_search: |not configured/);
	});

	it.each(FETCH_CASES)("web_fetch: %s", async (name, params, expected) => {
		const execute = createWebFetchTool(deps()).execute as (...args: unknown[]) => Promise<unknown>;
		const got = await outcome(name, () => execute("abuse", params, undefined, () => {}, ctx));
		expectOutcome(name, got, expected);
	});
});

describe("searchRequest and fetchRequest under abuse", () => {
	it("throws a RequestError with the same message for every bad argument, and accepts the good ones", async () => {
		for (const [name, params, expected] of SEARCH_CASES) {
			const got = await outcome(name, async () => searchRequest(params as unknown as SearchInput));
			// "not configured" is a routing answer, not an argument error: the request itself is fine.
			expectOutcome(name, got, /not configured/.test(String(expected)) ? "ok" : expected);
			if (got !== "ok") expect(got, name).toBeInstanceOf(RequestError);
		}
		for (const [name, params, expected] of FETCH_CASES) {
			const got = await outcome(name, async () => fetchRequest(params as unknown as FetchInput));
			expectOutcome(name, got, /not configured/.test(String(expected)) ? "ok" : expected);
			if (got !== "ok") expect(got, name).toBeInstanceOf(RequestError);
		}
	});

	it("never throws anything but a RequestError for random arguments", async () => {
		const value = fc.oneof(
			fc.string(),
			fc.string({ unit: "binary" }),
			fc.integer(),
			fc.double(),
			fc.boolean(),
			fc.constant(null),
			fc.array(fc.oneof(fc.string(), fc.integer())),
			fc.object(),
		);
		const searchArb = fc.record(
			{
				query: value,
				domains: value,
				excludeDomains: value,
				recency: value,
				maxResults: value,
				includeContent: value,
				provider: value,
			},
			{ requiredKeys: [] },
		);
		const fetchArb = fc.record(
			{
				url: fc.oneof(value, fc.webUrl({ withQueryParameters: true })),
				offset: value,
				maxChars: value,
				provider: value,
			},
			{ requiredKeys: [] },
		);
		await fc.assert(
			fc.asyncProperty(searchArb, fetchArb, async (search, fetchInput) => {
				for (const run of [() => searchRequest(search as SearchInput), () => fetchRequest(fetchInput as FetchInput)]) {
					const got = await outcome("random arguments", async () => run());
					if (got !== "ok") expect(got).toBeInstanceOf(RequestError);
				}
			}),
			{ numRuns: 500 },
		);
	});
});

describe("the CLI and /web-access explain under abuse", () => {
	it("answers usage errors with exit 2 and the reason, never a stack", async () => {
		const argvs: Array<[string[], RegExp]> = [
			[["search", "q".repeat(MB)], /query is 1048576 characters/],
			[["search", "a\u0000b"], /control characters/],
			[["search", "q", "--max-results", "NaN"], /--max-results must be a whole number/],
			[["search", "q", "--max-results", "-1"], /--max-results|ambiguous|argument/],
			[["search", "q", "--domains", Array(10_000).fill("a.com").join(",")], /domains has 10000 entries/],
			[["fetch", "javascript:alert(1)"], /url must use http or https, not javascript/],
			[["fetch", "file:///etc/passwd"], /not file/],
			[["fetch", "http://u:p@docs.example.org/"], /user name or password/],
			[["fetch", "http://[fe80::1%25eth0]/"], /not a valid absolute URL/],
			[["fetch", URL_OK, "--offset", "1e300"], /--offset must be a whole number/],
			[["fetch", URL_OK, "--offset", "99999999999999999999"], /--offset must be between 0 and 9007199254740991/],
			[["explain", "fetch", "data:,x"], /not data/],
		];
		for (const [argv, expected] of argvs) {
			const out: string[] = [];
			const io = {
				stdout: (t: string) => out.push(t),
				stderr: (t: string) => out.push(t),
				env: { PI_CODING_AGENT_DIR: dir },
			};
			let code = -1;
			const got = await outcome(argv.join(" ").slice(0, 60), async () => {
				code = await main([...argv, "--config", join(dir, "pi-web-access.json")], io);
			});
			expect(got).toBe("ok");
			expect(code, argv.join(" ").slice(0, 60)).toBe(2);
			expect(out.join(""), argv.join(" ").slice(0, 60)).toMatch(expected);
			expect(out.join("")).not.toMatch(/\n\s+at /); // no stack trace
		}
	});

	it("answers /web-access explain with an error notice for bad subjects", async () => {
		const subjects = [
			"q".repeat(MB),
			"a\u0000b",
			"https://u:p@docs.example.org/",
			"http://[fe80::1%25eth0]/",
			"\u202e🦀",
		];
		for (const subject of subjects) {
			const notes: Array<[string, string]> = [];
			const got = await outcome("explain", () =>
				handleCommand(`explain ${subject}`, host, (m, l) => notes.push([m, l]), COMMAND_HELP),
			);
			expect(got).toBe("ok");
			expect(notes).toHaveLength(1);
			const [message, level] = notes[0]!;
			if (level === "error") expect(message).toMatch(/^web-access: (query|url) /);
			else expect(message).toMatch(/chain/);
		}
	});

	it("leaves no unhandled rejection behind", () => {
		expect(unhandled.map(String)).toEqual([]);
	});
});
