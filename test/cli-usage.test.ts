// Usage mistakes on the command line: a misspelt command, flag, provider name or config value gets a "did you
// mean", a usage error prints one line of usage for its command (not the whole usage), and a URL without a scheme
// is fetched over https with a note saying so.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli-run.ts";

const home = mkdtempSync(join(tmpdir(), "pwa-cli-usage-"));
const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
const config = join(home, "cfg.json5");
writeFileSync(
	config,
	`{ providers: { exa: { type: "exa", apiKey: "k-1234" }, d: { type: "direct" } }, search: ["exa"], fetch: ["d"] }`,
);

describe("did you mean", () => {
	it("a misspelt command: exit 2, the suggestion, and one line of usage", async () => {
		const { code, stderr, stdout } = await runCli(["serch", "golang"], env);
		expect(code).toBe(2);
		expect(stdout).toBe("");
		expect(stderr).toBe(
			'pi-web-access: unknown command "serch" (did you mean "search"?)\n' +
				"commands: check, explain, search, fetch, status, init; pi-web-access --help shows the usage\n",
		);
	});

	it("a misspelt flag: the suggestion and the usage line of the command at hand", async () => {
		const { code, stderr } = await runCli(["search", "q", "--max-result", "3"], env);
		expect(code).toBe(2);
		const [message, usage, more] = stderr.trimEnd().split("\n");
		expect(message).toBe('pi-web-access: unknown option "--max-result" (did you mean "--max-results"?)');
		expect(usage).toMatch(/^usage: pi-web-access search +\[--config F\] .*--max-results N/);
		expect(more).toBe("pi-web-access --help shows every command");
		expect(stderr.split("\n")).toHaveLength(4);
	});

	it("a misspelt provider name: exit 2 before any network, with the configured names", async () => {
		for (const command of [
			["search", "q"],
			["explain", "search", "q"],
		]) {
			const { code, stderr } = await runCli([...command, "--provider", "exaa", "--config", config], env);
			expect(code, command.join(" ")).toBe(2);
			expect(stderr.split("\n")[0]).toBe(
				'pi-web-access: provider "exaa" is not configured (did you mean "exa"?); configured: exa, d',
			);
		}
	});

	it("a misspelt config value (a provider type) gets a did-you-mean fix", async () => {
		const file = join(home, "typo.json5");
		writeFileSync(file, `{ providers: { sx: { type: "searxg", baseUrl: "http://127.0.0.1:8888" } } }`);
		const { code, stdout } = await runCli(["check", "--config", file], env);
		expect(code).toBe(1);
		expect(stdout).toMatch(/typo\.json5:1:28: error: \/providers\/sx\/type must be one of .*\(fix: use "searxng"\)/);
	});
});

describe("fetch without a scheme", () => {
	it("assumes https:// and says so", async () => {
		const { code, stdout, stderr } = await runCli(["explain", "fetch", "go.dev/doc", "--config", config], env);
		expect(code).toBe(0);
		expect(stderr).toContain('pi-web-access: "go.dev/doc" has no scheme; using https://go.dev/doc\n');
		expect(stdout).toContain("https://go.dev/doc");
	});

	it("leaves a URL with a scheme, and anything that is not a host name, as it is", async () => {
		const ftp = await runCli(["explain", "fetch", "ftp://go.dev/doc", "--config", config], env);
		expect(ftp.code).toBe(2);
		expect(ftp.stderr).not.toContain("has no scheme");
		const word = await runCli(["explain", "fetch", "notaurl", "--config", config], env);
		expect(word.code).toBe(2);
		expect(word.stderr).not.toContain("has no scheme");
	});
});
