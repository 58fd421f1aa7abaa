// Each thing said once, and what is missing said: a missing key in status, the continuation of a cut window, the
// overall deadline, a bad site pattern in its own error, two rules with one name (a located warning), the title
// line of an html fetch, and explain naming the guard's refusal of a private address and the GitHub rewrite.

import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FetchResult } from "../engine/result-types.ts";
import { fitFetch, formatFetch } from "../runtime/format.ts";
import { createSetup } from "../runtime/setup.ts";
import { formatStatus, statusReport } from "../runtime/status.ts";
import { loadConfigText } from "../schema/load.ts";
import { runCli } from "./helpers/cli-run.ts";

const home = mkdtempSync(join(tmpdir(), "pwa-said-once-"));
const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
const count = (text: string, word: string) => text.split(word).length - 1;

function configFile(config: unknown): string {
	const file = join(home, `cfg-${Math.random().toString(36).slice(2)}.json`);
	writeFileSync(file, JSON.stringify({ state: { persist: false }, ...(config as object) }));
	return file;
}

describe("said once", () => {
	it("status says a key from an unset variable is missing once", () => {
		const file = configFile({ providers: { exa: { type: "exa", apiKey: "$PWA_UNSET_KEY" } } });
		const line = formatStatus(
			statusReport(createSetup({ configFile: file, env }), { version: 1, cooldowns: [], keys: [] }),
		)
			.split("\n")
			.find((l) => l.startsWith("  exa "))!;
		expect(line).toBe("  exa (exa; search, fetch): missing: key1: $PWA_UNSET_KEY is not set (apiKey)");
		expect(count(line, "missing")).toBe(1);
	});

	it("a window cut to fit the output says where to continue once", () => {
		const result: FetchResult = {
			provider: "d",
			url: "https://docs.example.org/page",
			title: "A page",
			content: "x".repeat(20_000),
			extraction: "verbatim",
			truncated: true,
			nextOffset: 20_000,
			totalChars: 40_000,
			attempts: [{ provider: "d", outcome: "ok" }],
			warnings: [],
			latencyMs: 1,
		};
		const text = formatFetch(fitFetch(result, 0, 2_000), "web_fetch", 0);
		expect(count(text, "again with offset")).toBe(1);
		expect(text).toContain("text cut to fit the output limit (2000 characters)");
	});

	it("the overall deadline is named once in the failure", async () => {
		const server = createServer(() => {}); // never answers
		await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`;
		try {
			const file = configFile({
				providers: { d: { type: "direct", timeoutMs: 1000 }, e: { type: "direct", timeoutMs: 1000 } },
				fetch: ["d", "e"],
				fetchGuard: { allowRanges: ["127.0.0.0/8"] },
				policy: { cooldown: false },
			});
			const { code, stderr } = await runCli(["fetch", url, "--config", file], env);
			expect(code).toBe(1);
			expect(stderr).toContain("overall deadline of 2 s reached");
			expect(count(stderr, "overall deadline")).toBe(1);
		} finally {
			server.closeAllConnections();
			server.close();
		}
	}, 20_000);

	it("an invalid site pattern is named once in its error", () => {
		const loaded = loadConfigText(
			JSON.stringify({
				providers: { d: { type: "direct" } },
				rules: [{ name: "r", sites: ["go.dev", "*.*bad**"], fetch: ["d"] }],
			}),
			"cfg.json",
		);
		const [error] = loaded.diagnostics.filter((d) => d.severity === "error");
		expect(count(error!.message, "*.*bad**")).toBe(1);
		expect(error!.message).toMatch(/^invalid site pattern "\*\.\*bad\*\*": `\*` is only allowed/);
	});
});

describe("said at all", () => {
	it("two rules with the same name get a located warning on the second", () => {
		const text = [
			"{",
			'  providers: { d: { type: "direct" } },',
			"  rules: [",
			'    { name: "docs", sites: ["go.dev"], fetch: ["d"] },',
			'    { name: "docs", sites: ["docs.rs"], fetch: ["d"] },',
			"  ],",
			"}",
		].join("\n");
		const loaded = loadConfigText(text, "cfg.json5");
		expect(loaded.diagnostics).toHaveLength(1);
		expect(loaded.diagnostics[0]).toMatchObject({ severity: "warning", line: 5, col: 13, path: "/rules/1/name" });
		expect(loaded.diagnostics[0]?.message).toBe('rule 2 has the same name as rule 1, "docs"; both are used');
		expect(loaded.config.rules).toHaveLength(2);
	});

	it("a fetch with --format html keeps the page's title line", async () => {
		const page = "<html><head><title>Tea &amp; biscuits</title></head><body><p>Hello</p></body></html>";
		const server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page));
		await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a`;
		try {
			const file = configFile({ providers: { d: { type: "direct" } }, fetchGuard: { allowRanges: ["127.0.0.0/8"] } });
			const { code, stdout } = await runCli(["fetch", url, "--format", "html", "--config", file], env);
			expect(code).toBe(0);
			// The title is the page's text: the first line inside the untrusted-content block, as for the other formats.
			const inside = stdout.split("\n");
			const begin = inside.findIndex((line) => line.startsWith("<<<BEGIN UNTRUSTED WEB CONTENT"));
			expect(begin).toBeGreaterThanOrEqual(0);
			expect(inside.slice(begin + 1, begin + 4)).toContain("# Tea & biscuits");
		} finally {
			server.close();
		}
	});

	it("explain says the guard will refuse a private address, and why", async () => {
		const file = configFile({ providers: { d: { type: "direct" } } });
		const { code, stdout } = await runCli(["explain", "fetch", "http://127.0.0.1:8080/x", "--config", file], env);
		expect(code).toBe(0);
		expect(stdout).toContain(
			`note: d will be refused by the private-network guard: 127.0.0.1 is loopback (127.0.0.0/8); to allow it, add the range to fetchGuard.allowRanges in ${file}`,
		);
		const allowed = configFile({ providers: { d: { type: "direct" } }, fetchGuard: { allowRanges: ["127.0.0.0/8"] } });
		const ok = await runCli(["explain", "fetch", "http://127.0.0.1:8080/x", "--config", allowed], env);
		expect(ok.stdout).not.toContain("private-network guard");
		const json = JSON.parse(
			(await runCli(["explain", "--json", "fetch", "http://localhost/x", "--config", file], env)).stdout,
		);
		expect(json.notes[0]).toMatch(/^d will be refused by the private-network guard: localhost/);
	});

	it("explain says direct fetches a GitHub file view as the raw file", async () => {
		const file = configFile({ providers: { d: { type: "direct" } } });
		const url = "https://github.com/golang/go/blob/master/README.md";
		const { stdout } = await runCli(["explain", "fetch", url, "--config", file], env);
		expect(stdout).toContain(
			"note: d fetches https://raw.githubusercontent.com/golang/go/master/README.md instead (the raw file of this GitHub page)",
		);
	});
});
