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

export const FETCH_GOALS = { stallMs: 50, rssAddedMB: 250, ms1MB: 100 };

function goalsOf(n: FetchNumbers): Goal[] {
	return [
		{
			goal: `fetch: main event loop's longest stall while a 5 MB page converts ≤ ${FETCH_GOALS.stallMs} ms`,
			measured: `${round(n.stallMs5MB)} ms (idle loop on this machine: ${round(n.idleStallMs)} ms; converting 1 MB on the main thread: ${round(n.mainThreadStallMs1MB)} ms)`,
			met: n.stallMs5MB <= FETCH_GOALS.stallMs,
		},
		{
			goal: `fetch: peak RSS added for a 5 MB page ≤ ${FETCH_GOALS.rssAddedMB} MB`,
			measured: `${round(n.rssAddedMB5MB)} MB`,
			met: n.rssAddedMB5MB <= FETCH_GOALS.rssAddedMB,
		},
		{
			goal: `fetch: 1 MB of dense HTML ≤ ${FETCH_GOALS.ms1MB} ms`,
			measured: `${round(n.ms1MB)} ms in the worker (${round(n.mainThreadMs1MB)} ms on the main thread); 5 MB ${round(n.ms5MB)} ms`,
			met: n.ms1MB <= FETCH_GOALS.ms1MB,
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
	return { numbers, rows: [], goals: goalsOf(numbers), notes: [`fetch: ${text} (own process)`, ...failed] };
}
