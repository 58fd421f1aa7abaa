// The local store's day log stays bounded: compacted past its size into a snapshot in the next file while other
// processes append (real processes, exact sums), a compaction cut short by kill -9 at any step finished by the next
// process with nothing lost, old days removed after the retention, and a log cut short by something else said.

import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { utcDay } from "../executor/spend.ts";
import type { StateStore } from "../executor/store/contract.ts";
import { DAY_LOG_DEFAULTS, logName } from "../executor/store/local/day-log.ts";
import { createLocalStore, LOCAL_DEFAULTS, logPath } from "../executor/store/local/store.ts";

const root = join(import.meta.dirname, "..");
const dirs: string[] = [];
const DAY_MS = 86_400_000;
const COMPACT_BYTES = DAY_LOG_DEFAULTS.compactBytes;
let writers = 0;

afterEach(() => {
	DAY_LOG_DEFAULTS.compactBytes = COMPACT_BYTES;
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), "pwa-compact-"));
	dirs.push(dir);
	return dir;
}

/** Today's log files: name → size. */
function files(dir: string): Map<string, number> {
	const day = utcDay(Date.now());
	const out = new Map<string, number>();
	for (const name of readdirSync(dir)) if (logName(name)?.day === day) out.set(name, statSync(join(dir, name)).size);
	return out;
}

const exaOf = (store: StateStore) => store.today().providers.find((p) => p.provider === "exa");

/**
 * A child process that makes `calls` paid calls (reserve under a huge day budget, then settle); a byte goes to its
 * progress file after each (a write(2): kill -9 cannot lose it, as it could a pipe's buffered output).
 */
