// What pi start-up costs us: the extension loaded as pi's bundled CLI loads it (test/helpers/pi-loader-child.ts)
// reads only the modules that define the tools and the command; rendering, the command's work, the host and
// everything below it load on first use (rendering at a TUI session's start, before pi draws anything of ours).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Text } from "@earendil-works/pi-tui";
import { afterAll, describe, expect, it } from "vitest";
import { loadExtension, useSandbox } from "./helpers/fake-pi.ts";
import { loadAsPi } from "./helpers/pi-loader.ts";

const tmp = mkdtempSync(join(tmpdir(), "pi-web-access-startup-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const asPi = () => loadAsPi({ PATH: process.env.PATH ?? "", HOME: tmp, TMPDIR: tmp, PI_CODING_AGENT_DIR: tmp });

describe("pi start-up", () => {
	it("loads only the entry, the factory, the config's path, the tool definitions and their schemas as plain data", async () => {
		const { loaded, calls } = await asPi();
		// Not the typebox builders (extension/schemas.ts) nor the engine constants they read: the schemas pi registers
		// are written out ahead of time (extension/tool-schemas.json), each module being a cost of its own in pi's jiti.
		expect([...loaded].sort()).toEqual(
			[
				"pi-web-access/index.ts",
				"extension/index.ts",
				"extension/command-info.ts",
				"runtime/files.ts",
				"schema/paths.ts",
				"extension/tools.ts",
				"extension/tool-schemas.json",
			].sort(),
		);
		expect(calls).toEqual({
			registerTool: ["web_search", "web_fetch"],
			registerEntryRenderer: ["web-access"],
			registerCommand: ["web-access"],
			on: ["session_start", "session_shutdown"],
		});
	}, 90_000);
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
