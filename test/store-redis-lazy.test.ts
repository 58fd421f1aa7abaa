// The Redis client is loaded only when a team store is configured: a child node process records every module it
// loads (module.registerHooks), makes the store the CLI and pi would make without a Redis URL, runs a call's store
// operations, then (as a control proving the hook sees it) makes one with a URL.

import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const home = mkdtempSync(join(tmpdir(), "pwa-lazy-redis-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const CHILD = `
import { registerHooks } from "node:module";
const loaded = [];
registerHooks({ load(url, context, nextLoad) { loaded.push(url); return nextLoad(url, context); } });
const { storeIn } = await import(process.env.STORE_ROOT + "/runtime/team-store.ts");
const env = { HOME: process.env.HOME, PI_CODING_AGENT_DIR: process.env.HOME + "/agent" };
const local = storeIn(env, {});
local.sync();
local.settle("exa", 0.005, false);
local.close();
const withoutUrl = [...loaded];
const team = storeIn(env, { store: { url: "redis://127.0.0.1:1" } });
await team.refresh();
await team.drain();
process.stdout.write(JSON.stringify({ kind: local.health().kind, withoutUrl, withUrl: loaded }));
`;

function runChild(): Promise<{ kind: string; withoutUrl: string[]; withUrl: string[] }> {
	return new Promise((resolve, reject) => {
		execFile(
			process.execPath,
			["--input-type=module", "--no-warnings", "-e", CHILD],
			{
				cwd: ROOT,
				env: { PATH: process.env.PATH, HOME: home, TMPDIR: home, STORE_ROOT: pathToFileURL(ROOT).href },
				timeout: 60_000,
			},
			(error, stdout, stderr) => {
				if (error) reject(new Error(`child failed: ${error.message}\n${stderr}`));
				else resolve(JSON.parse(stdout));
			},
		);
	});
}

const redisIn = (urls: string[]) => urls.filter((url) => url.includes("/node_modules/ioredis/"));

describe("team store: lazy client", () => {
	it("never loads ioredis without a Redis URL; loads it once one is configured", async () => {
		const { kind, withoutUrl, withUrl } = await runChild();
		expect(kind).toBe("local");
		expect(withoutUrl.some((url) => url.endsWith("/runtime/team-store.ts"))).toBe(true);
		expect(redisIn(withoutUrl)).toEqual([]);
		expect(redisIn(withUrl).length).toBeGreaterThan(0);
	});
});
