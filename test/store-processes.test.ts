// The local state store shared by real processes: CLI runs (`cli/bin.js search`) race against one fake paid
// backend on loopback with a temp HOME, and `status --json` reads what they left: no spend lost, a day budget
// held across processes, a cooldown seen by the next process, and a writer killed mid-stream (broken state files:
// test/store-broken.test.ts).

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { utcDay } from "../executor/spend.ts";
import { createLocalStore, logPath } from "../executor/store/local/store.ts";
import { answers, exaToday, KEY, PRICE, storeWorlds } from "./helpers/store-world.ts";

const root = join(import.meta.dirname, "..");
const { servers, homes, world } = storeWorlds();

describe("local state store across processes", () => {
	it("keeps every process's spend: 4 processes × 3 paid searches → the ledger holds 12 × the price", async () => {
		const w = world();
		servers.exa.respond(...answers(12));
		const runs = Array.from({ length: 4 }, async (_, k) => {
			for (let m = 0; m < 3; m++) {
				const run = await w.cli(["search", "--json", `query ${k} ${m}`]);
				expect(run.code, run.stderr).toBe(0);
			}
		});
		await Promise.all(runs);
		expect(servers.exa.requests).toHaveLength(12);
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
		servers.exa.respond(...answers(16, price));
		const runs = Array.from({ length: 8 }, async () => {
			for (let m = 0; m < 2; m++) await w.cli(["search", "--json", `budget ${m}`]);
		});
		await Promise.all(runs);
		const spent = exaToday(await w.status())?.todayUsd ?? 0;
		expect(spent).toBeLessThanOrEqual(budget + price + 1e-9);
		expect(servers.exa.requests.length).toBeLessThanOrEqual(Math.floor(budget / price) + 1);
		expect(servers.exa.requests.length).toBeGreaterThanOrEqual(Math.floor(budget / price) - 1);
	}, 60_000);

	it("honours a cooldown another process set: the next process goes to the healthy provider first", async () => {
		const w = world({ search: ["exa", "tavily"] });
		servers.exa.respond({ status: 503, body: "down" });
		const tavilyOk = {
			body: readFileSync(join(root, "test", "fixtures", "providers", "tavily", "search_success.json"), "utf8"),
			headers: { "content-type": "application/json" },
		};
		servers.tavily.respond(tavilyOk, tavilyOk);
		await w.cli(["search", "--json", "first"]);
		expect(servers.exa.requests).toHaveLength(1);
		const second = await w.cli(["search", "--json", "second"]);
		expect(second.code, second.stderr).toBe(0);
		const result = JSON.parse(second.stdout);
		expect(result.provider).toBe("tavily");
		expect(servers.exa.requests).toHaveLength(1); // the second process did not hammer the cooling backend
	}, 30_000);
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
