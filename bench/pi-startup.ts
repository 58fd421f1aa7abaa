// Scenario "startup" headline: whole one-shot pi runs as a user feels them (`pi --mode json -p`, a fake chat model
// on loopback that answers at once), bare pi against pi with pi-web-access and a realistic config (6 providers and
// the browser fetcher, 4 rules) in the agent dir, interleaved, medians of both. The extension is loaded the way pi loads a package.

import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { chatReply, startBackend } from "../test/e2e/fakes.ts";
import { createPiHome, nodeBinary, PI_CLI } from "../test/e2e/harness.ts";
import { YOUNG_GENERATION_FLAGS } from "../test/helpers/gc-watch.ts";
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
	/**
	 * KB one whole run allocates, from one more run a side made deterministic (--predictable, a young generation no
	 * collection needs to run in): whether a run crosses the full collection is decided by these bytes.
	 */
	bareAllocatedKb: number;
	oursAllocatedKb: number;
	/** Per alternative entry: wall and CPU ratios against bare pi, its runs with a full collection, its KB a run. */
	alternatives?: Array<{
		name: string;
		ratio: number;
		cpuRatio: number;
		cpuMs: number;
		fullGcRuns: number;
		allocatedKb: number;
	}>;
}

interface Side {
	name: string;
	args: string[];
	wall: number[];
	cpu: number[];
	fullGcs: number[];
	allocatedKb: number;
}

const CPU_REPORT = join(import.meta.dirname, "cpu-report.js");

/**
 * The V8 flags of the run that counts bytes: the same work every time (--predictable: no concurrent compilation or
 * marking, a fixed seed) and a young generation large enough that a run seldom collects, so the heap used at exit is
 * what the run allocated; a collection that runs anyway is added back from its trace (--trace-gc-nvp).
 */
const BYTES_FLAGS = ["--predictable", ...YOUNG_GENERATION_FLAGS, "--trace-gc-nvp"];

/** One pi process with the CPU report preloaded: wall time (spawn to exit) and what it wrote. */
function spawnPi(
	flags: string[],
	args: string[],
	env: Record<string, string>,
	cwd: string,
): Promise<{ wallMs: number; out: string; err: string }> {
	const started = nowMs();
	return new Promise((done, fail) => {
		const child = spawn(nodeBinary(), [...flags, "--import", CPU_REPORT, PI_CLI, ...args], {
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
			done({ wallMs: nowMs() - started, out, err });
		});
	});
}

/** One pi run: wall time (spawn to exit), the process's own CPU time and its full collections (V8's trace). */
async function runOnce(
	args: string[],
	env: Record<string, string>,
	cwd: string,
): Promise<{ wallMs: number; cpuMs: number; fullGcs: number }> {
	const { wallMs, out, err } = await spawnPi(["--trace-gc"], args, env, cwd);
	const cpu = /pwa-bench-cpu-ms ([\d.]+)/.exec(err);
	if (!cpu) throw new Error(`pi printed no CPU report: ${err.slice(0, 400)}`);
	return { wallMs, cpuMs: Number(cpu[1]), fullGcs: out.match(/: Mark-Compact /g)?.length ?? 0 };
}

/**
 * The KB one pi run allocates, the same figure run after run (BYTES_FLAGS): the heap used at exit plus what each
 * collection freed. What decides whether a run reaches a full collection, without the noise of CPU time.
 */
async function allocatedKb(args: string[], env: Record<string, string>, cwd: string): Promise<number> {
	const { out, err } = await spawnPi(BYTES_FLAGS, args, env, cwd);
	const used = /pwa-bench-heap-used (\d+)/.exec(err);
	if (!used) throw new Error(`pi printed no heap report: ${err.slice(0, 400)}`);
	let bytes = Number(used[1]);
	for (const gc of out.matchAll(/total_size_before=(\d+) total_size_after=(\d+)/g))
		bytes += Number(gc[1]) - Number(gc[2]);
	return Math.round(bytes / 1024);
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
		allocatedKb: 0,
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
		for (const s of sides) s.allocatedKb = await allocatedKb(s.args, env, home);
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
		bareAllocatedKb: bare.allocatedKb,
		oursAllocatedKb: ours.allocatedKb,
		...(alternatives.length > 0
			? {
					alternatives: alternatives.map((a) => ({
						name: a.name,
						ratio: ratio(a.wall, bare.wall),
						cpuRatio: ratio(a.cpu, bare.cpu),
						cpuMs: round(median(a.cpu)),
						fullGcRuns: fullGcRuns(a),
						allocatedKb: a.allocatedKb,
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
