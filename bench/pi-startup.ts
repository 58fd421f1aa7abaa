// Scenario "startup" headline: whole one-shot pi runs as a user feels them (`pi --mode json -p`, a fake chat model
// on loopback that answers at once), bare pi against pi with pi-web-access and a realistic config (6 providers and
// the browser fetcher, 4 rules) in the agent dir, interleaved, medians of both. The extension is loaded the way pi loads a package.

import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { chatReply, startBackend } from "../test/e2e/fakes.ts";
import { createPiHome, nodeBinary, PI_CLI } from "../test/e2e/harness.ts";
import { type Comparison, median, nowMs, round, summarize } from "./stats.ts";

export const REPO_ROOT = resolve(import.meta.dirname, "..");

/** The config users have: six providers, four rules (keys from env variables that exist in the run). */
export const REALISTIC_CONFIG = JSON.stringify(
	{
		providers: {
			exa: { type: "exa", apiKey: "$EXA_API_KEY" },
			tavily: { type: "tavily", apiKey: "$TAVILY_API_KEY" },
			brave: { type: "brave", apiKey: "$BRAVE_API_KEY" },
			deepseek: { type: "deepseek", apiKey: "$DEEPSEEK_API_KEY" },
			jina: { type: "jina", apiKey: "$JINA_API_KEY" },
			direct: { type: "direct" },
			// Configured but unused by a start-up: its driver must not load until a render needs it.
			browser: { type: "browser" },
		},
		search: ["exa", "tavily", "brave"],
		fetch: ["exa", "direct", "browser"],
		rules: [
			{ name: "CN", sites: [".cn"], search: ["deepseek"] },
			{ name: "Go", sites: ["github.com/golang", "go.dev"], search: ["exa"], fetch: ["jina", "direct"] },
			{ name: "Python docs", sites: ["=docs.python.org"], fetch: ["direct"] },
			{ name: "News", recency: "week", search: ["tavily", "brave"] },
		],
		policy: { onEmpty: "next-if-filtered", maxAttempts: 4 },
	},
	null,
	2,
);

export interface PiStartupOptions {
	/** Runs per side (interleaved), at least 8 for the headline. */
	runs?: number;
	/** What `-e` loads for "ours": the repository (its package.json manifest) unless told otherwise. */
	extension?: string;
	/** More extension entries measured in the same run (e.g. built JS against TS sources, an empty extension). */
	alternatives?: Array<{ name: string; path: string }>;
}

export interface PiStartupNumbers {
	/** Medians of whole-run wall time (spawn → exit). */
	bareMs: number;
	oursMs: number;
	ratio: number;
	/** Medians of the pi process's own CPU time (user + system): steadier than wall time on a busy machine. */
	bareCpuMs: number;
	oursCpuMs: number;
	cpuRatio: number;
	runs: number;
	/**
	 * Runs in which V8 made a full (mark-compact) collection (--trace-gc): a one-shot pi run ends just short of one,
	 * so the bytes an extension allocates decide whether the run pays for it.
	 */
	bareFullGcRuns: number;
	oursFullGcRuns: number;
	/** Per alternative entry: wall and CPU ratios against bare pi, and its runs with a full collection. */
	alternatives?: Array<{ name: string; ratio: number; cpuRatio: number; cpuMs: number; fullGcRuns: number }>;
}

interface Side {
	name: string;
	args: string[];
	wall: number[];
	cpu: number[];
	fullGcs: number[];
}

const CPU_REPORT = join(import.meta.dirname, "cpu-report.js");

/** One pi run: wall time (spawn → exit), the process's own CPU time and its full collections (V8's trace). */
function runOnce(
	args: string[],
	env: Record<string, string>,
	cwd: string,
): Promise<{ wallMs: number; cpuMs: number; fullGcs: number }> {
	const started = nowMs();
	return new Promise((done, fail) => {
		const child = spawn(nodeBinary(), ["--trace-gc", "--import", CPU_REPORT, PI_CLI, ...args], {
			cwd,
			env,
			stdio: ["ignore", "pipe", "pipe"],
		});
		let err = "";
		let out = "";
		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (text: string) => {
			out += text;
		});
		child.stderr.on("data", (chunk: Buffer) => {
			err += chunk.toString();
		});
		child.on("error", fail);
		child.on("close", (code) => {
			if (code !== 0) return fail(new Error(`pi exited ${code}: ${err.slice(0, 400)}`));
			const cpu = /pwa-bench-cpu-ms ([\d.]+)/.exec(err);
			if (!cpu) return fail(new Error(`pi printed no CPU report: ${err.slice(0, 400)}`));
			done({ wallMs: nowMs() - started, cpuMs: Number(cpu[1]), fullGcs: out.match(/: Mark-Compact /g)?.length ?? 0 });
		});
	});
}

