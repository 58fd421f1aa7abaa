// The real pi TUI (under tmux) with this package: pi's start-up listing names the extension pi-web-access,
// /web-access draws its report in the conversation, and a fetch cancelled with Escape says so. Skipped where tmux
// is not installed.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, chatReply, exaResults, startBackend, waitFor } from "./fakes.ts";
import { createPiHome, type PiHome, REPO_ROOT } from "./harness.ts";
import { HAS_TMUX, startTui, type Tui } from "./tui.ts";

const TEST_TIMEOUT_MS = 120_000;

let chat: Backend;
let exa: Backend;
let tmp: string;
let home: PiHome;
let tui: Tui;

describe("pi's TUI with -e <repo>", () => {
	beforeAll(async () => {
		// Never skipped: without tmux the suite fails with the fix, as CI must (.ci/run installs it).
		if (!HAS_TMUX) throw new Error("the TUI tests need tmux: apt-get install -y tmux");
		chat = await startBackend(chatReply({ text: "hello" }));
		exa = await startBackend(() => ({ json: exaResults(3) }));
		tmp = mkdtempSync(join(tmpdir(), "pi-web-access-e2e-tmp-"));
		const config = { providers: { exa: { type: "exa", baseUrl: exa.url, apiKey: "$EXA_TUI_KEY" } } };
		home = createPiHome(chat.url, JSON.stringify({ ...config, state: { persist: false } }), tmp);
		home.env.EXA_TUI_KEY = "exa-tui-test-key";
		tui = await startTui(home, ["--no-session", "-ne", "--model", "fake/fake-model", "-e", REPO_ROOT]);
		await tui.waitFor("pi's start-up", /\[Extensions\]/);
	}, TEST_TIMEOUT_MS);
	afterAll(async () => {
		await tui?.stop();
		await chat?.close();
		await exa?.close();
		home?.remove();
		if (tmp) rmSync(tmp, { recursive: true, force: true });
	});

	it(
		"names the extension pi-web-access in the start-up listing",
		async () => {
			const screen = await tui.waitFor("the extensions listing", /\[Extensions\]\n.*\S/);
			const listed = screen.match(/\[Extensions\]\n\s*(.+)/)?.[1]?.trim();
			expect(listed).toBe("pi-web-access");
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"draws the /web-access report in the conversation",
		async () => {
			await tui.enter("/web-access");
			const screen = await tui.waitFor("the report", /search chain: exa/);
			expect(screen).toContain("web-access");
			expect(screen).toMatch(/exa \(exa; search, fetch\): ready/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"says a fetch cancelled with Escape is cancelled, not that every provider failed",
		async () => {
			exa.clear();
			exa.reply = () => "stall";
			const url = "https://docs.example.org/slow-page";
			chat.reply = chatReply({ toolCall: { name: "web_fetch", arguments: { url } }, text: "never" });
			await tui.enter("read the slow page");
			await waitFor("the fetch to reach exa", () => (exa.requests.length > 0 ? true : undefined));
			await tui.key("Escape");
			const screen = await tui.waitFor("the cancelled call's line", /✗ fetch cancelled/);
			expect(screen).not.toContain("all providers failed");
		},
		TEST_TIMEOUT_MS,
	);
});
