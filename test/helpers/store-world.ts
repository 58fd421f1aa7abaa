// A world for the state store's process tests: a temp HOME with pi's agent dir, a config of two paid providers on
// fake loopback backends, the CLI run as a real process against it (with the config, or bare: zero-config), and
// the exa fixture's answers at a chosen cost.

import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type FakeServer, startFakeServer } from "./fake-server.ts";

const root = join(import.meta.dirname, "..", "..");
const success = readFileSync(join(root, "test", "fixtures", "providers", "exa", "search_success.json"), "utf8");
/** costDollars.total of the exa fixture, reported by the backend. */
export const PRICE = 0.008;
export const KEY = "sk-store-5f4e3d2c-secret";

export interface Cli {
	code: number;
	stdout: string;
	stderr: string;
}

/** A temp HOME (pushed onto `homes` for removal) whose config sends exa and tavily to the fake servers. */
export function storeWorld(servers: { exa: FakeServer; tavily: FakeServer }, homes: string[], extra = {}) {
	const home = mkdtempSync(join(tmpdir(), "pwa-store-"));
	homes.push(home);
	const config = join(home, "cfg.json5");
	writeFileSync(
		config,
		JSON.stringify({
			providers: {
				exa: { type: "exa", apiKey: KEY, baseUrl: servers.exa.url },
				tavily: { type: "tavily", apiKey: "tvly-store-1a2b3c4d", baseUrl: servers.tavily.url },
			},
			search: ["exa"],
			...extra,
		}),
	);
	const agent = join(home, "agent");
	/** The CLI with `args`; `bare`: without the config (zero-config). */
	const cli = (args: string[], bare = false): Promise<Cli> =>
		new Promise((resolve) => {
			execFile(
				process.execPath,
				[join(root, "cli", "bin.js"), ...args, ...(bare ? [] : ["--config", config])],
				{ env: { PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: agent, TMPDIR: home } },
				(error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
			);
		});
	const status = async () => JSON.parse((await cli(["status", "--json"])).stdout);
	return { home, agent, cli, status };
}

/** `n` answers of the exa fixture, reporting `usd` as the call's cost (default: the fixture's). */
export const answers = (n: number, usd = PRICE) => {
	const body = JSON.stringify({ ...JSON.parse(success), costDollars: { total: usd } });
	return Array.from({ length: n }, () => ({ body, headers: { "content-type": "application/json" } }));
};

/** exa's line of a `status --json` report's spend. */
export const exaToday = (report: {
	spend: { providers: Array<{ provider: string; todayUsd: number; todayCalls?: number }> };
}) => report.spend.providers.find((p) => p.provider === "exa");

/**
 * A test file's worlds: the fake exa and tavily servers started before its tests and closed after, answers and
 * temp HOMEs (`homes`) reset after each test. Call at the top of the file.
 */
export function storeWorlds() {
	const homes: string[] = [];
	const servers = {} as { exa: FakeServer; tavily: FakeServer };
	beforeAll(async () => {
		[servers.exa, servers.tavily] = await Promise.all([startFakeServer(), startFakeServer()]);
	});
	afterAll(async () => Promise.all([servers.exa.close(), servers.tavily.close()]));
	afterEach(() => {
		servers.exa.reset();
		servers.tavily.reset();
		for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
	});
	return { servers, homes, world: (extra = {}) => storeWorld(servers, homes, extra) };
}
