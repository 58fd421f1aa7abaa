// The real pi CLI in rpc mode with this package: /web-access output arrives as notify records and as session
// entries kept out of the model's context, and holds no key; a config edit is picked up by the running pi, an rpc abort stops
// the chain, and a broken config is reported.

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, chatReply, exaResults, startBackend, waitFor } from "./fakes.ts";
import { createPiHome, notifications, type PiHome, REPO_ROOT, type RpcPi, rpcPrompt, startRpc } from "./harness.ts";

const KEY = `exa-${randomBytes(16).toString("hex")}`;
const KEY2 = `exa-${randomBytes(16).toString("hex")}`;
const TEST_TIMEOUT_MS = 120_000;
const RPC_ARGS = ["--no-session", "-ne", "--model", "fake/fake-model", "-e", REPO_ROOT];

let chat: Backend;
let first: Backend;
let second: Backend;
let tmp: string;
const homes: PiHome[] = [];

function config(extra: Record<string, unknown> = {}): string {
	return JSON.stringify({
		providers: {
			first: { type: "exa", baseUrl: first.url, apiKey: KEY },
			second: { type: "exa", baseUrl: second.url, apiKey: KEY2 },
		},
		search: ["first", "second"],
		state: { persist: false },
		...extra,
	});
}

/** No part of either key longer than 4 characters. */
function expectNoKey(text: string): void {
	for (const key of [KEY, KEY2]) {
		for (let i = 0; i + 5 <= key.length; i++) expect(text).not.toContain(key.slice(i, i + 5));
	}
}

/** Runs /web-access and returns the text it notified (the notify record comes before the response). */
async function status(rpc: RpcPi, id: string): Promise<string> {
	const { response, from } = await rpcPrompt(rpc, id, "/web-access");
	expect(response).toMatchObject({ success: true, data: { disposition: "handled" } });
	const notes = notifications(rpc, from).filter((n) => n.message.startsWith("config: "));
	expect(notes).toHaveLength(1);
	return notes[0]?.message ?? "";
}

beforeAll(async () => {
	chat = await startBackend(chatReply({ text: "hello" }));
	first = await startBackend(() => ({ json: exaResults(3) }));
	second = await startBackend(() => ({ json: exaResults(2, "second") }));
	tmp = mkdtempSync(join(tmpdir(), "pi-web-access-e2e-tmp-"));
});
afterAll(async () => {
	await chat.close();
	await first.close();
	await second.close();
	for (const made of homes) made.remove();
	rmSync(tmp, { recursive: true, force: true });
});

