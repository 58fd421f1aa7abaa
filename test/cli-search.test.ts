// `pi-web-access search/fetch --json` run the real executor and providers against local fake backends:
// results, fallback across failing providers with the right attempts, exit codes, and never a key in any output.

import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Value } from "typebox/value";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureOutput } from "../extension/schemas.ts";
import { spawnCli } from "./helpers/cli-spawn.ts";
import { type FakeServer, startFakeServer } from "./helpers/fake-server.ts";

const root = join(import.meta.dirname, "..");
const fixtures = join(root, "test", "fixtures", "providers");
const fixture = (path: string) => readFileSync(join(fixtures, path), "utf8");
const KEY = "sk-cli-Q7w9e1r3-secret";
// Distinct keys per backend: a key's state is shared wherever the same key is used (by design).
const KEY2 = "tvly-cli-8d7f6e5a-secret";
const KEY3 = "sk-ds-cli-1a2b3c4d-secret";
const KEYS = [KEY, KEY2, KEY3];
const home = mkdtempSync(join(tmpdir(), "pwa-cli-search-"));

let exa: FakeServer;
let tavily: FakeServer;
let deepseek: FakeServer;
let config: string;

beforeAll(async () => {
	[exa, tavily, deepseek] = await Promise.all([startFakeServer(), startFakeServer(), startFakeServer()]);
	config = join(home, "cfg.json5");
	writeFileSync(
		config,
		JSON.stringify({
			providers: {
				exa: { type: "exa", apiKey: KEY, baseUrl: exa.url },
				tavily: { type: "tavily", apiKey: "$TAVILY_TEST_KEY", baseUrl: tavily.url },
				ds: { type: "deepseek", apiKey: KEY3, baseUrl: deepseek.url },
			},
			search: ["exa", "tavily", "ds"],
			fetch: ["exa", "ds"],
			policy: { cooldown: false },
		}),
	);
});
afterAll(async () => Promise.all([exa, tavily, deepseek].map((s) => s.close())));

let runs = 0;
/** Each run gets its own agent dir unless told: the state store shares key states and cooldowns between runs. */
function cli(
	args: string[],
	agent = join(home, `agent-${++runs}`),
): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			[join(root, "cli", "bin.js"), ...args, "--config", config],
			{
				env: {
					PATH: process.env.PATH ?? "",
					HOME: home,
					PI_CODING_AGENT_DIR: agent,
					TAVILY_TEST_KEY: KEY2,
				},
			},
			(error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
		);
	});
}

/** Runs `pi-web-access <args>` and sends it Ctrl-C (SIGINT) once exa has the request. */
function interrupted(args: string[]) {
	const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
	return spawnCli([...args, "--config", config], env, {
		timeoutMs: 60_000,
		interruptWhen: () => exa.requests.length > 0,
	});
}

describe("Ctrl-C during pi-web-access search", () => {
	it("says cancelled and exits 130, with no advice for a failure", async () => {
		exa.reset();
		exa.respond({ hang: true });
		const { code, stdout, stderr } = await interrupted(["search", "q", "--provider", "exa"]);
		expect(code).toBe(130);
		expect(stdout).toBe("");
		expect(stderr.trimEnd().split("\n").at(-1)).toBe("pi-web-access: cancelled");
		expect(stderr).not.toMatch(/Next:|set this up/);
	});

	it("prints the failure as cancelled with --json, and exits 130", async () => {
		exa.reset();
		exa.respond({ hang: true });
		const { code, stdout } = await interrupted(["search", "--json", "q", "--provider", "exa"]);
		expect(code).toBe(130);
		const json = JSON.parse(stdout);
		expect(Value.Check(failureOutput, json)).toBe(true);
		expect(json).toMatchObject({ kind: "cancelled", retryable: false });
	});
});

