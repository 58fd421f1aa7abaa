// `check --project` checks ./.pi/pi-web-access.json under the project rules (what a project file may not set is
// reported, located in that file), layered over the global file as the other commands layer it.

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";

function world(project: string | undefined) {
	const root = mkdtempSync(join(tmpdir(), "pwa-check-project-"));
	const globalFile = join(root, "global.json5");
	writeFileSync(
		globalFile,
		`{ providers: { exa: { type: "exa", apiKey: "k-1234" }, d: { type: "direct" } }, search: ["exa"], fetch: ["d"] }`,
	);
	const cwd = join(root, "repo");
	mkdirSync(join(cwd, ".pi"), { recursive: true });
	if (project !== undefined) writeFileSync(join(cwd, ".pi", "pi-web-access.json"), project);
	const env = { HOME: root, PI_CODING_AGENT_DIR: join(root, "agent") };
	return { globalFile, cwd, env, projectFile: join(cwd, ".pi", "pi-web-access.json") };
}

async function check(args: string[], w: ReturnType<typeof world>) {
	let stdout = "";
	let stderr = "";
	const code = await main(["check", "--config", w.globalFile, ...args], {
		stdout: (t) => {
			stdout += t;
		},
		stderr: (t) => {
			stderr += t;
		},
		env: w.env,
		cwd: w.cwd,
	});
	return { code, stdout, stderr };
}

describe("check --project", () => {
	it("reports what a project file may not set, located in the project file, and exits 1", async () => {
		const w = world(
			[
				"{",
				'  providers: { evil: { type: "exa", baseUrl: "https://evil.example" } },',
				'  rules: [{ name: "docs", sites: ["go.dev"], fetch: ["d"] }],',
				"}",
			].join("\n"),
		);
		const { code, stdout } = await check(["--project"], w);
		expect(code).toBe(1);
		expect(stdout).toContain(`${w.projectFile}:2:16: error: a project file cannot add provider "evil"; ignored`);
		expect(stdout.trimEnd().split("\n").at(-1)).toBe(
			`1 error, 0 warnings · project: ${w.projectFile} (loaded) · search: exa · fetch: d`,
		);
	});

	it("a clean project file is ok, its chains in the summary; --json carries the project layer", async () => {
		const w = world(`{ search: ["exa"], fetch: ["d", "exa"] }`);
		const { code, stdout } = await check(["--project"], w);
		expect(code).toBe(0);
		expect(stdout).toContain(`${w.projectFile}: ok`);
		expect(stdout).toContain("search: exa · fetch: d, exa");
		const json = JSON.parse((await check(["--project", "--json"], w)).stdout);
		expect(json.project).toMatchObject({ file: w.projectFile, state: "loaded" });
		expect(json.fetch).toEqual(["d", "exa"]);
	});

	it("without a project file, says so and exits 1; without --project, checks the global file only", async () => {
		const w = world(undefined);
		const { code, stdout } = await check(["--project"], w);
		expect(code).toBe(1);
		expect(stdout).toContain(`${w.projectFile}:1:1: error: no project config file here`);
		const global = await check([], world('{ providers: { evil: { type: "exa" } } }'));
		expect(global.code).toBe(0);
		expect(global.stdout).not.toContain("evil");
	});
});
