// pi and the CLI take one decision on a project's `.pi/pi-web-access.json`. pi's own answer comes from pi's exported
// trust functions (the oracle: pi trusts a folder holding none of the resources it guards unless a saved decision
// says otherwise, and without a prompt trusts a guarded folder only by a saved decision). The extension's path runs
// in-process through the host; the CLI's `status --json` runs as a child process.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hasTrustRequiringProjectResources, ProjectTrustStore } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { createHost } from "../extension/host.ts";
import { projectConfigPath } from "../schema/project.ts";
import { spawnCli } from "./helpers/cli-spawn.ts";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Scenario {
	description: string;
	/** Files under the project's `.pi/` beside pi-web-access.json (pi guards settings.json, extensions, …). */
	guarded?: string;
	/** pi's saved decision for the project folder (trust.json). */
	saved?: boolean;
	/** The agent dir's settings.json `defaultProjectTrust`. */
	defaultTrust?: "always" | "never" | "ask";
}

const SCENARIOS: Scenario[] = [
	{ description: "a folder holding only our file, nothing saved" },
	{ description: "a folder holding only our file, saved as not trusted", saved: false },
	{ description: "a guarded folder, nothing saved", guarded: "settings.json" },
	{ description: "a guarded folder, saved as trusted", guarded: "extensions", saved: true },
	{ description: "a guarded folder, defaultProjectTrust always", guarded: "settings.json", defaultTrust: "always" },
	{ description: "a guarded folder, defaultProjectTrust never", guarded: "prompts", defaultTrust: "never" },
];

function layout(scenario: Scenario) {
	const root = mkdtempSync(join(tmpdir(), "pwa-trust-"));
	dirs.push(root);
	const agent = join(root, "agent");
	mkdirSync(agent);
	const config = join(agent, "pi-web-access.json");
	writeFileSync(config, JSON.stringify({ providers: { d: { type: "direct" } } }));
	const cwd = join(root, "repo");
	mkdirSync(join(cwd, ".pi"), { recursive: true });
	writeFileSync(projectConfigPath(cwd), `{ "policy": { "maxAttempts": 2 } }`);
	if (scenario.guarded) writeFileSync(join(cwd, ".pi", scenario.guarded), "{}");
	if (scenario.defaultTrust) {
		writeFileSync(join(agent, "settings.json"), JSON.stringify({ defaultProjectTrust: scenario.defaultTrust }));
	}
	if (scenario.saved !== undefined) new ProjectTrustStore(agent).set(cwd, scenario.saved);
	return { root, agent, config, cwd };
}

/** pi's decision at start-up without a prompt (pi-coding-agent's main.js and core/project-trust.js). */
function piDecision(agent: string, cwd: string, defaultTrust: Scenario["defaultTrust"]): boolean {
	const saved = new ProjectTrustStore(agent).get(cwd);
	if (!hasTrustRequiringProjectResources(cwd)) return saved ?? true;
	return saved ?? defaultTrust === "always";
}

describe("project trust: pi and the CLI agree", () => {
	for (const scenario of SCENARIOS) {
		it(`${scenario.description}`, async () => {
			const { root, agent, config, cwd } = layout(scenario);
			const trusted = piDecision(agent, cwd, scenario.defaultTrust);
			const env = { HOME: root, PI_CODING_AGENT_DIR: agent };
			const host = createHost({ env, context: { cwd, isProjectTrusted: () => trusted } });
			const inPi = host.setup().project?.state;
			host.close();
			const run = await spawnCli(["status", "--json", "--config", config], env, { timeoutMs: 30_000, cwd });
			expect(run.code).toBe(0);
			const cli = JSON.parse(run.stdout).project;
			expect(inPi).toBe(trusted ? "loaded" : "untrusted");
			expect(cli.state).toBe(inPi);
			expect(cli.reason.length).toBeGreaterThan(0);
		}, 40_000);
	}
});
