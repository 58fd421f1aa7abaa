// The state file is read with the config file's guards and its problems are said, never swallowed: a FIFO or a link
// to /dev/zero at its path is refused at once (spawned `status`, bounded in time), a corrupt file is set aside before
// a fresh one is written (its spend would otherwise silently restart at $0), and a failed write shows in status.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createStateFile, STATE_FILE_NAME } from "../executor/persist.ts";
import { runCli } from "./helpers/cli-run.ts";
import { spawnCli } from "./helpers/cli-spawn.ts";
import { type FakeServer, startFakeServer } from "./helpers/fake-server.ts";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function home() {
	const root = mkdtempSync(join(tmpdir(), "pwa-state-"));
	dirs.push(root);
	const agent = join(root, "agent");
	mkdirSync(agent);
	const config = join(root, "config.json");
	writeFileSync(config, JSON.stringify({ providers: { d: { type: "direct" } } }));
	return { root, agent, config, state: join(agent, STATE_FILE_NAME) };
}

/** `status --json` in a child process: a blocking read shows as a kill at the deadline, not a hung suite. */
function spawnedStatus(root: string, agent: string, config: string) {
	return spawnCli(["status", "--json", "--config", config], { HOME: root, PI_CODING_AGENT_DIR: agent });
}

describe("reading the state file", () => {
	it("refuses a FIFO at its path at once and says so in status", async () => {
		const { root, agent, config, state } = home();
		execFileSync("mkfifo", [state]);
		const run = await spawnedStatus(root, agent, config);
		expect(run.code).toBe(0);
		const stateFile = JSON.parse(run.stdout).stateFile;
		expect(stateFile).toMatchObject({ file: state, state: "unreadable" });
		expect(stateFile.reason).toContain("FIFO");
	}, 30_000);

	it("refuses a link to /dev/zero at once, without reading it", async () => {
		const { root, agent, config, state } = home();
		symlinkSync("/dev/zero", state);
		const run = await spawnedStatus(root, agent, config);
		expect(run.code).toBe(0);
		expect(JSON.parse(run.stdout).stateFile).toMatchObject({ state: "unreadable" });
		expect(JSON.parse(run.stdout).stateFile.reason).toContain("device");
	}, 30_000);

	it("refuses a file over the size cap", () => {
		const { state } = home();
		writeFileSync(state, `{"version":1,"pad":"${"x".repeat(2 * 1024 * 1024)}"}`);
		const file = createStateFile(state);
		expect(file.load()).toBeUndefined();
		expect(file.health?.()).toMatchObject({ state: "unreadable" });
		expect(file.health?.().reason).toContain("limit");
	});
});

describe("a corrupt or unwritable state file", () => {
	let backend: FakeServer;
	beforeAll(async () => {
		backend = await startFakeServer();
	});
	afterAll(() => backend.close());

	it("is not overwritten with $0 spend unsaid: status says so before and after, the spend goes to the store", async () => {
		const { root, agent, state } = home();
		const config = join(root, "paid.json");
		writeFileSync(
			config,
			JSON.stringify({ providers: { brave: { type: "brave", apiKey: "brave-test-key", baseUrl: backend.url } } }),
		);
		const corrupt = '{"version":1,"spend":{"day":"2026-12-0'; // cut mid-write: today's spend unknown
		writeFileSync(state, corrupt);
		const env = { HOME: root, PI_CODING_AGENT_DIR: agent };
		const before = await runCli(["status", "--config", config], env);
		expect(before.stdout).toMatch(/state file: .*corrupt/);
		const json = JSON.parse((await runCli(["status", "--json", "--config", config], env)).stdout);
		expect(json.stateFile).toMatchObject({ file: state, state: "corrupt" });

		backend.respond({ body: readFileSync(join(import.meta.dirname, "fixtures/providers/brave/search_success.json")) });
		const search = await runCli(["search", "a paid search", "--config", config], env);
		expect(search.code).toBe(0);
		// The search's spend goes to the state store (executor/store/local/): the corrupt file is neither read for
		// budgets nor overwritten, and status still says what it is.
		expect(readFileSync(state, "utf8")).toBe(corrupt);
		const after = JSON.parse((await runCli(["status", "--json", "--config", config], env)).stdout);
		expect(after.stateFile).toMatchObject({ file: state, state: "corrupt" });
		expect(after.spend.providers.find((p: { provider: string }) => p.provider === "brave")).toMatchObject({
			todayCalls: 1,
		});
	});

	it("says unwritable in status when the state file cannot be written, and the failed write is not silent", async () => {
		const { root, config } = home();
		const agent = join(root, "not-a-dir");
		writeFileSync(agent, "a file where the agent dir should be");
		const state = join(agent, STATE_FILE_NAME);
		const env = { HOME: root, PI_CODING_AGENT_DIR: agent };
		const json = JSON.parse((await runCli(["status", "--json", "--config", config], env)).stdout);
		expect(json.stateFile).toMatchObject({ file: state, state: "unwritable" });
		const file = createStateFile(state);
		expect(() => file.save({ version: 1, cooldowns: [], keys: [] })).toThrow();
		expect(file.health?.()).toMatchObject({ state: "unwritable" });
		expect(existsSync(state)).toBe(false);
	});
});
