// Scenario "fetch": runs benchFetch() from bench/fetch.ts (the direct-fetch work's own benchmark) in a fresh
// process, so its peak RSS is its own and not the route scenario's; a missing file is reported, not a failure.

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { FetchBenchNumbers } from "./fetch.ts";
import { type Goal, round, type ScenarioReport } from "./stats.ts";

export const FETCH_BENCH_FILE = join(import.meta.dirname, "fetch.ts");

/** Type-only (erased at run time), so this scenario still loads when bench/fetch.ts is absent. */
export type FetchNumbers = FetchBenchNumbers;

export const FETCH_GOALS = { stallMs: 50, rssAddedMB: 250, ms1MB: 100, redteamRssMB: 500 };

/**
 * On a busy machine (load above one per core) wall-clock figures mostly measure the wait for a core: the goals are
 * then decided on CPU time (the main thread's longest stretch of its own work, the worker thread's CPU time), and
 * the line says so. On an idle machine the wall-clock figures decide.
 */
function goalsOf(n: FetchNumbers): Goal[] {
	const busy = n.loadPerCore > 1;
	const stall = busy ? n.longestWorkMs5MB : n.stallMs5MB;
	const time = busy ? n.cpuMs1MB : n.ms1MB;
	const decided = busy ? `decided on CPU time: load ${round(n.loadPerCore)} per core` : "decided on wall clock";
	const redteam = n.redteam ?? [];
	const redteamOk = redteam.every((row) => row.met);
	const worst = Math.max(0, ...redteam.map((row) => row.rssAddedMB));
	const slowest = Math.max(0, ...redteam.map((row) => row.ms));
	return [
		{
			goal: `fetch: main event loop's longest stall while a 5 MB page converts ≤ ${FETCH_GOALS.stallMs} ms`,
			measured:
				`${round(n.stallMs5MB)} ms stall, ${round(n.longestWorkMs5MB)} ms longest main-thread work, ` +
				`${round(n.mainCpuMs5MB)} ms main-thread CPU per page (idle loop on this machine: ${round(n.idleStallMs)} ms; ` +
				`converting 1 MB on the main thread: ${round(n.mainThreadStallMs1MB)} ms); ${decided}`,
			met: stall <= FETCH_GOALS.stallMs,
		},
		{
			goal: `fetch: peak RSS added for a 5 MB page ≤ ${FETCH_GOALS.rssAddedMB} MB`,
			measured: `${round(n.rssAddedMB5MB)} MB with the worker's start (${round(n.rssAddedWarmMB5MB)} MB to a warm worker; worker heap + external ${round(n.workerPeakMB5MB)} MB)`,
			met: n.rssAddedMB5MB <= FETCH_GOALS.rssAddedMB,
		},
		{
			goal: `fetch: 1 MB of dense HTML ≤ ${FETCH_GOALS.ms1MB} ms`,
			measured:
				`${round(n.ms1MB)} ms in the worker, ${round(n.cpuMs1MB)} ms of its CPU (${round(n.mainThreadMs1MB)} ms on the main thread); ` +
				`5 MB ${round(n.ms5MB)} ms, ${round(n.cpuMs5MB)} ms CPU; ${decided}`,
			met: time <= FETCH_GOALS.ms1MB,
		},
		{
			goal: `fetch: every red-team page ends within the deadline, failed clearly or cut and warned, under ${FETCH_GOALS.redteamRssMB} MB`,
			measured: `${redteam.filter((row) => row.met).length} of ${redteam.length}; slowest ${round(slowest)} ms, most RSS added ${round(worst)} MB`,
			met: redteam.length > 0 && redteamOk,
		},
	];
}

export type FetchReport = ScenarioReport<FetchNumbers | { available: false }>;

function unavailable(why: string): FetchReport {
	return { numbers: { available: false }, rows: [], goals: [], notes: [`fetch: not available (${why})`] };
}

function runChild(file: string): Promise<unknown> {
	// Only the module's export is used, never its command-line block (argv[1] is unset under -e).
	const script =
		`import(${JSON.stringify(pathToFileURL(file).href)}).then(async (m) => {` +
		`process.stdout.write(JSON.stringify(typeof m.benchFetch === "function" ? await m.benchFetch() : null));` +
		`}).catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exitCode = 1; });`;
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] });
		let out = "";
		let err = "";
		child.stdout.on("data", (chunk: Buffer) => {
			out += chunk.toString();
		});
		child.stderr.on("data", (chunk: Buffer) => {
			err += chunk.toString();
		});
		child.on("error", reject);
		child.on("close", (code) => {
			if (code !== 0) return reject(new Error(`bench/fetch.ts failed (exit ${code}): ${err.slice(0, 800)}`));
			try {
				resolve(JSON.parse(out) as unknown);
			} catch {
				reject(new Error(`bench/fetch.ts printed no JSON: ${out.slice(0, 200)}`));
			}
		});
	});
}

export async function benchFetchScenario(file = FETCH_BENCH_FILE): Promise<FetchReport> {
	if (!existsSync(file)) return unavailable("bench/fetch.ts does not exist yet");
	const result = await runChild(file);
	if (result === null) return unavailable("bench/fetch.ts exports no benchFetch()");
	const numbers = result as FetchNumbers;
	const text = Object.entries(numbers)
		.filter(([, value]) => typeof value === "number")
		.map(([key, value]) => `${key} ${round(value as number)}`)
		.join(", ");
	const failed = numbers.failures?.length ? [`fetch: failed runs: ${numbers.failures.join("; ")}`] : [];
	const redteam = (numbers.redteam ?? []).map(
		(row) =>
			`fetch: red-team ${row.shape}: ${row.outcome.slice(0, 140)}; ${round(row.ms)} ms, +${round(row.rssAddedMB)} MB RSS (worker ${round(row.workerPeakMB)} MB)`,
	);
	return {
		numbers,
		rows: [],
		goals: goalsOf(numbers),
		notes: [`fetch: ${text} (own process)`, ...redteam, ...failed],
	};
}