export async function benchPiStartup(options: PiStartupOptions = {}): Promise<{
	numbers: PiStartupNumbers;
	rows: Comparison[];
}> {
	const runs = options.runs ?? 8;
	const extension = options.extension ?? REPO_ROOT;
	const chat = await startBackend(chatReply({ text: "ok" }));
	// The same temp HOME, agent dir (models.json for the fake model) and TMPDIR as the end-to-end tests.
	const piHome = createPiHome(chat.url, REALISTIC_CONFIG);
	const home = piHome.env.HOME!;
	const env: Record<string, string> = {
		...piHome.env,
		EXA_API_KEY: "bench-exa",
		TAVILY_API_KEY: "bench-tavily",
		BRAVE_API_KEY: "bench-brave",
		DEEPSEEK_API_KEY: "bench-deepseek",
		JINA_API_KEY: "bench-jina",
	};
	const common = ["--mode", "json", "-p", "--no-session", "-ne", "--model", "fake/fake-model"];
	const side = (name: string, extra: string[]): Side => ({
		name,
		args: [...common, ...extra, "hi"],
		wall: [],
		cpu: [],
		fullGcs: [],
	});
	const sides: Side[] = [side("bare pi", []), side("pi + pi-web-access", ["-e", extension])];
	for (const alt of options.alternatives ?? []) sides.push(side(alt.name, ["-e", alt.path]));
	try {
		// One warm-up run per side: jiti's transform cache and Node's compile cache fill as they would after the
		// first start on a user's machine.
		for (const s of sides) await runOnce(s.args, env, home);
		for (let i = 0; i < runs; i++) {
			for (const s of i % 2 === 0 ? sides : [...sides].reverse()) {
				const run = await runOnce(s.args, env, home);
				s.wall.push(run.wallMs);
				s.cpu.push(run.cpuMs);
				s.fullGcs.push(run.fullGcs);
			}
		}
	} finally {
		await chat.close();
		piHome.remove();
	}
	const [bare, ours, ...alternatives] = sides as [Side, Side, ...Side[]];
	const ratio = (of: number[], to: number[]) => round(median(of) / median(to));
	const fullGcRuns = (s: Side) => s.fullGcs.filter((count) => count > 0).length;
	const numbers: PiStartupNumbers = {
		bareMs: round(median(bare.wall)),
		oursMs: round(median(ours.wall)),
		ratio: ratio(ours.wall, bare.wall),
		bareCpuMs: round(median(bare.cpu)),
		oursCpuMs: round(median(ours.cpu)),
		cpuRatio: ratio(ours.cpu, bare.cpu),
		runs,
		bareFullGcRuns: fullGcRuns(bare),
		oursFullGcRuns: fullGcRuns(ours),
		...(alternatives.length > 0
			? {
					alternatives: alternatives.map((a) => ({
						name: a.name,
						ratio: ratio(a.wall, bare.wall),
						cpuRatio: ratio(a.cpu, bare.cpu),
						cpuMs: round(median(a.cpu)),
						fullGcRuns: fullGcRuns(a),
					})),
				}
			: {}),
	};
	const rows = (s: Side): Comparison[] => [
		{
			label: `startup: whole pi run, wall (${s.name})`,
			unit: "ms",
			oursName: s.name,
			ours: summarize(s.wall),
			baseName: "bare pi",
			base: summarize(bare.wall),
		},
		{
			label: `startup: whole pi run, CPU (${s.name})`,
			unit: "ms",
			oursName: s.name,
			ours: summarize(s.cpu),
			baseName: "bare pi",
			base: summarize(bare.cpu),
		},
	];
	return { numbers, rows: [...rows(ours), ...alternatives.flatMap(rows)] };
}

// `node bench/pi-startup.ts [runs] [extension] [name=path ...]`: the scenario alone, with more entries to compare.
if (import.meta.url === `file://${process.argv[1]}`) {
	const [runs, extension, ...more] = process.argv.slice(2);
	const result = await benchPiStartup({
		runs: runs ? Number(runs) : 8,
		...(extension ? { extension } : {}),
		alternatives: more.map((m) => ({ name: m.slice(0, m.indexOf("=")), path: m.slice(m.indexOf("=") + 1) })),
	});
	console.log(JSON.stringify(result.numbers));
}
