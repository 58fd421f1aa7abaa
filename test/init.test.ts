// `pi-web-access init [--force]` and `/web-access init`: the commented zero-config starter file, written to the
// config path and never over an existing file without --force; check, explain and status write nothing.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, loadConfigText } from "../schema/load.ts";
import { runCli as run } from "./helpers/cli-run.ts";
import { loadExtension, useSandbox } from "./helpers/fake-pi.ts";
import { diagnose, editor } from "./helpers/json-language.ts";

const KEY = "exa-init-test-0d9c8b7a6f";

function home() {
	const dir = mkdtempSync(join(tmpdir(), "pwa-init-"));
	const agent = join(dir, "agent");
	const env = { HOME: dir, PI_CODING_AGENT_DIR: agent, EXA_API_KEY: KEY, PI_WEB_ACCESS_BROWSER: "none" };
	return { dir, agent, env, file: join(agent, "pi-web-access.json") };
}

/** Every file under `dir` with its size and mtime: what "writes nothing" compares. */
function tree(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { recursive: true, encoding: "utf8" }).map((name) => {
		const s = statSync(join(dir, name));
		return `${name} ${s.size} ${s.mtimeMs}`;
	});
}

describe("pi-web-access init", () => {
	it("writes the derived set-up, a comment per provider on what it needs, and says what to edit next", async () => {
		const box = home();
		const offered = JSON.parse((await run(["status", "--json"], box.env)).stdout).startingFile;
		const result = await run(["init"], box.env);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain(`wrote ${box.file}`);
		expect(result.stdout).toMatch(/next: .*providers/);
		expect(result.stdout).toContain("pi-web-access check");
		const text = readFileSync(box.file, "utf8");
		// What status offers is what init writes, $schema included.
		expect(text).toBe(offered);
		expect(text).not.toContain(KEY);
		expect(text).toContain("Needs a key: found in $EXA_API_KEY.");
		expect(text).toContain("Needs no key.");
		expect(text).toMatch(
			/\/\/ .*\n\t\t"exa": \{ "type": "exa" \},\n\t\t\/\/ .*\n\t\t"direct": \{ "type": "direct" \}\n/,
		);
		// The loader reads it clean, the way zero-config would run; VS Code's jsonc mode reports nothing.
		const loaded = loadConfig({ env: box.env });
		expect(loaded.diagnostics).toEqual([]);
		expect(loaded.config.search).toEqual(["exa"]);
		expect(loaded.config.fetch).toEqual(["exa", "direct"]);
		const vscode = editor();
		expect(await diagnose(vscode, box.file, text)).toEqual([]);
		expect(vscode.requested).toHaveLength(1);
	}, 60_000);

	it("never overwrites an existing file without --force (exit 1, file unchanged), and replaces it with --force", async () => {
		const box = home();
		mkdirSync(box.agent, { recursive: true });
		writeFileSync(box.file, "{ /* mine */ }");
		const refused = await run(["init"], box.env);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toContain(`${box.file} already exists and was not changed`);
		expect(refused.stderr).toContain("pi-web-access init --force");
		expect(readFileSync(box.file, "utf8")).toBe("{ /* mine */ }");
		const forced = await run(["init", "--force", "--json"], box.env);
		expect(forced.code).toBe(0);
		expect(JSON.parse(forced.stdout)).toMatchObject({ written: true, file: box.file, schema: { source: "checkout" } });
		expect(readFileSync(box.file, "utf8")).toContain('"$schema"');
	}, 60_000);

	it("finds an existing pi-web-access.jsonc and refuses to write beside it; --config picks the path", async () => {
		const box = home();
		mkdirSync(box.agent, { recursive: true });
		writeFileSync(join(box.agent, "pi-web-access.jsonc"), "{}");
		const refused = await run(["init"], box.env);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toContain(join(box.agent, "pi-web-access.jsonc"));
		expect(existsSync(box.file)).toBe(false);
		const elsewhere = join(box.dir, "project", "web.jsonc");
		expect((await run(["init", "--config", elsewhere], box.env)).code).toBe(0);
		expect(loadConfigText(readFileSync(elsewhere, "utf8"), elsewhere).diagnostics).toEqual([]);
	}, 60_000);

	it("check, explain and status write nothing, with or without a config file", async () => {
		const box = home();
		mkdirSync(box.agent, { recursive: true });
		const before = tree(box.dir);
		for (const argv of [["check"], ["explain", "search", "golang"], ["status"], ["status", "--json"]]) {
			expect((await run(argv, box.env)).code).toBe(0);
		}
		expect(tree(box.dir)).toEqual(before);
		await run(["init"], box.env);
		const written = tree(box.dir);
		for (const argv of [["check"], ["explain", "fetch", "https://go.dev/doc"], ["status"]]) await run(argv, box.env);
		expect(tree(box.dir)).toEqual(written);
	}, 60_000);
});

describe("/web-access init", () => {
	const box = useSandbox();

	it("writes the starter file to the config path, refuses to overwrite it, and replaces it with --force", async () => {
		const file = process.env.PI_WEB_ACCESS_CONFIG as string;
		process.env.EXA_API_KEY = box.key;
		const ext = loadExtension();
		const [written] = await ext.command("init");
		expect(written).toMatchObject({ level: "info", message: expect.stringContaining(`wrote ${file}`) });
		const text = readFileSync(file, "utf8");
		expect(text).toContain("Needs a key: found in $EXA_API_KEY.");
		box.expectNoKey(text);
		writeFileSync(file, "{}");
		const [refused] = await ext.command("init");
		expect(refused).toMatchObject({ level: "warning", message: expect.stringContaining("`/web-access init --force`") });
		expect(readFileSync(file, "utf8")).toBe("{}");
		await ext.command("init --force");
		expect(readFileSync(file, "utf8")).toBe(text);
		expect((await ext.command("init --forse"))[0]?.message).toContain("usage:");
	});
});
