// Scenario "store": what the state store adds to one paid call, the store's own operations as the executor runs
// them (take in others' records, then settle; with a day budget, reserve before the call too). The local store
// (a log file every process of the machine appends to) against the memory store (this process only).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StateStore } from "../executor/store/contract.ts";
import { STORES } from "../executor/store/index.ts";
import { type Comparison, type Goal, nowMs, round, type ScenarioReport, summarize } from "./stats.ts";

export interface StoreOptions {
	/** Paid calls per side. */
	calls?: number;
}

const DEFAULTS = { calls: 20_000, goalP50Us: 50 };

export interface StoreNumbers {
	localP50Us: number;
	localP99Us: number;
	localReserveP50Us: number;
	localReserveP99Us: number;
	memoryP50Us: number;
}

/** One paid call's store operations; `budget`: a day budget applies, so the call reserves first. */
function paidCall(store: StateStore, budget: boolean): void {
	store.sync();
	store.today();
	const reservation = budget ? store.reserve({ provider: "exa", usd: 0.005, totalDayUsd: 1e9 }) : undefined;
	store.settle("exa", 0.005, false, reservation?.granted ? reservation.id : undefined);
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
		};
		const goals: Goal[] = [
			{
				goal: `store: local ≤ ${DEFAULTS.goalP50Us} µs p50 a paid call (with a reservation)`,
				measured: `${numbers.localReserveP50Us} µs`,
				met: numbers.localReserveP50Us <= DEFAULTS.goalP50Us,
			},
		];
		const notes = [`store: ${calls} paid calls a side, one process; the log held ${3 * calls} records at the end`];
		return { numbers, rows, goals, notes };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
