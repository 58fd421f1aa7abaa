// What pi start-up costs us: the extension loaded as pi's bundled CLI loads it (test/helpers/pi-loader-child.ts)
// reads only the modules that define the tools and the command; rendering, the command's work, the host and
// everything below it load on first use (rendering at a TUI session's start, before pi draws anything of ours).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Text } from "@earendil-works/pi-tui";
import { afterAll, describe, expect, it } from "vitest";
import { startupConfigFile } from "../pi-web-access/index.ts";
import { CONFIG_FILE_NAMES, configPath } from "../schema/paths.ts";
import { loadExtension, useSandbox } from "./helpers/fake-pi.ts";
import { loadAsPi } from "./helpers/pi-loader.ts";

const ROOT = join(import.meta.dirname, "..");
const tmp = mkdtempSync(join(tmpdir(), "pi-web-access-startup-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** One load as pi does it, made once (a fresh child a few seconds long) and read by the tests that need it. */
let load: ReturnType<typeof loadAsPi> | undefined;
const asPi = () => {
	load ??= loadAsPi({ PATH: process.env.PATH ?? "", HOME: tmp, TMPDIR: tmp, PI_CODING_AGENT_DIR: tmp });
	return load;
};

describe("pi start-up", () => {
	it("reads one module of ours and the tool schemas as plain data at start-up", async () => {
		const { loaded, calls } = await asPi();
		// The factory, the tool definitions and the command's registration are one module (pi-web-access/index.ts):
		// each module pi's jiti loads costs a resolve, a read, a hash of its source, a cache read and a compile, and
		// what pi allocates at start-up decides whether its heap reaches a full garbage collection before it exits.
		// The schemas are written out ahead of time (extension/tool-schemas.json) and read as one file.
		expect([...loaded].sort()).toEqual(["pi-web-access/index.ts", "extension/tool-schemas.json"].sort());
		expect(calls).toEqual({
			registerTool: ["web_search", "web_fetch"],
			registerEntryRenderer: ["web-access"],
			registerCommand: ["web-access"],
			on: ["session_start", "session_shutdown"],
		});
	}, 90_000);

	it("reads its start-up modules as one byte a character and imports no Node built-in into them", async () => {
		const { loaded } = await asPi();
		const modules = loaded.filter((file) => file.endsWith(".ts"));
		expect(modules.length).toBeGreaterThan(0);
		for (const file of modules) {
			const text = readFileSync(join(ROOT, file), "utf8");
			// One character outside ASCII makes V8 keep the whole text two bytes a character, in every copy pi's jiti
			// makes of it (the source, its cached transform, the wrapped function it compiles).
			expect(
				[...text].filter((char) => char.charCodeAt(0) > 0x7f),
				file,
			).toEqual([]);
			// pi's jiti turns a static import of a built-in into an asynchronous import through Node's module loader;
			// process.getBuiltinModule gets the same module without one (type-only imports are erased).
			expect(text.match(/^import (?!type )[^;]*from "node:[^"]+";/gm) ?? [], file).toEqual([]);
		}
	}, 90_000);

	it("reads the tool names from the config file the loader reads (schema/paths.ts), whichever names are present", () => {
		const names = [...CONFIG_FILE_NAMES];
		const dir = mkdtempSync(join(tmp, "agent-"));
		const envs: Array<Record<string, string | undefined>> = [
			{ PI_CODING_AGENT_DIR: dir },
			{ PI_CODING_AGENT_DIR: dir, PI_WEB_ACCESS_CONFIG: join(tmp, "elsewhere.json") },
			{ HOME: tmp },
			{ PI_CODING_AGENT_DIR: "~/.pi-web-access-startup-test-absent" },
		];
		// Every subset of the three names present in the agent dir, each against every way of naming the dir.
		for (let present = 0; present < 2 ** names.length; present++) {
			names.forEach((name, at) => {
				if (present & (1 << at)) writeFileSync(join(dir, name), "{}");
				else rmSync(join(dir, name), { force: true });
			});
			for (const env of envs) expect(startupConfigFile(env), JSON.stringify(env)).toBe(configPath({ env }));
		}
	});
});

useSandbox();
const theme = { fg: (_color: string, text: string) => text, bold: (text: string) => text };

describe("rendering, loaded at a TUI session's start", () => {
	it("draws calls, results and reports with pi-tui once session_start has run in the TUI", async () => {
		const ext = loadExtension();
		await ext.emit("session_start", { mode: "tui" });
		const call = ext.tool("web_search").renderCall?.({ query: "golang generics" }, theme as never, {} as never);
		expect(call).toBeInstanceOf(Text);
		expect(call?.render(80).join("\n")).toContain("web_search golang generics");
		const result = ext
			.tool("web_fetch")
			.renderResult?.(
				{ content: [{ type: "text", text: "fetch cancelled" }], details: {} as never },
				{ expanded: false, isPartial: false },
				theme as never,
				{ isError: true } as never,
			);
		expect(result?.render(120)[0]?.trimEnd()).toBe("✗ fetch cancelled");
		const report = ext.entryRenderer("web-access")?.(
			{ data: { text: "search chain: exa", level: "info" } },
			{ expanded: false },
			theme,
		);
		expect(report?.render(80).map((line) => line.trimEnd())).toEqual(["web-access", "search chain: exa"]);
	});

	it("leaves drawing to pi (a renderer that throws gets pi's own) until it is loaded, never in print or json mode", async () => {
		const ext = loadExtension();
		await ext.emit("session_start", { mode: "json", hasUI: false });
		expect(() => ext.tool("web_search").renderCall?.({ query: "q" }, theme as never, {} as never)).toThrow(
			/not loaded/,
		);
	});
});