function writer(dir: string, calls: number, compactBytes: number) {
	const progress = join(dir, `progress.${writers++}`);
	const local = (file: string) => JSON.stringify(join(root, "executor", "store", "local", file));
	const script = `import { openSync, writeSync } from "node:fs";
import { createLocalStore } from ${local("store.ts")};
import { DAY_LOG_DEFAULTS } from ${local("day-log.ts")};
DAY_LOG_DEFAULTS.compactBytes = ${compactBytes};
const s = createLocalStore(${JSON.stringify(dir)});
const done = openSync(${JSON.stringify(progress)}, "a");
for (let i = 0; i < ${calls}; i++) {
	const r = s.reserve({ provider: "exa", usd: 0.001, totalDayUsd: 1e9 });
	if (!r.granted) throw new Error("refused");
	s.settle("exa", 0.001, false, r.id);
	writeSync(done, ".");
}
s.close();`;
	const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "pipe"] });
	let stderr = "";
	child.stderr.on("data", (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
	const dots = () => {
		try {
			return statSync(progress).size;
		} catch {
			return 0;
		}
	};
	return { child, exited, dots, stderr: () => stderr };
}

describe("local store: compaction", () => {
	it("measured: a fresh process reads at most about one compaction's worth, whatever the day's records", () => {
		const dir = tempDir();
		const store = createLocalStore(dir);
		// 20,000 paid calls with reservations: 40,000 records, about 3.4 MB uncompacted.
		for (let i = 0; i < 20_000; i++) {
			const r = store.reserve({ provider: "exa", usd: 0.001, totalDayUsd: 1e9 });
			store.settle("exa", 0.001, false, r.granted ? r.id : undefined);
		}
		store.close();
		const sizes = [...files(dir).values()];
		expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(COMPACT_BYTES + 4096);
		const reader = createLocalStore(dir, Date.now, true);
		expect(exaOf(reader)).toMatchObject({ calls: 20_000 });
		expect(exaOf(reader)?.usd).toBeCloseTo(20, 6);
		expect(reader.health()).toEqual({ kind: "local", location: dir, state: "ok" });
	}, 60_000);

	it("keeps every record of 6 processes appending while they compact each other's log: exact sums", async () => {
		const dir = tempDir();
		const calls = 400;
		const runs = Array.from({ length: 6 }, () => writer(dir, calls, 8 * 1024));
		const codes = await Promise.all(runs.map((run) => run.exited));
		expect(codes, runs.map((run) => run.stderr()).join("\n")).toEqual(runs.map(() => 0));
		const reader = createLocalStore(dir, Date.now, true);
		expect(exaOf(reader)?.calls).toBe(6 * calls);
		expect(exaOf(reader)?.usd).toBeCloseTo(6 * calls * 0.001, 9);
		expect(reader.health().state).toBe("ok");
		// 4,800 records of about 100 bytes went through files of 8 KB: many compactions, and the old files are gone.
		const left = files(dir);
		expect(left.size).toBeLessThanOrEqual(2);
		expect(Math.max(...[...left.keys()].map((name) => logName(name)!.gen))).toBeGreaterThan(20);
	}, 120_000);

	it("kill -9 of writers mid-compaction loses at most each killed call's own record", async () => {
		const dir = tempDir();
		const steady = Array.from({ length: 3 }, () => writer(dir, 300, 4 * 1024));
		const killed = Array.from({ length: 3 }, () => writer(dir, 1_000_000, 4 * 1024));
		// Each killed writer dies after a different number of its calls, wherever its compaction is then.
		await Promise.all(
			killed.map(async (run, k) => {
				while (run.dots() < 100 + 60 * k) await new Promise((resolve) => setTimeout(resolve, 5));
				run.child.kill("SIGKILL");
				await run.exited;
			}),
		);
		expect(await Promise.all(steady.map((run) => run.exited))).toEqual([0, 0, 0]);
		const done = [...steady, ...killed].reduce((sum, run) => sum + run.dots(), 0);
		const store = createLocalStore(dir);
		store.sync();
		const calls = exaOf(store)?.calls ?? 0;
		// A byte is written after the call's records: each killed writer may have one call more than its bytes.
		expect(calls).toBeGreaterThanOrEqual(done);
		expect(calls).toBeLessThanOrEqual(done + killed.length);
		expect(store.health().state).toBe("ok");
	}, 120_000);

	const cut: Array<[string, (dir: string, day: string) => void]> = [
		["after its marker", () => {}],
		["after making the next file", (dir, day) => writeFileSync(logPath(dir, day, 1), "", { mode: 0o600 })],
		[
			"after the next file's snapshot, before removing the old one",
			(dir, day) => {
				const reader = createLocalStore(dir, Date.now, true);
				const spend = reader.today().providers;
				reader.close();
				const snapshot = { t: "S", at: Date.now(), spend, held: [], c: [], k: [] };
				writeFileSync(logPath(dir, day, 1), `\n${JSON.stringify(snapshot)}\n`, { mode: 0o600 });
			},
		],
	];
	for (const [when, make] of cut) {
		it(`a compaction killed ${when} is finished by the next process, every record kept`, () => {
			const dir = tempDir();
			const day = utcDay(Date.now());
			const first = createLocalStore(dir);
			for (let i = 0; i < 5; i++) first.settle("exa", 0.01, false);
			first.close();
			// The compacting process wrote its marker, then died at this step.
			appendFileSync(logPath(dir, day), `\n${JSON.stringify({ t: "m", at: Date.now() })}\n`);
			make(dir, day);
			expect(exaOf(createLocalStore(dir, Date.now, true))?.calls).toBe(5);
			const next = createLocalStore(dir);
			next.settle("exa", 0.01, false);
			expect(exaOf(next)?.calls).toBe(6);
			next.close();
			expect([...files(dir).keys()]).toEqual([`pi-web-access.state.${day}.1.log`]);
			const reader = createLocalStore(dir, Date.now, true);
			expect(exaOf(reader)?.calls).toBe(6);
			expect(exaOf(reader)?.usd).toBeCloseTo(0.06, 9);
			expect(reader.health().state).toBe("ok");
		});
	}

	it("a record written after another process's marker is written again into the next file, once", () => {
		const dir = tempDir();
		const a = createLocalStore(dir);
		const b = createLocalStore(dir);
		a.settle("exa", 0.01, false);
		b.sync();
		// a compacts (its marker and snapshot) while b still holds the old file open and has not read the marker.
		DAY_LOG_DEFAULTS.compactBytes = 1;
		a.settle("exa", 0.01, false);
		DAY_LOG_DEFAULTS.compactBytes = COMPACT_BYTES;
		b.settle("exa", 0.01, false);
		for (const store of [a, b]) expect(exaOf(store)?.calls).toBe(3);
		expect(exaOf(createLocalStore(dir, Date.now, true))?.calls).toBe(3);
	});
});

describe("local store: a chain with a file missing", () => {
	it("is read in bounded steps and said, not followed round and round", () => {
		const dir = tempDir();
		const day = utcDay(Date.now());
		const snapshot = (usd: number) =>
			JSON.stringify({ t: "S", at: 1, spend: [{ provider: "exa", usd, calls: 1 }], held: [], c: [], k: [] });
		// File 5 moved on to 6, which is gone; 7 has no snapshot, so reading starts at 5 and finds 7 past the gap.
		writeFileSync(logPath(dir, day, 5), `\n${snapshot(0.5)}\n${JSON.stringify({ t: "m", at: 2 })}\n`);
		writeFileSync(logPath(dir, day, 7), `\n${JSON.stringify({ t: "s", p: "exa", usd: 0.25, at: 3 })}\n`);
		for (const readOnly of [true, false]) {
			const store = createLocalStore(dir, Date.now, readOnly);
			store.sync();
			expect(store.health()).toMatchObject({ state: "degraded", detail: expect.stringMatching(/kept changing/) });
			store.close();
		}
	});
});

describe("local store: retention", () => {
	it("removes logs of days past the retention when a writer opens a day, never today's or a recent day's", () => {
		const dir = tempDir();
		const now = Date.now();
		const daysAgo = (n: number) => utcDay(now - n * DAY_MS);
		for (const n of [30, LOCAL_DEFAULTS.keepDays, LOCAL_DEFAULTS.keepDays - 1, 1]) {
			writeFileSync(logPath(dir, daysAgo(n)), "");
			writeFileSync(logPath(dir, daysAgo(n), 3), "");
		}
		writeFileSync(join(dir, "unrelated.log"), "");
		const store = createLocalStore(dir, () => now);
		store.settle("exa", 0.01, false);
		store.close();
		const kept = readdirSync(dir).sort();
		const expected = [LOCAL_DEFAULTS.keepDays - 1, 1].flatMap((n) => [
			logPath(dir, daysAgo(n)),
			logPath(dir, daysAgo(n), 3),
		]);
		expect(kept).toEqual(
			[
				...expected.map((path) => path.slice(dir.length + 1)),
				`pi-web-access.state.${daysAgo(0)}.log`,
				"unrelated.log",
			].sort(),
		);
	});
});

describe("local store: a log cut short by something else", () => {
	it("is read again from what is left, said in health, and later records count", () => {
		const dir = tempDir();
		const day = utcDay(Date.now());
		const follower = createLocalStore(dir);
		for (let i = 0; i < 3; i++) follower.settle("exa", 0.01, false);
		expect(exaOf(follower)?.calls).toBe(3);
		truncateSync(logPath(dir, day), 0);
		const other = createLocalStore(dir);
		other.settle("exa", 0.02, false);
		other.close();
		expect(exaOf(follower)).toMatchObject({ calls: 1, usd: 0.02 });
		expect(follower.health()).toMatchObject({ state: "ok", detail: expect.stringMatching(/was cut short/) });
		follower.settle("exa", 0.01, false);
		expect(exaOf(createLocalStore(dir, Date.now, true))?.calls).toBe(2);
	});
});
