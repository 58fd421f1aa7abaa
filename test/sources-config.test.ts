// The `sources` config key end to end: loaded and checked with located diagnostics (a bad value loses that value
// only), refused in an untrusted project file, shown by explain on the fetch step that reads it, and honoured by a
// CLI fetch whose token comes from the environment and reaches the configured API origin only.

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSetup } from "../runtime/setup.ts";
import { loadConfigText } from "../schema/load.ts";
import { projectConfigPath } from "../schema/project.ts";
import { send } from "./direct-helpers.ts";
import { runCli } from "./helpers/cli-run.ts";
import { fixture, json, recordAuth, type SourceWorld, startSourceWorld } from "./helpers/source-world.ts";

const home = mkdtempSync(join(tmpdir(), "pwa-sources-"));
const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent"), GH_TEST_TOKEN: "ghp_SECRET_sources_0042" };

function configFile(config: unknown): string {
	const file = join(mkdtempSync(join(home, "cfg-")), "cfg.json");
	writeFileSync(file, JSON.stringify(config));
	return file;
}

describe("sources in the config", () => {
	it("keeps valid sources settings as written", () => {
		const loaded = loadConfigText(
			`{ providers: { direct: { type: "direct" } }, sources: { github: { apiUrl: "https://ghe.corp/api/v3", hosts: ["ghe.corp"], token: "$GHE_TOKEN" } } }`,
			"cfg.json5",
		);
		expect(loaded.diagnostics).toEqual([]);
		expect(loaded.config.sources).toEqual({
			github: { apiUrl: "https://ghe.corp/api/v3", hosts: ["ghe.corp"], token: "$GHE_TOKEN" },
		});
	});

	it("reports a bad origin at its line and column, dropping that setting only", () => {
		const text = [
			"{",
			'  providers: { direct: { type: "direct" } },',
			'  sources: { github: { apiUrl: "ftp://x", enabled: false } },',
			"}",
		].join("\n");
		const loaded = loadConfigText(text, "cfg.json5");
		expect(loaded.diagnostics).toHaveLength(1);
		expect(loaded.diagnostics[0]).toMatchObject({ severity: "error", line: 3, path: "/sources/github/apiUrl" });
		expect(loaded.diagnostics[0]?.col).toBeGreaterThan(20);
		expect(loaded.config.sources).toEqual({ github: { enabled: false } });
	});

	it("reports an unknown source with a located diagnostic", () => {
		const loaded = loadConfigText(`{ sources: { gitlab: { apiUrl: "https://gitlab.com/api/v4" } } }`, "cfg.json5");
		expect(loaded.diagnostics[0]).toMatchObject({ line: 1, path: "/sources/gitlab" });
		expect(loaded.diagnostics[0]?.message).toMatch(/gitlab/);
	});
});

describe("sources in a project file", () => {
	it("is refused unless the global file trusts project files: a project cannot send a token to its own origin", () => {
		const global = configFile({
			providers: { direct: { type: "direct" } },
			sources: { github: { token: "$GH_TEST_TOKEN" } },
		});
		const cwd = mkdtempSync(join(home, "project-"));
		const projectFile = projectConfigPath(cwd);
		mkdirSync(dirname(projectFile), { recursive: true });
		writeFileSync(projectFile, JSON.stringify({ sources: { github: { apiUrl: "https://attacker.example" } } }));
		const trust = { trusted: true, reason: "test" };
		const setup = createSetup({ configFile: global, env, project: { cwd, trust } });
		expect(setup.table.config.sources).toEqual({ github: { token: "$GH_TEST_TOKEN" } });
		expect(setup.loaded.diagnostics).toEqual([
			expect.objectContaining({ file: projectFile, path: "/sources", severity: "error" }),
		]);
	});
});

