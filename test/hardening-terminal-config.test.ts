// Config and project files are as hostile as pages: key names, values and quoted file text reach the terminal in
// every human-readable output (the CLI's text, pi's print-mode stderr, notifications, /web-access reports, the TUI
// rows) without escape sequences, C0/C1 controls or bidi overrides; --json stays valid JSON with the same values.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preloadRender, renderFetchResult, renderSearchResult } from "../extension/render.ts";
import { reportDiagnostics } from "../extension/report-diagnostics.ts";
import { createSetup } from "../runtime/setup.ts";
import { jsonTerminalSafe, terminalSafe } from "../runtime/terminal-safe.ts";
import { runCli } from "./helpers/cli-run.ts";
import { loadExtension, useSandbox } from "./helpers/fake-pi.ts";

/** What must never reach a terminal: C0 but tab and newline, DEL, C1, and the bidi embeddings, overrides, isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for exactly these characters.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** A window title, a screen clear, a clipboard write (OSC 52), hidden text, C1 CSI, a right-to-left override. */
const EVIL = "evil\u001b]0;pwned\u0007\u001b[2J\u001b]52;c;ZXZpbA==\u0007\u001b[8m\u009b31m\u202e\u2066";

let dir: string;
let config: string;
let cwd: string;
let env: Record<string, string>;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), "pwa-term-config-"));
	config = join(dir, "pi-web-access.json");
	writeFileSync(
		config,
		JSON.stringify({
			providers: { [EVIL]: { type: `direct${EVIL}` }, d: { type: "direct", [`bogus${EVIL}`]: 1 } },
			search: [`nope${EVIL}`],
			fetch: ["d"],
		}),
	);
	cwd = join(dir, "project");
	mkdirSync(join(cwd, ".pi"), { recursive: true });
	writeFileSync(join(cwd, ".pi", "pi-web-access.json"), JSON.stringify({ policy: { [`odd${EVIL}`]: true } }));
	env = { HOME: dir, PI_CODING_AGENT_DIR: join(dir, "agent") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("hostile config text on a terminal", () => {
	const commands = [
		["check"],
		["status"],
		["explain", "search", "q"],
		["search", "q"],
		["fetch", "http://127.0.0.1:1/"],
	];
	for (const command of commands) {
		it(`${command[0]} prints no control character or bidi override from the config, project file included`, async () => {
			const { stdout, stderr } = await runCli([...command, "--config", config, "--project"], env, cwd);
			const printed = stdout + stderr;
			expect(printed).toContain("evil");
			// check reads the global file only; the others layer the project file too.
			if (command[0] !== "check") expect(printed).toContain("odd");
			expect(printed).not.toMatch(UNSAFE);
			expect(printed).not.toContain("pwned");
		}, 60_000);
	}

	it("--json keeps the key names exactly, as escapes that no terminal reads", async () => {
		for (const command of [["check"], ["status"]]) {
			const { stdout } = await runCli([...command, "--json", "--config", config], env);
			expect(stdout).not.toMatch(UNSAFE);
			expect(JSON.stringify(JSON.parse(stdout))).toContain(JSON.stringify(EVIL).slice(1, -1));
		}
	}, 60_000);

	it("terminalSafe removes bidi controls; jsonTerminalSafe escapes them and C1 without changing the value", () => {
		expect(terminalSafe("a\u202eb\u2067c\u200fd\u061ce")).toBe("abcde");
		const json = JSON.stringify({ k: "x\u009b\u202e\u007f" });
		expect(jsonTerminalSafe(json)).toBe('{"k":"x\\u009b\\u202e\\u007f"}');
		expect(JSON.parse(jsonTerminalSafe(json))).toEqual(JSON.parse(json));
	});
});

describe("hostile config text in pi", () => {
	const box = useSandbox();

	it("notifications and /web-access reports carry no control character or bidi override", async () => {
		box.writeConfig({ providers: { [EVIL]: { type: "direct", [`bogus${EVIL}`]: 1 } }, fetch: [EVIL] });
		const ext = loadExtension();
		const notes = [
			...(await ext.command("")),
			...(await ext.command(`explain https://a.test/${EVIL}`)),
			...(await ext.command(`frob${EVIL}`)),
			...(await ext.command("reload")),
		];
		await ext.emit("session_start");
		await ext.call("web_fetch", { url: "http://127.0.0.1:1/" }).catch(() => {});
		expect(notes.length).toBeGreaterThan(2);
		for (const note of [...notes, ...ext.notes]) expect(note.message).not.toMatch(UNSAFE);
	});

	it("print mode's stderr report carries no control character or bidi override", () => {
		const file = box.writeConfig({ providers: { [EVIL]: { type: `x${EVIL}` } } });
		let printed = "";
		reportDiagnostics(createSetup({ configFile: file, env: {} }), { hasUI: false }, (text) => {
			printed += text;
		});
		expect(printed).toContain("evil");
		expect(printed).not.toMatch(UNSAFE);
	});

	it("the TUI rows show a result's title, URL and warnings without control characters", async () => {
		await preloadRender();
		const theme = { fg: (_c: string, t: string) => t, bold: (t: string) => t };
		const lines = (component: { render(width: number): readonly string[] }) => component.render(500).join("\n");
		const base = { provider: EVIL, latencyMs: 1, attempts: [], warnings: [EVIL] };
		const search = { ...base, query: "q", results: [{ title: EVIL, url: `https://a.test/${EVIL}` }] };
		const fetched = { ...base, url: "https://a.test/", title: EVIL, content: "x", extraction: "direct" };
		for (const component of [
			renderSearchResult({ content: [], details: { result: search as never } }, { expanded: true }, theme, {}),
			renderFetchResult({ content: [], details: { result: fetched as never } }, { expanded: true }, theme, {}),
		])
			expect(lines(component)).not.toMatch(UNSAFE);
	});
});
