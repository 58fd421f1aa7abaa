// `pi-web-access status`: the same report as /web-access; it reports and never fails (exit 0 when nothing is ready).

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli as run } from "./helpers/cli-run.ts";

describe("pi-web-access status", () => {
	it("exits 0 with providers that are not ready, and --json carries the report", async () => {
		const home = mkdtempSync(join(tmpdir(), "pwa-status-cli-"));
		const file = join(home, "cfg.json5");
		writeFileSync(
			file,
			`{ providers: { exa: { type: "exa" }, d: { type: "direct" } }, search: ["exa"], fetch: ["exa", "d"] }`,
		);
		const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
		const text = await run(["status", "--config", file], env);
		expect(text.code).toBe(0);
		expect(text.stdout).toContain("exa (exa; search, fetch): missing: no key: set EXA_API_KEY or set apiKey");
		expect(text.stdout).toContain("fetch chain: exa → d");
		const json = await run(["status", "--json", "--config", file], env);
		expect(json.code).toBe(0);
		const report = JSON.parse(json.stdout);
		expect(report).toMatchObject({
			file,
			exists: true,
			loaded: true,
			zeroConfig: false,
			search: ["exa"],
			fetch: ["exa", "d"],
		});
		expect(
			report.providers.map((p: { name: string; credentials: { state: string } }) => [p.name, p.credentials.state]),
		).toEqual([
			["exa", "missing"],
			["d", "none needed"],
		]);
	}, 60_000);

	it("with no config file shows the zero-config set-up and offers it as a starting file", async () => {
		const home = mkdtempSync(join(tmpdir(), "pwa-status-zero-"));
		const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent"), TAVILY_API_KEY: "tvly-zero-config-key" };
		const { code, stdout } = await run(["status"], env);
		expect(code).toBe(0);
		expect(stdout).toContain("not found — zero-config from what pi knows");
		expect(stdout).toContain("search chain: tavily");
		expect(stdout).toContain("fetch chain: tavily → direct");
		expect(stdout).toContain('"direct": {');
		expect(stdout).not.toContain("tvly-zero-config-key");
	}, 60_000);
});
