// Tests and read-only commands leave no trace: vitest runs with a temp HOME, agent dir and TMPDIR (see
// test/global-setup.ts, which also fails the run if the real home changed), and check, explain and status write
// no file anywhere — not pi's auth.json, not a lock, not our state file — with or without pi's registry.

import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const bin = join(root, "cli", "bin.js");

function tree(dir: string): string[] {
	return readdirSync(dir, { recursive: true })
		.map(String)
		.map((p) => `${p}${statSync(join(dir, p)).isDirectory() ? "/" : ""}`)
		.sort();
}

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string }> {
	return new Promise((done) => {
		execFile(process.execPath, [bin, ...args], { cwd: env.HOME, env }, (error, stdout) =>
			done({ code: error ? Number(error.code ?? 1) : 0, stdout }),
		);
	});
}

describe("hermetic", () => {
	it("runs every test with a temp HOME and agent dir, never the real ones", () => {
		const real = process.env.PI_WEB_ACCESS_REAL_HOME;
		expect(real).toBeTruthy();
		expect(process.env.HOME).not.toBe(real);
		expect(process.env.PI_CODING_AGENT_DIR?.startsWith(process.env.HOME ?? "-")).toBe(true);
		expect(process.env.TMPDIR).not.toBe("/tmp");
	});

	const configs: Record<string, string | undefined> = {
		"no config file (zero-config reads pi's registry)": undefined,
		"a provider that takes its key from pi": JSON.stringify({
			providers: { ds: { type: "deepseek" }, grok: { type: "sub2api-grok", provider: "gw", model: "grok-4" } },
		}),
		"env keys only": JSON.stringify({ providers: { exa: { type: "exa", apiKey: "$EXA_API_KEY" } } }),
	};
	for (const [name, config] of Object.entries(configs)) {
		it(`check, explain and status create no file: ${name}`, async () => {
			const home = mkdtempSync(join(tmpdir(), "pwa-hermetic-"));
			const agent = join(home, ".pi", "agent");
			mkdirSync(agent, { recursive: true });
			if (config) writeFileSync(join(agent, "pi-web-access.json"), config);
			const env = { PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: agent, PI_OFFLINE: "1" };
			const before = tree(home);
			const runs = [["check"], ["explain", "search", "golang generics site:go.dev"], ["status", "--json"]];
			const codes = await Promise.all(runs.map(async (args) => (await cli(args, env)).code));
			expect(codes.every((code) => code === 0 || code === 1)).toBe(true);
			expect(tree(home)).toEqual(before);
		}, 120_000);
	}

	it("status says where credentials came from", async () => {
		const home = mkdtempSync(join(tmpdir(), "pwa-hermetic-"));
		const agent = join(home, ".pi", "agent");
		mkdirSync(agent, { recursive: true });
		const env = { PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: agent, PI_OFFLINE: "1" };
		const zero = await cli(["status", "--json"], env);
		expect(JSON.parse(zero.stdout).pi).toEqual({ use: "registry", version: expect.any(String) });
		writeFileSync(join(agent, "pi-web-access.json"), configs["env keys only"]!);
		const plain = await cli(["status"], env);
		expect(plain.stdout).toContain("pi: not consulted");
	}, 120_000);
});
