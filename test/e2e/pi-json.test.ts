// The real pi CLI in json and print modes (-p) with this package: a web_search tool call reaches the fake Exa backend
// and its result reaches the model's next request; through HTTPS_PROXY/HTTP_PROXY it goes via a loopback proxy; a
// failure is an error result with its structure and a next action; a broken config does not stop pi; `pi install`
// works. What reaches the model besides tool results: the system prompt names each tool once, and /web-access
// reports never (print mode prints them, json mode emits them as an appended entry).

import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Value } from "typebox/value";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureOutput, searchOutput } from "../../extension/schemas.ts";
import { type ProxyServer, startProxy } from "../helpers/proxy-server.ts";
import {
	type Backend,
	chatReply,
	exaResults,
	offeredTools,
	startBackend,
	systemPrompt,
	toolMessages,
} from "./fakes.ts";
import { createPiHome, type PiHome, REPO_ROOT, runPi } from "./harness.ts";

const KEY = `exa-${randomBytes(16).toString("hex")}`;
const TEST_TIMEOUT_MS = 120_000;

let chat: Backend;
let exa: Backend;
let proxy: ProxyServer;
let tmp: string;
const homes: PiHome[] = [];

function home(config?: string): PiHome {
	const made = createPiHome(chat.url, config, tmp);
	homes.push(made);
	return made;
}

const goodConfig = () =>
	JSON.stringify({ providers: { exa: { type: "exa", baseUrl: exa.url, apiKey: KEY } }, state: { persist: false } });

/** `pi --mode json -p --no-session [...extra] --model fake/fake-model <prompt>` */
const jsonArgs = (prompt: string, extra: string[]) => [
	"--mode",
	"json",
	"-p",
	"--no-session",
	...extra,
	"--model",
	"fake/fake-model",
	prompt,
];

beforeAll(async () => {
	chat = await startBackend(chatReply({ text: "hello" }));
	exa = await startBackend(() => ({ json: exaResults(3) }));
	proxy = await startProxy();
	tmp = mkdtempSync(join(tmpdir(), "pi-web-access-e2e-tmp-"));
});
afterAll(async () => {
	await chat.close();
	await exa.close();
	await proxy.close();
	for (const made of homes) made.remove();
	rmSync(tmp, { recursive: true, force: true });
});

