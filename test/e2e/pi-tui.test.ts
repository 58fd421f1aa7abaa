// The real pi TUI (under tmux) with this package: pi's start-up listing names the extension pi-web-access, and
// /web-access draws its report in the conversation. Skipped where tmux is not installed.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, chatReply, exaResults, startBackend } from "./fakes.ts";
import { createPiHome, type PiHome, REPO_ROOT } from "./harness.ts";
import { HAS_TMUX, startTui, type Tui } from "./tui.ts";

const TEST_TIMEOUT_MS = 120_000;

let chat: Backend;
let exa: Backend;
let tmp: string;
let home: PiHome;
let tui: Tui;

describe.skipIf(!HAS_TMUX)("pi's TUI with -e <repo>", () => {
	beforeAll(async () => {
		chat = await startBackend(chatReply({ text: "hello" }));
		exa = await startBackend(() => ({ json: exaResults(3) }));
		tmp = mkdtempSync(join(tmpdir(), "pi-web-access-e2e-tmp-"));
		const config = { providers: { exa: { type: "exa", baseUrl: exa.url, apiKey: "$EXA_TUI_KEY" } } };
		home = createPiHome(chat.url, JSON.stringify({ ...config, state: { persist: false } }), tmp);
		home.env.EXA_TUI_KEY = "exa-tui-test-key";
		tui = await startTui(home, ["--no-session", "-ne", "--model", "fake/fake-model", "-e", REPO_ROOT]);
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
});
