// The real pi CLI and what reaches the model besides the tools' results: the system prompt names each tool once,
// and /web-access reports are for the person (print mode prints them, json mode emits them as an appended entry),
// never part of the model's next request.

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, type BackendRequest, chatReply, exaResults, startBackend } from "./fakes.ts";
import { createPiHome, type PiHome, REPO_ROOT, runPi } from "./harness.ts";

const KEY = `exa-${randomBytes(16).toString("hex")}`;
const TEST_TIMEOUT_MS = 120_000;
const ARGS = ["--no-session", "-ne", "--model", "fake/fake-model", "-e", REPO_ROOT];

let chat: Backend;
let exa: Backend;
let tmp: string;
const homes: PiHome[] = [];

function home(): PiHome {
	const config = { providers: { exa: { type: "exa", baseUrl: exa.url, apiKey: KEY } }, state: { persist: false } };
	const made = createPiHome(chat.url, JSON.stringify(config), tmp);
	homes.push(made);
	return made;
}

/** The system prompt of a recorded chat request. */
function systemPrompt(request: BackendRequest): string {
	const messages = (request.json?.messages ?? []) as Array<{ role?: string; content?: unknown }>;
	const system = messages.find((m) => m.role === "system" || m.role === "developer");
	return typeof system?.content === "string" ? system.content : JSON.stringify(system?.content ?? "");
}

/** Lines only a /web-access report holds (status, explain). */
const REPORT_MARKS = [/config: \//, /search chain:/, /web-access/i];

beforeAll(async () => {
	chat = await startBackend(chatReply({ text: "hello" }));
	exa = await startBackend(() => ({ json: exaResults(3) }));
	tmp = mkdtempSync(join(tmpdir(), "pi-web-access-e2e-tmp-"));
});
afterAll(async () => {
	await chat.close();
	await exa.close();
	for (const made of homes) made.remove();
	rmSync(tmp, { recursive: true, force: true });
});

describe("the system prompt pi builds", () => {
	it(
		"lists web_search and web_fetch with their one-line snippets, each name once",
		async () => {
			chat.clear();
			const run = await runPi(["--mode", "json", "-p", ...ARGS, "say hello"], home().env);
			expect(run.code, run.stderr).toBe(0);
			const prompt = systemPrompt(chat.requests[0]!);
			expect(prompt).toContain("- web_search: search the web (routed to the configured backends, with fallback)");
			expect(prompt).toContain("- web_fetch: read a web page or PDF as markdown");
			expect(prompt).not.toMatch(/web_search: web_search|web_fetch: web_fetch/);
		},
		TEST_TIMEOUT_MS,
	);
});

describe("/web-access outside the TUI", () => {
	it(
		"pi -p prints status, explain and reload on stdout (the reload's notice on stderr), and the next model request carries none",
		async () => {
			chat.clear();
			const made = home();
			const commands = ["/web-access", "/web-access explain golang generics", "/web-access reload"];
			const run = await runPi(["-p", ...ARGS, ...commands, "say hello"], made.env);
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
		"--mode json emits the report as an appended entry of type web-access, not as a message",
		async () => {
			const made = home();
			const run = await runPi(["--mode", "json", "-p", ...ARGS, "/web-access"], made.env);
			expect(run.code, run.stderr).toBe(0);
			const entries = run.records.filter((r) => r.type === "entry_appended") as Array<{
				entry: { type: string; customType?: string; data?: { text?: string; level?: string } };
			}>;
			const report = entries.find((r) => r.entry.customType === "web-access");
			expect(report?.entry.type).toBe("custom");
			expect(report?.entry.data?.level).toBe("info");
			expect(report?.entry.data?.text).toContain(`config: ${made.configFile} (loaded)`);
			const messages = run.records.filter((r) => r.type === "message_end" || r.type === "message_start");
			expect(JSON.stringify(messages)).not.toMatch(REPORT_MARKS[1]!);
		},
		TEST_TIMEOUT_MS,
	);
});