describe("pi-web-access search/fetch", () => {
	it("falls back across two failing providers and returns the third's results with every attempt", async () => {
		exa.respond({ status: 429, headers: { "retry-after": "30" }, json: { error: "rate limited" } });
		tavily.respond({ status: 500, body: "upstream exploded" });
		deepseek.respond({
			body: fixture("deepseek/search_success.json"),
			headers: { "content-type": "application/json" },
		});
		const { code, stdout, stderr } = await cli(["search", "--json", "golang generics"]);
		expect(code, `${stdout}\n${stderr}`).toBe(0);
		const result = JSON.parse(stdout);
		expect(result.provider).toBe("ds");
		expect(result.results.length).toBeGreaterThan(0);
		expect(result.attempts.map((a: { provider: string; outcome: string }) => [a.provider, a.outcome])).toEqual([
			["exa", "error"],
			["tavily", "error"],
			["ds", "ok"],
		]);
		expect(result.attempts[0].reason).toMatch(/rate-limit|429/);
		expect(stderr).toMatch(/exa failed .*trying tavily/);
		expect(exa.requests[0]?.headers["x-api-key"]).toBe(KEY);
		for (const text of [stdout, stderr]) for (const key of KEYS) expect(text).not.toContain(key);
	});

	it("exits 1 with the attempts in the JSON when every attempt fails, without printing a key", async () => {
		exa.respond({ status: 401, json: { error: `invalid key ${KEY}` } });
		tavily.respond({ status: 401, json: { detail: { error: `Unauthorized: ${KEY2}` } } });
		deepseek.respond({ status: 401, json: { error: { message: "Authentication Fails" } } });
		const { code, stdout, stderr } = await cli(["search", "--json", "q"]);
		expect(code).toBe(1);
		const json = JSON.parse(stdout);
		expect(json.attempts).toHaveLength(3);
		expect(json.error).toMatch(/exa/);
		for (const text of [stdout, stderr]) for (const key of KEYS) expect(text).not.toContain(key);
		// The same failure structure as the tools' structuredContent, in the CLI's own terms.
		expect(Value.Check(failureOutput, json)).toBe(true);
		expect(json).toMatchObject({ kind: "auth", retryable: false });
		expect(json.attempts.map((a: { kind: string }) => a.kind)).toEqual(["auth", "auth", "auth"]);
		// Advice for the person at the terminal: which key was refused and where it came from.
		expect(json.hint).toBe("exa refused key1 (a literal in the config): check or replace it");
	});

	it("ends the text of a failure with the next action, naming --provider", async () => {
		exa.respond({ status: 429, headers: { "retry-after": "12" }, json: { error: "rate limited" } });
		const { code, stderr } = await cli(["search", "q", "--provider", "exa"]);
		expect(code).toBe(1);
		expect(stderr.trimEnd().split("\n").at(-1)).toBe(
			"Next: run it again with --provider tavily (configured, not tried in this call); or wait 12 s, then run it again.",
		);
	});

	it("prints the model-facing markdown without --json", async () => {
		exa.respond({ body: fixture("exa/search_success.json"), headers: { "content-type": "application/json" } });
		const { code, stdout } = await cli(["search", "rust async", "--max-results", "2"]);
		expect(code).toBe(0);
		expect(stdout).toMatch(/^<<<BEGIN UNTRUSTED WEB CONTENT from search results \(\w+\)>>>\n.*\n1\. \*\*/);
		expect(stdout).not.toMatch(/^3\. /m);
	});

	it("adds its spend to today's sums in the shared state store (read by status and daily budgets), never a key", async () => {
		exa.respond({ body: fixture("exa/search_success.json"), headers: { "content-type": "application/json" } });
		const agent = join(home, "agent");
		const before = JSON.parse((await cli(["status", "--json"], agent)).stdout);
		const exaBefore = before.spend.providers.find((p: { provider: string }) => p.provider === "exa");
		const { code } = await cli(["search", "--json", "--provider", "exa", "spend check"], agent);
		expect(code).toBe(0);
		const after = JSON.parse((await cli(["status", "--json"], agent)).stdout);
		const exaAfter = after.spend.providers.find((p: { provider: string }) => p.provider === "exa");
		expect(exaAfter.todayUsd - exaBefore.todayUsd).toBeCloseTo(0.008, 9); // costDollars.total of the fixture, reported
		expect(after.store).toMatchObject({ kind: "local", state: "ok" });
		const status = await cli(["status"], agent);
		expect(status.stdout).toMatch(/^ {2}exa: today \$0\.0\d+ \(\d+ calls?\)/m);
		const log = readdirSync(join(home, "agent")).filter((name) => name.endsWith(".log"));
		expect(log).toHaveLength(1);
		const text = readFileSync(join(home, "agent", log[0]!), "utf8");
		for (const shown of [text, status.stdout]) for (const key of KEYS) expect(shown).not.toContain(key);
	});
});