describe("pi --mode rpc with a working config", () => {
	let home: PiHome;
	let rpc: RpcPi;
	beforeAll(() => {
		home = createPiHome(chat.url, config(), tmp);
		homes.push(home);
		rpc = startRpc(RPC_ARGS, home.env);
	});
	afterAll(async () => {
		await rpc.stop();
	});

	it(
		"shows /web-access through a notify record without any key",
		async () => {
			const text = await status(rpc, "status-1");
			expect(text).toContain(`config: ${home.configFile} (loaded)`);
			expect(text).toMatch(/first \(exa; search, fetch\): ready \(apiKey\)/);
			expect(text).toContain("search chain: first → second");
			expectNoKey(text);
			expect(rpc.stdout()).not.toContain(KEY);
			expect(rpc.stderr()).not.toContain(KEY);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"keeps /web-access reports (status, explain, reload) out of the model's context: session entries, not messages",
		async () => {
			const { from } = await rpcPrompt(rpc, "status-view", "/web-access");
			await rpcPrompt(rpc, "explain-view", "/web-access explain golang generics");
			await rpcPrompt(rpc, "reload-view", "/web-access reload");
			const entries = rpc.records
				.slice(from)
				.filter((r) => r.type === "entry_appended")
				.map((r) => (r as { entry: { customType?: string; data?: { text?: string } } }).entry)
				.filter((entry) => entry.customType === "web-access");
			expect(entries.map((entry) => entry.data?.text ?? "")).toEqual([
				expect.stringContaining(`config: ${home.configFile} (loaded)`),
				expect.stringContaining("golang generics"),
				expect.stringContaining("search chain: first → second"),
			]);
			rpc.send({ id: "messages-2", type: "get_messages" });
			const listed = await rpc.next("the messages", (r) => r.type === "response" && r.id === "messages-2", from);
			const messages = JSON.stringify((listed.data as { messages?: unknown[] } | undefined)?.messages ?? []);
			expect(messages).not.toContain(home.configFile);
			chat.clear();
			chat.reply = chatReply({ text: "hello" });
			const asked = rpc.records.length;
			await rpcPrompt(rpc, "after-reports", "say hello");
			await rpc.next("agent_settled", (r) => r.type === "agent_settled", asked);
			expect(chat.requests).toHaveLength(1);
			const sent = chat.requests[0]!.text;
			expect(sent).toContain("say hello");
			expect(sent).not.toContain(home.configFile);
			expect(sent).not.toMatch(/search chain:|golang generics|ready \(apiKey\)/);
			expectNoKey(JSON.stringify(entries));
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"picks up a config edit without restarting pi",
		async () => {
			expect(await status(rpc, "status-2")).toContain("rules: (none)");
			const from = rpc.records.length;
			home.writeConfig(config({ rules: [{ name: "Go docs", sites: ["go.dev"], search: ["second"] }] }));
			// The watcher debounces, then says so; waiting for that notify replaces a fixed sleep.
			await rpc.next(
				"the reload notify",
				(r) => r.method === "notify" && /config reloaded/.test(String(r.message)),
				from,
			);
			const text = await status(rpc, "status-3");
			expect(text).toMatch(/Go docs: sites go\.dev: search → second/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops the chain on an rpc abort: the backend sees the request closed and no other provider is called",
		async () => {
			chat.clear();
			first.clear();
			second.clear();
			first.reply = () => "stall";
			chat.reply = chatReply({
				toolCall: { name: "web_search", arguments: { query: "stalling search" } },
				text: "never",
			});
			const { response, from } = await rpcPrompt(rpc, "prompt-abort", "search something");
			expect(response).toMatchObject({ success: true, data: { disposition: "started" } });
			await waitFor("the search to reach the first backend", () => (first.requests.length > 0 ? true : undefined));
			rpc.send({ id: "abort-1", type: "abort" });
			await rpc.next("the abort response", (r) => r.type === "response" && r.id === "abort-1", from);
			await rpc.next("agent_settled", (r) => r.type === "agent_settled", from);
			await waitFor("the backend to see the request closed", () => (first.requests[0]?.closedEarly ? true : undefined));
			const end = rpc.records.slice(from).find((r) => r.type === "tool_execution_end") as
				| { isError?: boolean }
				| undefined;
			expect(end?.isError).toBe(true);
			expect(first.requests).toHaveLength(1);
			expect(second.requests).toHaveLength(0);
			expect(chat.requests).toHaveLength(1);
			first.reply = () => ({ json: exaResults(3) });
		},
		TEST_TIMEOUT_MS,
	);
});

describe("pi --mode rpc with a broken config", () => {
	let home: PiHome;
	let rpc: RpcPi;
	beforeAll(() => {
		home = createPiHome(chat.url, "{\n  providers: {\n    first: { type: 'exa' ,, }\n", tmp);
		homes.push(home);
		rpc = startRpc(RPC_ARGS, home.env);
	});
	afterAll(async () => {
		await rpc.stop();
	});

	it(
		"starts, says file:line:col at session start and in /web-access, and recovers when the file is fixed",
		async () => {
			const where = `${home.configFile}:3:`;
			const startup = await rpc.next(
				"the start-up diagnostic",
				(r) => r.method === "notify" && String(r.message).includes(where),
			);
			expect(startup.notifyType).toBe("error");
			expect(String(startup.message)).toMatch(/syntax error/);
			expect(String(startup.message)).toMatch(/is not usable .*: running on zero-config/);
			expect(String(startup.message), "with the fix, as the CLI prints it").toMatch(/\(fix: /);
			const broken = await status(rpc, "status-broken");
			expect(broken).toContain("(NOT usable — running on zero-config until it is fixed)");
			expect(broken).toContain(where);
			// The keyless fetcher still runs while the file is broken.
			expect(broken).toContain("fetch chain: direct");

			const from = rpc.records.length;
			home.writeConfig(config());
			await rpc.next(
				"the reload notify",
				(r) => r.method === "notify" && /config reloaded/.test(String(r.message)),
				from,
			);
			const fixed = await status(rpc, "status-fixed");
			expect(fixed).toContain("(loaded)");
			expect(fixed).toContain("search chain: first → second");
		},
		TEST_TIMEOUT_MS,
	);
});