describe("pi --mode json with -e <repo>", () => {
	it(
		"sends the model's web_search call to the backend and the result back to the model",
		async () => {
			chat.clear();
			exa.clear();
			const query = "incremental regeneration cache";
			chat.reply = chatReply({
				toolCall: { name: "web_search", arguments: { query, maxResults: 3 } },
				text: "found it",
			});
			const run = await runPi(jsonArgs("search the web", ["-ne", "-e", REPO_ROOT]), home(goodConfig()).env);
			expect(run.code, run.stderr).toBe(0);

			expect(exa.requests).toHaveLength(1);
			expect(exa.requests[0]?.path).toBe("/search");
			expect(exa.requests[0]?.headers["x-api-key"]).toBe(KEY);
			expect(exa.requests[0]?.json).toMatchObject({ query, numResults: 3 });

			expect(chat.requests).toHaveLength(2);
			expect(offeredTools(chat.requests[0]!)).toEqual(expect.arrayContaining(["web_search", "web_fetch"]));
			const seen = toolMessages(chat.requests[1]!);
			expect(seen).toHaveLength(1);
			expect(seen[0]).toContain("1. **result number 1**");
			expect(seen[0]).toContain("https://docs.example.org/result/3");

			const end = run.records.find((r) => r.type === "tool_execution_end") as
				| { toolName: string; isError: boolean; result: { structuredContent?: unknown } }
				| undefined;
			expect(end?.toolName).toBe("web_search");
			expect(end?.isError).toBe(false);
			expect(Value.Check(searchOutput, end?.result.structuredContent)).toBe(true);
			expect(run.stdout).toContain("found it");
			expect(`${run.stdout}\n${run.stderr}`).not.toContain(KEY);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"sends web_search through the proxy in HTTPS_PROXY/HTTP_PROXY (the chat model bypasses it by NO_PROXY)",
		async () => {
			chat.clear();
			exa.clear();
			proxy.clear();
			chat.reply = chatReply({ toolCall: { name: "web_search", arguments: { query: "through a proxy" } }, text: "ok" });
			const env = {
				...home(goodConfig()).env,
				HTTPS_PROXY: proxy.url,
				HTTP_PROXY: proxy.url,
				NO_PROXY: new URL(chat.url).host,
			};
			const run = await runPi(jsonArgs("search the web", ["-ne", "-e", REPO_ROOT]), env);
			expect(run.code, run.stderr).toBe(0);
			expect(exa.requests).toHaveLength(1);
			expect(proxy.seen).toEqual([{ method: "POST", target: `${exa.url}/search` }]);
			expect(chat.requests).toHaveLength(2);
			const end = run.records.find((r) => r.type === "tool_execution_end") as { isError: boolean } | undefined;
			expect(end?.isError).toBe(false);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"returns a failed call as an error result: structuredContent says the kind and the wait, the model sees the next action",
		async () => {
			chat.clear();
			exa.clear();
			exa.reply = () => ({ status: 429, headers: { "retry-after": "20" }, json: { error: "rate limited" } });
			chat.reply = chatReply({ toolCall: { name: "web_search", arguments: { query: "too often" } }, text: "later" });
			try {
				const run = await runPi(jsonArgs("search the web", ["-ne", "-e", REPO_ROOT]), home(goodConfig()).env);
				expect(run.code, run.stderr).toBe(0);
				const end = run.records.find((r) => r.type === "tool_execution_end") as
					| { isError: boolean; result: { structuredContent?: unknown } }
					| undefined;
				expect(end?.isError).toBe(true);
				const failure = end?.result.structuredContent;
				expect(Value.Check(failureOutput, failure)).toBe(true);
				expect(failure).toMatchObject({ kind: "rate-limit", retryable: true });
				// What is left of Retry-After: 20 s when the error is described, a few ms later than it arrived.
				const retryAfterMs = (failure as { retryAfterMs?: number }).retryAfterMs ?? 0;
				expect(retryAfterMs).toBeGreaterThan(15_000);
				expect(retryAfterMs).toBeLessThanOrEqual(20_000);
				const seen = toolMessages(chat.requests[1]!);
				expect(seen[0]).toMatch(/no search provider answered: exa \(rate-limit/);
				expect(seen[0]).toMatch(/\nNext: wait 20 s, then call web_search again\.$/);
				expect(`${run.stdout}\n${run.stderr}`).not.toContain(KEY);
			} finally {
				exa.reply = () => ({ json: exaResults(3) });
			}
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"starts and answers with a broken config (the tools are still offered)",
		async () => {
			chat.clear();
			chat.reply = chatReply({ text: "hello" });
			const broken = home("{\n  providers: {\n    exa: { type: 'exa' ,, }\n");
			const run = await runPi(jsonArgs("say hello", ["-ne", "-e", REPO_ROOT]), broken.env);
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).not.toMatch(/Failed to load extension/);
			expect(chat.requests).toHaveLength(1);
			expect(offeredTools(chat.requests[0]!)).toEqual(expect.arrayContaining(["web_search", "web_fetch"]));
			expect(run.stdout).toContain("hello");
			// No UI in json mode: the problem is written to stderr once, located and with its fix.
			const lines = run.stderr.split("\n").filter((l) => l.includes(`${broken.configFile}:3:`));
			expect(lines).toHaveLength(1);
			expect(lines[0]).toMatch(/:3:\d+: error: syntax error: .* \(fix: fix the syntax/);
			expect(run.stderr).toMatch(/pi-web-access\.json is not usable \(3:\d+ syntax error.*\): running on zero-config/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"still fetches through the keyless direct provider when the file has a syntax error",
		async () => {
			chat.clear();
			const url = `${exa.url}/page`;
			chat.reply = chatReply({ toolCall: { name: "web_fetch", arguments: { url } }, text: "read it" });
			const broken = home("{\n  providers: {\n    exa: { type: 'exa' ,, }\n");
			const run = await runPi(jsonArgs("read the page", ["-ne", "-e", REPO_ROOT]), broken.env);
			expect(run.code, run.stderr).toBe(0);
			const end = run.records.find((r) => r.type === "tool_execution_end") as
				| { toolName: string; result: { content?: Array<{ text?: string }> } }
				| undefined;
			expect(end?.toolName).toBe("web_fetch");
			const text = end?.result.content?.map((c) => c.text ?? "").join("\n") ?? "";
			// direct ran (zero-config) and refused the loopback page with its private-network guard: it is the
			// fetcher, not "no fetch provider is usable", that answered; a public page would be read the same way.
			expect(text).not.toMatch(/no fetch provider is usable/);
			expect(text).toMatch(/direct \(/);
			expect(text).toMatch(/running on zero-config/);
			expect(
				exa.requests.filter((r) => r.path === "/page"),
				"the guard connects to nothing private",
			).toHaveLength(0);
		},
		TEST_TIMEOUT_MS,
	);
});

describe("pi install <repo>", () => {
	it(
		"records the package and a plain run (no -e) offers web_search to the model",
		async () => {
			const installed = home(goodConfig());
			const install = await runPi(["install", REPO_ROOT], installed.env);
			expect(install.code, install.stderr).toBe(0);
			const settings = JSON.parse(readFileSync(join(installed.agentDir, "settings.json"), "utf8")) as {
				packages?: unknown[];
			};
			expect(settings.packages).toHaveLength(1);

			chat.clear();
			chat.reply = chatReply({ text: "hello" });
			const run = await runPi(jsonArgs("say hello", []), installed.env);
			expect(run.code, run.stderr).toBe(0);
			expect(chat.requests.length).toBeGreaterThanOrEqual(1);
			expect(offeredTools(chat.requests[0]!)).toEqual(expect.arrayContaining(["web_search", "web_fetch"]));
		},
		TEST_TIMEOUT_MS,
	);
});

describe("what reaches the model besides tool results", () => {
	const printArgs = ["-p", "--no-session", "-ne", "--model", "fake/fake-model", "-e", REPO_ROOT];

	it(
		"lists web_search and web_fetch in the system prompt with their one-line snippets, each name once",
		async () => {
			chat.clear();
			chat.reply = chatReply({ text: "hello" });
			const run = await runPi(jsonArgs("say hello", ["-ne", "-e", REPO_ROOT]), home(goodConfig()).env);
			expect(run.code, run.stderr).toBe(0);
			const prompt = systemPrompt(chat.requests[0]!);
			expect(prompt).toContain("- web_search: search the web (routed to the configured backends, with fallback)");
			expect(prompt).toContain("- web_fetch: read a web page or PDF as markdown");
			expect(prompt).not.toMatch(/web_search: web_search|web_fetch: web_fetch/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"pi -p prints status, explain and reload on stdout (the reload's notice on stderr), and the next model request carries none",
		async () => {
			chat.clear();
			chat.reply = chatReply({ text: "hello" });
			const made = home(goodConfig());
			const commands = ["/web-access", "/web-access explain golang generics", "/web-access reload"];
			const run = await runPi([...printArgs, ...commands, "say hello"], made.env);
			expect(run.code, run.stderr).toBe(0);
			expect(run.stdout).toContain(`config: ${made.configFile} (loaded)`);
			expect(run.stdout).toMatch(/exa \(exa; search, fetch\): ready \(apiKey\)/);
			expect(run.stdout).toMatch(/search .*golang generics/);
			expect(run.stdout).toMatch(/hello$/);
			expect(run.stderr).toContain("pi-web-access: config reloaded");
			expect(`${run.stdout}${run.stderr}`).not.toContain(KEY.slice(4, 12));
			expect(chat.requests).toHaveLength(1);
			const sent = chat.requests[0]!.text;
			expect(sent).toContain("say hello");
			expect(sent).not.toContain(made.configFile);
			expect(sent).not.toMatch(/search chain:|ready \(apiKey\)/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"--mode json emits the /web-access report as an appended entry of type web-access, not as a message",
		async () => {
			const made = home(goodConfig());
			const run = await runPi(jsonArgs("/web-access", ["-ne", "-e", REPO_ROOT]), made.env);
			expect(run.code, run.stderr).toBe(0);
			const entries = run.records.filter((r) => r.type === "entry_appended") as Array<{
				entry: { type: string; customType?: string; data?: { text?: string; level?: string } };
			}>;
			const report = entries.find((r) => r.entry.customType === "web-access");
			expect(report?.entry.type).toBe("custom");
			expect(report?.entry.data?.level).toBe("info");
			expect(report?.entry.data?.text).toContain(`config: ${made.configFile} (loaded)`);
			const messages = run.records.filter((r) => r.type === "message_end" || r.type === "message_start");
			expect(JSON.stringify(messages)).not.toMatch(/search chain:/);
		},
		TEST_TIMEOUT_MS,
	);
});
