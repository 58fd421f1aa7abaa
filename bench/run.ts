// `npm run bench [-- --json] [-- --only route,load]`: runs the scenarios one after another and prints a table of
// median / p99 for both sides with their ratios, the goals met or missed, and notes; --json prints one object.
// Each scenario runs in a process of its own (`--scenario <name>` prints its report as JSON): in one process, what
// one left behind moved the next one's figures (a 1,000-rule load after the route scenario took 0.72–0.9×
// JSON5.parse over five runs, against 0.4–0.57× on its own; a full GC between the two did not change it, so most
// likely the optimising compiler's feedback from the route workload).

import { spawn } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { benchBrowser } from "./browser.ts";
import { benchExtract } from "./extract.ts";
import { benchExtractKinds } from "./extract-kinds.ts";
import { benchFetchScenario } from "./fetch-scenario.ts";
import { benchHedge } from "./hedge.ts";
import { benchLoad } from "./load.ts";
import { benchOverhead } from "./overhead.ts";
import { benchRoute } from "./route.ts";
import { benchSources } from "./sources.ts";
import { benchStartup } from "./startup.ts";
import { type Comparison, type Goal, nowMs, round, type ScenarioReport } from "./stats.ts";
import { benchStore } from "./store.ts";

type AnyReport = ScenarioReport<object>;

const SCENARIOS: Record<string, () => Promise<AnyReport>> = {
	route: () => benchRoute(),
	load: () => benchLoad(),
	startup: () => benchStartup(),
	overhead: () => benchOverhead(),
	hedge: () => benchHedge(),
	fetch: () => benchFetchScenario(),
	extract: () => benchExtract(),
	"extract-kinds": () => benchExtractKinds(),
	browser: () => benchBrowser(),
	sources: () => benchSources(),
	store: () => benchStore(),
};

function unknownScenario(names: string[]): Error {
	return new Error(`unknown scenario ${names.join(", ")}; known: ${Object.keys(SCENARIOS).join(", ")}`);
}

function parseArgs(argv: string[]): { json: boolean; only: string[] } {
	const json = argv.includes("--json");
	const at = argv.findIndex((a) => a === "--only" || a.startsWith("--only="));
	let only = Object.keys(SCENARIOS);
	if (at >= 0) {
		const value = argv[at]!.includes("=") ? argv[at]!.slice("--only=".length) : (argv[at + 1] ?? "");
		only = value
			.split(",")
			.map((s) => s.trim())
			.filter(Boolean);
		const unknown = only.filter((name) => !(name in SCENARIOS));
		if (unknown.length > 0) throw unknownScenario(unknown);
	}
	return { json, only };
}

function fmt(value: number): string {
	if (!Number.isFinite(value)) return "–";
	return String(round(value));
}

function tableRows(rows: Comparison[]): string[][] {
	return rows.map((r) => [
		r.label,
		`${r.oursName} / ${r.baseName}`,
		`${fmt(r.ours.p50)} ${r.unit}`,
		`${fmt(r.ours.p99)} ${r.unit}`,
		`${fmt(r.base.p50)} ${r.unit}`,
		`${fmt(r.base.p99)} ${r.unit}`,
		`${fmt(r.ours.p50 / r.base.p50)}×`,
		`${fmt(r.ours.p99 / r.base.p99)}×`,
		String(Math.min(r.ours.n, r.base.n)),
	]);
}

export function formatTable(rows: Comparison[]): string {
	const header = [
		"scenario",
		"ours / baseline",
		"ours p50",
		"ours p99",
		"base p50",
		"base p99",
		"p50 ratio",
		"p99 ratio",
		"n",
	];
	const body = tableRows(rows);
	const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
	const line = (cells: string[]) =>
		cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
	return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

/** Runs one scenario in a child process (this file with `--scenario`) and reads its report from its stdout. */
function inChild(name: string): Promise<AnyReport> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, "--scenario", name], {
			stdio: ["ignore", "pipe", "inherit"],
		});
		const out: Buffer[] = [];
		child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
		child.on("error", reject);
		child.on("close", (code, signal) => {
			const text = Buffer.concat(out).toString("utf8").trim();
			if (code !== 0) {
				reject(new Error(`the ${name} scenario's process ended with ${signal ?? `exit code ${code}`}: ${text}`));
				return;
			}
			try {
				resolve(JSON.parse(text.slice(text.lastIndexOf("\n") + 1)) as AnyReport);
			} catch {
				reject(new Error(`the ${name} scenario's process printed no report: ${text.slice(-500)}`));
			}
		});
	});
}

/** The child side: one scenario, its report as one JSON line; a failure is its message on stdout and exit code 1. */
async function runScenario(name: string): Promise<void> {
	const scenario = SCENARIOS[name];
	if (scenario === undefined) throw unknownScenario([name]);
	try {
		process.stdout.write(`${JSON.stringify(await scenario())}\n`);
	} catch (error) {
		process.stdout.write(`${(error as Error).stack ?? error}\n`);
		process.exitCode = 1;
	}
}

async function main(): Promise<void> {
	const at = process.argv.indexOf("--scenario");
	if (at >= 0) {
		await runScenario(process.argv[at + 1] ?? "");
		return;
	}
	const { json, only } = parseArgs(process.argv.slice(2));
	const cores = availableParallelism();
	const load1 = loadavg()[0] ?? 0;
	const output: Record<string, unknown> = {
		machine: { cores, node: process.version, loadAverage1m: round(load1) },
	};
	const rows: Comparison[] = [];
	const goals: Goal[] = [];
	const notes: string[] = [];
	const seconds: Record<string, number> = {};
	let failed = false;
	if (load1 > cores) notes.push(`machine busy: load average ${round(load1)} on ${cores} cores; timings are inflated`);
	for (const name of only) {
		process.stderr.write(`bench: ${name}…\n`);
		const started = nowMs();
		try {
			const report = await inChild(name);
			output[name] = report.numbers;
			rows.push(...report.rows);
			goals.push(...report.goals);
			notes.push(...report.notes);
		} catch (error) {
			failed = true;
			output[name] = { error: (error as Error).message };
			notes.push(`${name}: FAILED: ${(error as Error).stack ?? error}`);
		}
		seconds[name] = round((nowMs() - started) / 1000);
		process.stderr.write(`bench: ${name} took ${seconds[name]} s\n`);
	}
	output.seconds = seconds;
	output.goals = goals;
	output.notes = notes;
	if (json) {
		process.stdout.write(`${JSON.stringify(output)}\n`);
	} else {
		const lines = [
			`pi-web-access bench — node ${process.version}, ${cores} cores, load ${round(load1)}`,
			"",
			formatTable(rows),
			"",
			"goals:",
			...goals.map((g) => `  ${g.met ? "met   " : "MISSED"}  ${g.goal}: ${g.measured}`),
			"",
			"notes:",
			...notes.map((n) => `  ${n}`),
			"",
			`seconds per scenario: ${Object.entries(seconds)
				.map(([k, v]) => `${k} ${v}`)
				.join(", ")}`,
		];
		process.stdout.write(`${lines.join("\n")}\n`);
	}
	if (failed) process.exitCode = 1;
}

// Importable (the smoke test formats a table) without running every scenario.
if (process.argv[1] === import.meta.filename) await main();
