// The local state store shared by real processes: CLI runs (`cli/bin.js search`) race against one fake paid
// backend on loopback with a temp HOME, and `status --json` reads what they left: no spend lost, a day budget
// held across processes, a cooldown seen by the next process, and broken state files said in status.

import { execFile, spawn } from "node:child_process";
import {
	appendFileSync,
	chmodSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { utcDay } from "../executor/spend.ts";
import { createLocalStore, logPath } from "../executor/store/local/store.ts";
import { type FakeServer, startFakeServer } from "./helpers/fake-server.ts";

const root = join(import.meta.dirname, "..");
const success = readFileSync(join(root, "test", "fixtures", "providers", "exa", "search_success.json"), "utf8");
const PRICE = 0.008; // costDollars.total of the fixture, reported by the backend
const KEY = "sk-store-5f4e3d2c-secret";
const homes: string[] = [];
let exa: FakeServer;
let tavily: FakeServer;

beforeAll(async () => {
	[exa, tavily] = await Promise.all([startFakeServer(), startFakeServer()]);
});
afterAll(async () => Promise.all([exa.close(), tavily.close()]));
afterEach(() => {
	exa.reset();
	tavily.reset();
	for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function world(extra: Record<string, unknown> = {}) {
	const home = mkdtempSync(join(tmpdir(), "pwa-store-"));
	homes.push(home);
	const config = join(home, "cfg.json5");
	writeFileSync(
		config,
		JSON.stringify({
			providers: {
				exa: { type: "exa", apiKey: KEY, baseUrl: exa.url },
				tavily: { type: "tavily", apiKey: "tvly-store-1a2b3c4d", baseUrl: tavily.url },
			},
			search: ["exa"],
			...extra,
		}),
	);
	const agent = join(home, "agent");
	const cli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
		new Promise((resolve) => {
			execFile(
				process.execPath,
				[join(root, "cli", "bin.js"), ...args, "--config", config],
				{ env: { PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: agent, TMPDIR: home } },
				(error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
			);
		});
	const status = async () => JSON.parse((await cli(["status", "--json"])).stdout);
	return { home, agent, cli, status };
}

/** `n` answers of the exa fixture, reporting `usd` as the call's cost (default: the fixture's). */
const answers = (n: number, usd = PRICE) => {
	const body = JSON.stringify({ ...JSON.parse(success), costDollars: { total: usd } });
	return Array.from({ length: n }, () => ({ body, headers: { "content-type": "application/json" } }));
};
const exaToday = (report: {
	spend: { providers: Array<{ provider: string; todayUsd: number; todayCalls?: number }> };
}) => report.spend.providers.find((p) => p.provider === "exa");

describe("local state store across processes", () => {
	it("keeps every process's spend: 4 processes × 3 paid searches → the ledger holds 12 × the price", async () => {
		const w = world();
		exa.respond(...answers(12));
		const runs = Array.from({ length: 4 }, async (_, k) => {
			for (let m = 0; m < 3; m++) {
				const run = await w.cli(["search", "--json", `query ${k} ${m}`]);
				expect(run.code, run.stderr).toBe(0);
			}
		});
		await Promise.all(runs);
		expect(exa.requests).toHaveLength(12);
		const report = await w.status();
		expect(exaToday(report)?.todayUsd).toBeCloseTo(12 * PRICE, 9);
		for (const text of [JSON.stringify(report), readFileSync(logPath(w.agent, utcDay(Date.now())), "utf8")]) {
			expect(text).not.toContain(KEY);
		}
	}, 60_000);

	it("holds a day budget raced by 8 processes: spent ≤ budget + one call in flight", async () => {
		const budget = 0.05;
		const price = 0.005; // exa's declared price, the amount a reservation holds
		const w = world({ policy: { budget: { usdPerDay: budget } } });
		exa.respond(...answers(16, price));
		const runs = Array.from({ length: 8 }, async () => {
			for (let m = 0; m < 2; m++) await w.cli(["search", "--json", `budget ${m}`]);
		});
		await Promise.all(runs);
		const spent = exaToday(await w.status())?.todayUsd ?? 0;
		expect(spent).toBeLessThanOrEqual(budget + price + 1e-9);
		expect(exa.requests.length).toBeLessThanOrEqual(Math.floor(budget / price) + 1);
		expect(exa.requests.length).toBeGreaterThanOrEqual(Math.floor(budget / price) - 1);
	}, 60_000);

	it("honours a cooldown another process set: the next process goes to the healthy provider first", async () => {
		const w = world({ search: ["exa", "tavily"] });
		exa.respond({ status: 503, body: "down" });
		const tavilyOk = {
			body: readFileSync(join(root, "test", "fixtures", "providers", "tavily", "search_success.json"), "utf8"),
			headers: { "content-type": "application/json" },
		};
		tavily.respond(tavilyOk, tavilyOk);
		await w.cli(["search", "--json", "first"]);
		expect(exa.requests).toHaveLength(1);
		const second = await w.cli(["search", "--json", "second"]);
		expect(second.code, second.stderr).toBe(0);
		const result = JSON.parse(second.stdout);
		expect(result.provider).toBe("tavily");
		expect(exa.requests).toHaveLength(1); // the second process did not hammer the cooling backend
	}, 30_000);
});

describe("local state store: broken files", () => {
	it("a torn record (a process killed mid-write) costs that record only", async () => {
		const w = world();
		exa.respond(...answers(2));
		expect((await w.cli(["search", "--json", "one"])).code).toBe(0);
		appendFileSync(logPath(w.agent, utcDay(Date.now())), '\n{"t":"s","p":"exa","usd":0.5,"a');
		expect((await w.cli(["search", "--json", "two"])).code).toBe(0);
		const report = await w.status();
		expect(exaToday(report)?.todayUsd).toBeCloseTo(2 * PRICE, 9);
		expect(report.store).toMatchObject({ kind: "local", state: "ok", detail: "1 unreadable record(s) skipped" });
	}, 30_000);

	const broken: Array<[string, (path: string) => void, RegExp]> = [
		["a symlinked log", (path) => symlinkSync("/etc/hostname", path), /symbolic link/],
		["a huge log", (path) => writeFileSync(path, Buffer.alloc(33 * 1024 * 1024, 0x20)), /larger than 32 MB/],
		["a folder in the log's place", (path) => mkdirSync(path), /not a regular file|cannot be opened/],
		[
			"a read-only log",
			(path) => {
				writeFileSync(path, "");
				chmodSync(path, 0o400);
			},
			/cannot be written/,
		],
	];
	// root writes through a mode of 0400: then the folder that cannot be made stands for the unwritable log.
	const root0 = process.getuid?.() === 0;
	if (root0) broken.pop();
	it("an agent dir that cannot be made (a file is in its way): status says so, and searches still work", async () => {
		const w = world();
		writeFileSync(w.agent, "not a folder");
		exa.respond(...answers(1));
		const run = await w.cli(["search", "--json", "still works"]);
		expect(run.code, run.stderr).toBe(0);
		const report = await w.status();
		expect(report.store).toMatchObject({ kind: "local", state: "degraded" });
		expect(report.store.detail).toMatch(/ENOTDIR|ENOENT|EEXIST/);
	}, 30_000);
	for (const [name, make, said] of broken) {
		it(`${name}: status says so with the fix, and searches still work`, async () => {
			const w = world();
			mkdirSync(w.agent, { recursive: true });
			make(logPath(w.agent, utcDay(Date.now())));
			exa.respond(...answers(1));
			const run = await w.cli(["search", "--json", "still works"]);
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).toMatch(said); // the run says once that its state stayed in the process
			const report = await w.status();
			expect(report.store.state).toBe("degraded");
			expect(report.store.detail).toMatch(said);
			expect((await w.cli(["status"])).stdout).toMatch(said);
			const checked = JSON.parse((await w.cli(["check", "--json"])).stdout);
			expect(checked.store).toMatchObject({ kind: "local", state: "degraded" });
			expect(checked.store.detail).toMatch(said);
		}, 30_000);
	}
});

describe("local state store: kill -9", () => {
	it("a writer killed mid-stream loses at most its last record; every other record reads back", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pwa-store-kill-"));
		homes.push(dir);
		const store = join(root, "executor", "store", "local", "store.ts");
		// A byte goes to a progress file once a record is written (a write(2) each: kill -9 cannot lose it).
		const progress = join(dir, "progress");
		const script = `import { openSync, writeSync } from "node:fs";
import { createLocalStore } from ${JSON.stringify(store)};
const s = createLocalStore(${JSON.stringify(dir)});
const done = openSync(${JSON.stringify(progress)}, "a");
s.settle("exa", 0.001, false);
writeSync(done, ".");
process.stdout.write("go\\n");
for (;;) { s.settle("exa", 0.001, false); writeSync(done, "."); }`;
		const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
			stdio: ["ignore", "pipe", "inherit"],
		});
		await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
		await new Promise((resolve) => setTimeout(resolve, 300));
		child.kill("SIGKILL");
		await new Promise((resolve) => child.once("close", resolve));
		const dots = statSync(progress).size;
		expect(dots).toBeGreaterThan(1);
		const reader = createLocalStore(dir, Date.now, true);
		const calls = reader.today().providers.find((p) => p.provider === "exa")?.calls ?? 0;
		expect(calls).toBeGreaterThanOrEqual(dots);
		expect(calls).toBeLessThanOrEqual(dots + 1);
		expect(reader.health().state).toBe("ok");
	}, 30_000);
});
