// The /web-access command and the extension's registration and lifecycle, driven without pi
// (test/helpers/fake-pi.ts): status, explain and reload output (never a key), tool renames, session_start diagnostics.

import { describe, expect, it } from "vitest";
import { WARM_DELAY_MS } from "../pi-web-access/index.ts";
import { waitFor } from "./e2e/fakes.ts";
import { loadExtension, useSandbox } from "./helpers/fake-pi.ts";

const box = useSandbox();

describe("/web-access", () => {
	const config = () => ({
		providers: { exa: box.exa(box.first), backup: box.exa(box.second, { apiKey: "$PI_WEB_ACCESS_TEST_UNSET" }) },
		search: ["exa", "backup"],
		fetch: ["exa"],
		rules: [{ name: "Go docs", sites: ["go.dev"], search: ["backup", "exa"] }],
		policy: { maxAttempts: 3, bogus: true },
		state: { persist: false },
	});

	it("shows providers, chains, rules and diagnostics, and no part of the key", async () => {
		const file = box.writeConfig(config());
		const ext = loadExtension();
		const [status] = await ext.command("");
		expect(status?.level).toBe("info");
		const text = status?.message ?? "";
		expect(text).toContain(`config: ${file} (loaded)`);
		expect(text).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:\\d+:\\d+`));
		expect(text).toContain("bogus");
		expect(text).toMatch(/exa \(exa; search, fetch\): ready \(apiKey\)/);
		expect(text).toMatch(/backup \(exa; search, fetch\): missing: .*\$PI_WEB_ACCESS_TEST_UNSET is not set/);
		expect(text).toContain("search chain: exa → backup");
		expect(text).toContain("fetch chain: exa");
		expect(text).toMatch(/Go docs: sites go\.dev: search → backup, exa/);
		box.expectNoKey(text);
		const explained = [
			...(await ext.command("explain golang generics site:go.dev")),
			...(await ext.command("explain https://go.dev/doc")),
		];
		expect(explained).toHaveLength(2);
		expect(explained[0]?.message).toContain("Go docs");
		for (const note of explained) box.expectNoKey(note.message);
		// After a real call too (the key has been resolved and used).
		await ext.call("web_search", { query: "q" });
		const [after] = await ext.command("status");
		box.expectNoKey(after?.message ?? "");
	});

	it("answers unknown subcommands with usage, and reload picks up an edited file", async () => {
		const clean = { ...config(), policy: {} };
		box.writeConfig(clean);
		const ext = loadExtension();
		expect((await ext.command("frobnicate"))[0]).toMatchObject({
			level: "warning",
			message: expect.stringContaining("usage:"),
		});
		box.writeConfig({ ...clean, search: ["backup", "exa"] });
		const reloaded = (await ext.command("reload")).map((n) => n.message).join("\n");
		expect(reloaded).toContain("config reloaded");
		expect(reloaded).toContain("search chain: backup → exa");
		box.writeConfig({ ...clean, search: ["exa"], policy: { bogus: 1 } });
		const withProblems = (await ext.command("reload")).map((n) => n.message).join("\n");
		expect(withProblems).toMatch(
			/reloaded with problems:\n.*pi-web-access\.json:\d+:\d+: warning: unknown key "bogus"/,
		);
		expect((await ext.command("status"))[0]?.message).toContain("search chain: exa\n");
	});
});

describe("registration and lifecycle", () => {
	it("registers web_search, web_fetch and /web-access by default", () => {
		const ext = loadExtension();
		expect([...ext.tools.keys()]).toEqual(["web_search", "web_fetch"]);
		expect([...ext.commands.keys()]).toEqual(["web-access"]);
	});

	it("renames or disables tools from the config's tools section", async () => {
		box.writeConfig({
			providers: { exa: box.exa(box.first) },
			tools: { web_search: { name: "search_web" }, web_fetch: { enabled: false } },
			state: { persist: false },
		});
		const ext = loadExtension();
		expect([...ext.tools.keys()]).toEqual(["search_web"]);
		const tool = ext.tools.get("search_web");
		expect(tool?.promptGuidelines?.every((g) => g.includes("search_web"))).toBe(true);
		const out = await ext.call("search_web", { query: "renamed" });
		expect(out.structuredContent.provider).toBe("exa");
	});

	it("names a renamed fetch tool when it says how to continue a page", async () => {
		box.first.reply = () => ({
			json: { results: [{ url: "https://docs.example.org/long", text: "word ".repeat(5000) }] },
		});
		box.writeConfig({
			providers: { exa: box.exa(box.first) },
			tools: { web_fetch: { name: "read_url" } },
			state: { persist: false },
		});
		const ext = loadExtension();
		expect([...ext.tools.keys()]).toEqual(["web_search", "read_url"]);
		const out = await ext.call("read_url", { url: "https://docs.example.org/long", maxChars: 1000 });
		const text = out.content[0]?.text ?? "";
		expect(text).toContain("call read_url again with offset 1000");
		expect(text).not.toContain("web_fetch");
	});

	it("reports a broken config at session_start with file:line:col and still registers the tools", async () => {
		const file = box.writeConfig('{\n  providers: {\n    exa: { type: "exa" ,, }\n  }\n}\n');
		const ext = loadExtension();
		expect([...ext.tools.keys()]).toEqual(["web_search", "web_fetch"]);
		await ext.emit("session_start");
		// session_start only schedules the load; the diagnostics follow once the host is loaded in the background.
		expect(ext.notes).toHaveLength(0);
		await waitFor("the start-up diagnostics", () => (ext.notes.length > 0 ? true : undefined), 20_000);
		await ext.emit("session_shutdown");
		expect(ext.notes).toHaveLength(1);
		expect(ext.notes[0]?.level).toBe("error");
		expect(ext.notes[0]?.message).toContain(`${file}:3:`);
		expect(ext.notes[0]?.message).toMatch(/syntax error/);
	});

	it("does not load the host when the session ends before the background load starts", async () => {
		box.writeConfig('{\n  providers: {\n    exa: { type: "exa" ,, }\n  }\n}\n');
		const ext = loadExtension();
		await ext.emit("session_start");
		await ext.emit("session_shutdown");
		await new Promise((done) => setTimeout(done, WARM_DELAY_MS + 200));
		expect(ext.notes).toEqual([]);
	});
});

describe("a live reload of a broken file", () => {
	const good = () => ({ providers: { exa: box.exa(box.first) }, search: ["exa"], state: { persist: false } });
	const broken = '{\n  providers: {\n    exa: { type: "exa" ,, }\n  }\n}\n';

	it("keeps the last good config and says only that; /web-access shows the file on disk is broken now", async () => {
		box.writeConfig(good());
		const ext = loadExtension();
		expect((await ext.command("status"))[0]?.message).toContain("(loaded)");
		const file = box.writeConfig(broken);
		const said = (await ext.command("reload")).map((n) => n.message).join("\n");
		expect(said).toMatch(
			/pi-web-access\.json is not usable \(3:\d+ syntax error[^\n]*\): keeping the last good config/,
		);
		expect(said).not.toContain("zero-config");
		expect(said).toContain(`${file}:3:`);
		const status = (await ext.command("status"))[0]?.message ?? "";
		expect(status).toContain(
			`config: ${file} (loaded; the file on disk is broken now: running on the last good config)`,
		);
		expect(status).toContain(`${file}:3:`);
		expect(status).toContain("search chain: exa");
		expect(status).not.toContain("zero-config");
		box.writeConfig(good());
		await ext.command("reload");
		const fixed = (await ext.command("status"))[0]?.message ?? "";
		expect(fixed).toContain(`config: ${file} (loaded)\n`);
		expect(fixed).not.toContain(`${file}:3:`);
	});

	it("says it runs on zero-config, and nothing about a last good config, when none was loaded", async () => {
		const file = box.writeConfig(broken);
		const ext = loadExtension();
		await ext.command("status");
		box.writeConfig(`${broken}\n`);
		const said = (await ext.command("reload")).map((n) => n.message).join("\n");
		expect(said).toMatch(/is not usable \(3:\d+ syntax error[^\n]*\): running on zero-config/);
		expect(said).not.toContain("last good config");
		expect((await ext.command("status"))[0]?.message).toContain(
			`config: ${file} (NOT usable — running on zero-config until it is fixed)`,
		);
	});
});

describe("what /web-access tells the person to run", () => {
	/** A `pi-web-access <command>` the person is told to run: pi install puts no such command on PATH. */
	const CLI_COMMAND = /`pi-web-access (init|check|status|explain|search|fetch)/;
	/** Lines naming the CLI that do not name `/web-access` before it. */
	const cliFirst = (text: string) =>
		text.split("\n").filter((line) => {
			const cli = line.search(CLI_COMMAND);
			const pi = line.indexOf("`/web-access");
			return cli >= 0 && (pi < 0 || pi > cli);
		});

	it("leads with /web-access init and /web-access in zero-config status and after init, never the CLI first", async () => {
		// No file named: the agent dir's pi-web-access.json is looked for, and zero-config runs without it.
		delete process.env.PI_WEB_ACCESS_CONFIG;
		const ext = loadExtension();
		const status = (await ext.command("status"))[0]?.message ?? "";
		expect(status).toContain("To customise, run `/web-access init`");
		expect(cliFirst(status)).toEqual([]);
		const init = (await ext.command("init"))[0]?.message ?? "";
		expect(init).toMatch(/^wrote .*pi-web-access\.json/);
		expect(init).toContain("then `/web-access` shows problems as file:line:col");
		expect(cliFirst(init)).toEqual([]);
		const again = (await ext.command("init"))[0]?.message ?? "";
		expect(again).toContain("`/web-access init --force` replaces it");
	});
});
