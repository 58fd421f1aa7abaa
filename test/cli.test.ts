// The CLI as users and other tools run it: a real child process of cli/bin.js on the pinned Node.

import { execFile, execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const bin = join(root, "cli", "bin.js");
const home = mkdtempSync(join(tmpdir(), "pwa-cli-"));

function cli(
	args: string[],
	env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			[bin, ...args],
			{
				cwd: root,
				env: { PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: join(home, "agent"), ...env },
			},
			(error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
		);
	});
}

function configFile(text: string): string {
	const dir = mkdtempSync(join(tmpdir(), "pwa-cfg-"));
	const file = join(dir, "cfg.json5");
	writeFileSync(file, text);
	return file;
}

describe("pi-web-access CLI", () => {
	it("check prints file:line:col diagnostics and exits 1 on errors", async () => {
		const file = configFile(`{\n  providers: { exa: { type: "exa", timeoutMs: "x" } },\n  serch: [],\n}`);
		const { code, stdout } = await cli(["check", "--config", file]);
		expect(code).toBe(1);
		expect(stdout).toContain(`${file}:2:47: error:`);
		expect(stdout).toContain(`${file}:3:3: warning: unknown key "serch" (did you mean "search"?)`);
	});

	it("check --json prints the diagnostics as data and exits 0 on warnings only", async () => {
		const file = configFile(`{ providers: { exa: { type: "exa" } }, search: ["exa", "nope"] }`);
		const { code, stdout } = await cli(["check", "--json", "--config", file]);
		expect(code).toBe(0);
		const json = JSON.parse(stdout);
		expect(json.diagnostics).toEqual([expect.objectContaining({ severity: "warning", line: 1, path: "/search/1" })]);
	});

	it("check ends with a summary line and exits 1 when a misspelt key leaves nothing to serve", async () => {
		const file = configFile(`{ provders: { exa: { type: "exa" } } }`);
		const { code, stdout } = await cli(["check", "--config", file]);
		expect(code).toBe(1);
		expect(stdout).toContain(`${file}:1:3: warning: unknown key "provders"`);
		expect(stdout).toMatch(/warning: the default search chain is empty.*\(fix: /);
		expect(stdout).toMatch(/warning: the default fetch chain is empty.*\(fix: add the keyless direct/);
		expect(stdout).toMatch(/error: no call can be served with this file/);
		expect(stdout.trimEnd().split("\n").at(-1)).toBe("1 error, 3 warnings · search: (empty) · fetch: (empty)");
	});

	it("check --strict fails on warnings; the summary names the default chains; --json adds them as fields", async () => {
		const file = configFile(
			`{ providers: { exa: { type: "exa" }, direct: { type: "direct" } }, search: ["exa", "nope"], rules: [{ name: "r", sites: ["x.com"], search: ["gone"] }] }`,
		);
		const plain = await cli(["check", "--config", file]);
		expect(plain.code).toBe(0);
		expect(plain.stdout).toMatch(/warning: every rule was dropped/);
		expect(plain.stdout.trimEnd().split("\n").at(-1)).toMatch(
			/^0 errors, \d+ warnings · search: exa · fetch: exa, direct$/,
		);
		expect((await cli(["check", "--strict", "--config", file])).code).toBe(1);
		const json = JSON.parse((await cli(["check", "--json", "--config", file])).stdout);
		expect(json).toMatchObject({ errors: 0, search: ["exa"], fetch: ["exa", "direct"], usable: true });
		expect(json.summary).toMatch(/^0 errors, \d+ warnings · search: exa · fetch: exa, direct$/);
	});

	it("explain prints the plan with flags standing anywhere after the command word", async () => {
		const { code, stdout } = await cli([
			"explain",
			"search",
			"golang generics site:go.dev",
			"--config",
			join(root, "examples", "seed-layout.json5"),
			"--json",
		]);
		expect(code).toBe(0);
		const json = JSON.parse(stdout);
		expect(json).toMatchObject({
			capability: "search",
			request: { query: "golang generics", domains: ["go.dev"], excludeDomains: [] },
			source: "rule",
			rule: { name: "Go", index: 2, site: "go.dev", matched: "go.dev" },
			chain: ["exa", "codex-search"],
		});
		expect(json.steps[0]).toMatchObject({ provider: "exa", type: "exa", status: "skipped" });
	});

	it("explain fetch takes --domains style flags and a URL", async () => {
		const file = configFile(
			`{ providers: { d: { type: "direct" } }, rules: [{ name: "pdf", fileTypes: ["pdf"], fetch: ["d"] }] }`,
		);
		const { code, stdout } = await cli(["explain", "--config", file, "fetch", "https://arxiv.org/pdf/x.pdf"]);
		expect(code).toBe(0);
		expect(stdout).toContain('rule "pdf" (#1) matched: by its other conditions');
		expect(stdout).toContain("1. d (direct) ready");
	});

	it("bad arguments are usage errors on stderr with exit 2", async () => {
		const cases = [
			["explode"],
			["explain", "search"],
			["explain", "search", "q", "--recency", "fortnight"],
			["search", "q", "--max-results", "99"],
			["explain", "fetch", "ftp://x"],
			["check", "--bogus"],
		];
		const outcomes = await Promise.all(cases.map((args) => cli(args)));
		outcomes.forEach(({ code, stderr }, i) => {
			expect(code, cases[i]?.join(" ")).toBe(2);
			expect(stderr).toMatch(/usage/);
		});
	});
});

/** A Node older than 22.19 on this machine (the system one often is), or undefined. */
function oldNode(): string | undefined {
	for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
		try {
			const version = execFileSync(candidate, ["--version"], { encoding: "utf8" }).trim().slice(1);
			const [major = 0, minor = 0] = version.split(".").map(Number);
			if (major < 22 || (major === 22 && minor < 19)) return candidate;
		} catch {
			// not there
		}
	}
	return undefined;
}

const old = oldNode();
describe.skipIf(!old)("the bin on an old Node", () => {
	it("prints one line naming the requirement and exits 2 before importing anything", () => {
		const run = spawnSync(old!, [bin, "--help"], { encoding: "utf8" });
		expect(run.status).toBe(2);
		expect(run.stdout).toBe("");
		expect(run.stderr).toMatch(/^pi-web-access needs Node ≥ 22\.19; this is \d+\.\d+\.\d+\n$/);
	});
});