describe("explain fetch shows the reader", () => {
	it("names the reader, the API host and the fallback on the direct step", async () => {
		const file = configFile({ providers: { direct: { type: "direct" } } });
		const { stdout } = await runCli(
			["explain", "--config", file, "fetch", "https://github.com/acme/widget/issues/7"],
			env,
		);
		expect(stdout).toContain(
			"  1. direct (direct) ready\n     github-issue reader via api.github.com (credential: none (60 requests/hour)), fallback: page",
		);
		const asJson = await runCli(["explain", "--json", "--config", file, "fetch", "https://github.com/a/b/pull/1"], env);
		expect(JSON.parse(asJson.stdout).steps[0].reader).toEqual({
			reader: "github-issue",
			via: "api.github.com",
			fallback: "page",
			credential: "none (60 requests/hour)",
		});
	});

	it("follows the config: an enterprise origin and host, and nothing when switched off or for another page", async () => {
		const ghe = configFile({
			providers: { direct: { type: "direct" } },
			sources: { github: { apiUrl: "https://ghe.corp/api/v3", hosts: ["ghe.corp"] } },
		});
		const enterprise = await runCli(["explain", "--config", ghe, "fetch", "https://ghe.corp/a/b/issues/3"], env);
		expect(enterprise.stdout).toContain("github-issue reader via ghe.corp/api/v3 (credential: none), fallback: page");
		const publicHost = await runCli(["explain", "--config", ghe, "fetch", "https://github.com/a/b/issues/3"], env);
		expect(publicHost.stdout).not.toContain("reader via");
		const off = configFile({ providers: { direct: { type: "direct" } }, sources: { github: { enabled: false } } });
		const disabled = await runCli(["explain", "--config", off, "fetch", "https://github.com/a/b/issues/3"], env);
		expect(disabled.stdout).not.toContain("reader via");
		const other = await runCli(["explain", "--config", off, "fetch", "https://example.com/a/b/issues/3"], env);
		expect(other.stdout).not.toContain("reader via");
	});
});

describe("a CLI fetch through the github source", () => {
	let world: SourceWorld;
	beforeAll(async () => {
		world = await startSourceWorld();
		world.api.route("/repos/acme/widget/issues/7", recordAuth(world.auth.api, json(fixture("github", "issue-7.json"))));
		world.api.route(
			"/repos/acme/widget/issues/7/comments",
			recordAuth(world.auth.api, json(fixture("github", "issue-7-comments.json"))),
		);
		world.page.route("/acme/widget/issues/7", recordAuth(world.auth.page, send("<p>page</p>")));
	});
	afterAll(() => world.close());

	it("reads the issue through the configured origin with the token from the environment, printing no token", async () => {
		const file = configFile({
			providers: { direct: { type: "direct" } },
			fetchGuard: { allowRanges: ["127.0.0.1/32"] },
			sources: {
				github: { apiUrl: world.api.origin, hosts: [`127.0.0.1:${world.page.port}`], token: "$GH_TEST_TOKEN" },
			},
		});
		const url = `http://127.0.0.1:${world.page.port}/acme/widget/issues/7`;
		const { code, stdout, stderr } = await runCli(["fetch", url, "--config", file], env);
		expect(code).toBe(0);
		expect(stdout).toContain("## Conversation (3 comments,");
		expect(stdout).toContain("<<<BEGIN UNTRUSTED WEB CONTENT");
		expect(world.auth.api).toEqual([`Bearer ${env.GH_TEST_TOKEN}`, `Bearer ${env.GH_TEST_TOKEN}`]);
		expect(world.auth.page).toEqual([]);
		expect(`${stdout}${stderr}`).not.toContain(env.GH_TEST_TOKEN);
		const explained = await runCli(["explain", "--config", file, "fetch", url], env);
		expect(explained.stdout).toContain(
			`github-issue reader via 127.0.0.1:${world.api.port} (credential: sources.github.token), fallback: page`,
		);
		expect(explained.stdout).not.toContain(env.GH_TEST_TOKEN);
	});
});
