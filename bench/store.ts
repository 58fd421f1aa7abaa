// Scenario "store": what the state store adds to one paid call, the store's own operations as the executor runs
// them (take in others' records, then settle; with a day budget, reserve before the call too). The local store
// (a log file every process of the machine appends to) against the memory store (this process only). Then the
// throughput of 8 real processes × 1,000 paid calls (reserve + settle) on one local store, and whether its ledger
// holds exactly every call's price.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StateStore } from "../executor/store/contract.ts";
import { STORES } from "../executor/store/index.ts";
import { paidCall } from "./paid-call.ts";
import { type Comparison, type Goal, nowMs, round, type ScenarioReport, summarize } from "./stats.ts";
import { benchRedisStore, type RedisStoreNumbers } from "./store-redis.ts";

export interface StoreOptions {
	/** Paid calls per side. */
	calls?: number;
	/** Processes sharing the store in the throughput run, and paid calls each. */
	processes?: number;
	callsEach?: number;
}

const DEFAULTS = {
	calls: 20_000,
	goalP50Us: 50,
	processes: 8,
	callsEach: 1_000,
	price: 0.005,
	childTimeoutMs: 120_000,
	redisCalls: 2_000,
};

export interface StoreNumbers extends Partial<RedisStoreNumbers> {
	localP50Us: number;
	localP99Us: number;
	localReserveP50Us: number;
	localReserveP99Us: number;
	memoryP50Us: number;
	/** Paid calls a second over every process of the throughput run, from the go to the last one done. */
	throughputCallsPerS: number;
	/** Calls the ledger counted after the throughput run, and whether its spend is exactly calls × price. */
	ledgerCalls: number;
	ledgerExact: boolean;
}

function time(store: StateStore, calls: number, budget: boolean): number[] {
	const samples: number[] = [];
	for (let i = 0; i < calls; i++) {
		const started = nowMs();
		paidCall(store, budget);
		samples.push((nowMs() - started) * 1000);
	}
	return samples;
}

/** One process of the throughput run: opens the store, says ready, and on "go" makes its calls. */
function childScript(dir: string, calls: number): string {
	const store = JSON.stringify(join(import.meta.dirname, "..", "executor", "store", "local", "store.ts"));
	return `import { createLocalStore } from ${store};
const s = createLocalStore(${JSON.stringify(dir)});
s.sync();
process.stdout.write("ready\\n");
process.stdin.once("data", () => {
	for (let i = 0; i < ${calls}; i++) {
		const r = s.reserve({ provider: "exa", usd: ${DEFAULTS.price}, totalDayUsd: 1e9 });
		if (!r.granted) throw new Error("refused: " + r.reason);
		s.settle("exa", ${DEFAULTS.price}, false, r.id);
	}
	s.close();
	process.exit(0);
});`;
}

/** `processes` real processes × `callsEach` paid calls at once on one local store: calls/s and the ledger's sum. */
async function throughput(dir: string, processes: number, callsEach: number) {
	const children = Array.from({ length: processes }, () =>
		spawn(process.execPath, ["--input-type=module", "-e", childScript(dir, callsEach)], {
			stdio: ["pipe", "pipe", "inherit"],
			timeout: DEFAULTS.childTimeoutMs,
		}),
	);
	const exits = children.map(
		(child) => new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code))),
	);
	await Promise.all(children.map((child) => new Promise((resolve) => child.stdout.once("data", resolve))));
	const started = nowMs();
	for (const child of children) child.stdin.end("go");
	const codes = await Promise.all(exits);
	const wallMs = nowMs() - started;
	if (codes.some((code) => code !== 0))
		throw new Error(`store throughput: a process failed (exit ${codes.join(", ")})`);
	const reader = STORES.local!({ dir });
	const exa = reader.today().providers.find((entry) => entry.provider === "exa");
	reader.close();
	const calls = processes * callsEach;
	const exact = exa?.calls === calls && Math.abs((exa?.usd ?? 0) - calls * DEFAULTS.price) < 1e-9;
	return { callsPerS: calls / (wallMs / 1000), ledgerCalls: exa?.calls ?? 0, exact, wallMs };
}

export async function benchStore(options: StoreOptions = {}): Promise<ScenarioReport<StoreNumbers>> {
	const calls = options.calls ?? DEFAULTS.calls;
	const dir = mkdtempSync(join(tmpdir(), "pwa-bench-store-"));
	try {
		const local = STORES.local!({ dir });
		const memory = STORES.memory!({ dir });
		const plain = summarize(time(local, calls, false));
		const reserved = summarize(time(local, calls, true));
		const base = summarize(time(memory, calls, false));
		local.close();
		const processes = options.processes ?? DEFAULTS.processes;
		const callsEach = options.callsEach ?? DEFAULTS.callsEach;
		const shared = mkdtempSync(join(tmpdir(), "pwa-bench-store-shared-"));
		const run = await throughput(shared, processes, callsEach).finally(() =>
			rmSync(shared, { recursive: true, force: true }),
		);
		const rows: Comparison[] = [
			{ label: "store: a paid call", unit: "µs", oursName: "local", ours: plain, baseName: "memory", base },
			{ label: "store: with a day budget", unit: "µs", oursName: "local", ours: reserved, baseName: "memory", base },
		];
		const numbers: StoreNumbers = {
			localP50Us: round(plain.p50),
			localP99Us: round(plain.p99),
			localReserveP50Us: round(reserved.p50),
			localReserveP99Us: round(reserved.p99),
			memoryP50Us: round(base.p50),
			throughputCallsPerS: Math.round(run.callsPerS),
			ledgerCalls: run.ledgerCalls,
			ledgerExact: run.exact,
		};
		const goals: Goal[] = [
			{
				goal: `store: local ≤ ${DEFAULTS.goalP50Us} µs p50 a paid call (with a reservation)`,
				measured: `${numbers.localReserveP50Us} µs`,
				met: numbers.localReserveP50Us <= DEFAULTS.goalP50Us,
			},
			{
				goal: `store: ${processes} processes × ${callsEach} paid calls, the ledger holds exactly every call's price`,
				measured: `${run.ledgerCalls} calls counted, ${run.exact ? "exact" : "not exact"}; ${numbers.throughputCallsPerS} calls/s`,
				met: run.exact,
			},
		];
		const notes = [
			`store: ${calls} paid calls a side, one process; the log held ${3 * calls} records at the end`,
			`store: ${processes} processes × ${callsEach} paid calls (reserve + settle) at once: ${numbers.throughputCallsPerS} calls/s over ${round(run.wallMs)} ms`,
		];
		const team = await benchRedisStore(Math.min(calls, DEFAULTS.redisCalls));
		return {
			numbers: { ...numbers, ...team.numbers },
			rows: [...rows, ...team.rows],
			goals: [...goals, ...team.goals],
			notes: [...notes, ...team.notes],
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
