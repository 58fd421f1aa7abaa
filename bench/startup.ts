// Scenario "startup". Headline: whole one-shot pi runs, bare against with pi-web-access and a realistic config
// (bench/pi-startup.ts). Detail: fresh Node processes that first import pi's host packages, then our extension
// factory or an empty one (alternating), comparing the time after the host imports; one more lists what we load.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAsPi } from "../test/helpers/pi-loader.ts";
import { benchPiStartup, type PiStartupNumbers } from "./pi-startup.ts";
import { type Comparison, type Goal, median, nowMs, round, type ScenarioReport, summarize } from "./stats.ts";

export interface StartupOptions {
	/** Runs per side (alternating), unless the time budget ends them early; 0 only lists the loaded modules. */
	runs?: number;
	/** Stop starting new pairs after this long (at least `minRuns` pairs always run). */
	budgetMs?: number;
	minRuns?: number;
	/** False skips the host imports in the children (smoke test only: our figure then includes pi's packages). */
	hostImports?: boolean;
	/** Whole pi runs per side for the headline (0 skips them). */
	piRuns?: number;
}

const DEFAULTS = { runs: 15, budgetMs: 35_000, minRuns: 3, hostImports: true, piRuns: 8 };
const CHILD = join(import.meta.dirname, "startup-child.ts");
/** Loads the extension with pi's own jiti and virtual modules, as its bundled CLI does, and lists the files read. */
/** Must stay unloaded until a tool is called: page extraction, PDF, and every provider module. */
const HEAVY_PACKAGES = ["linkedom", "@mozilla/readability", "turndown", "unpdf", "ioredis"];

export interface StartupNumbers {
	/** Median (import + factory) of ours minus the empty extension's, measured inside the child after the host imports. */
	extraMs: number;
	/** Same difference on whole-process wall time (spawn → exit). */
	wallExtraMs: number;
	oursMs: number;
	emptyMs: number;
	runs: number;
	/** Modules our factory loads (files and packages), and how many of them are forbidden at start-up. */
	modulesLoaded: number;
	forbiddenLoaded: number;
	/** Our files read at pi's start-up: jiti's modules (each a resolve, a read, a hash, a compile) and their data. */
	piModules: number;
	/**
	 * KB that loading the extension and running its factory as pi does allocates, jiti's transform cache warm (a
	 * user's every start but the first): the same bytes each time (test/helpers/pi-loader.ts).
	 */
	piLoadKb: number;
	/** The headline: whole pi runs (absent when piRuns is 0). */
	pi?: PiStartupNumbers;
}

interface ChildReport {
	ourMs: number;
	calls: Record<string, string[]>;
	loaded?: string[];
}

function runChild(
	mode: "extension" | "empty",
	env: NodeJS.ProcessEnv,
	flags: string[],
): Promise<ChildReport & { wallMs: number }> {
	const started = nowMs();
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [CHILD, mode, ...flags], {
			env,
			stdio: ["ignore", "pipe", "pipe"],
		});
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
			const wallMs = nowMs() - started;
			if (code !== 0) return reject(new Error(`startup child (${mode}) exited ${code}: ${err.slice(0, 500)}`));
			try {
				resolve({ ...(JSON.parse(out.trim().split("\n").at(-1) ?? "") as ChildReport), wallMs });
			} catch {
				reject(new Error(`startup child (${mode}) printed no report: ${out.slice(0, 200)} ${err.slice(0, 300)}`));
			}
		});
	});
}

/** The registry and the types' facts (providers/type-facts.ts): light by design, never an implementation. */
const REGISTRY_MODULE = /^(index|registry|type-facts|model-vendors|[a-z0-9-]+\/facts)\.ts$/;

/** Short names of loaded modules that must not be loaded at start-up. */
export function forbiddenModules(urls: readonly string[]): string[] {
	const found = new Set<string>();
	for (const url of urls) {
		for (const name of HEAVY_PACKAGES) if (url.includes(`/node_modules/${name}/`)) found.add(name);
		const provider = /\/providers\/(.+\.ts)$/.exec(url);
		if (provider && !REGISTRY_MODULE.test(provider[1]!)) found.add(`providers/${provider[1]}`);
	}
	return [...found].sort();
}

/** Loaded modules grouped to packages (node_modules/<pkg>) or repo files, for the report. */
function groupModules(urls: readonly string[]): string[] {
	const groups = new Set<string>();
	for (const url of urls) {
		const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
		groups.add(
			pkg ? pkg[1]! : url.replace(/^file:\/\/.*?\/(engine|schema|extension|providers|runtime|executor|cli)\//, "$1/"),
		);
	}
	return [...groups];
}

const EMPTY_EXTENSION = "pi + an empty extension";

/**
 * Whole pi runs: bare, with pi-web-access, and with an extension that does nothing. The last shows what loading any
 * extension costs (pi loads every extension through jiti), apart from what ours adds.
 */
async function wholeRuns(runs: number): ReturnType<typeof benchPiStartup> {
	const dir = mkdtempSync(join(tmpdir(), "pwa-bench-empty-ext-"));
	try {
		const path = join(dir, "index.ts");
		writeFileSync(path, "export default function (): void {}\n");
		return await benchPiStartup({ runs, alternatives: [{ name: EMPTY_EXTENSION, path }] });
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

export async function benchStartup(options: StartupOptions = {}): Promise<ScenarioReport<StartupNumbers>> {
	const { runs, budgetMs, minRuns, hostImports, piRuns } = { ...DEFAULTS, ...options };
	const whole = piRuns > 0 ? await wholeRuns(piRuns) : undefined;
	const flags = hostImports ? [] : ["--no-host"];
	const dir = mkdtempSync(join(tmpdir(), "pwa-bench-startup-"));
	// No config file: toolSettings() reads one at start-up, and the user's real file must not count.
	const env = {
		...process.env,
		PI_WEB_ACCESS_CONFIG: join(dir, "absent.json"),
		PI_CODING_AGENT_DIR: dir,
		PI_OFFLINE: "1",
	};
	const ours: ChildReport[] = [];
	const empty: ChildReport[] = [];
	const oursWall: number[] = [];
	const emptyWall: number[] = [];
	let listed: ChildReport;
	let piRead: string[];
	let piLoadBytes: number | null;
	const started = nowMs();
	try {
		for (let i = 0; i < runs && (i < minRuns || nowMs() - started < budgetMs); i++) {
			const pair = i % 2 === 0 ? (["extension", "empty"] as const) : (["empty", "extension"] as const);
			for (const mode of pair) {
				const report = await runChild(mode, env, flags);
				(mode === "extension" ? ours : empty).push(report);
				(mode === "extension" ? oursWall : emptyWall).push(report.wallMs);
			}
		}
		listed = await runChild("extension", env, [...flags, "--list"]);
		piRead = (await loadAsPi({ ...env, HOME: dir, TMPDIR: dir })).loaded;
		// The first load filled jiti's cache in TMPDIR: this one is what every later start allocates.
		piLoadBytes = (await loadAsPi({ ...env, HOME: dir, TMPDIR: dir })).allocated;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	const o = summarize(ours.map((r) => r.ourMs));
	const e = summarize(empty.map((r) => r.ourMs));
	const loaded = listed.loaded ?? [];
	const forbidden = forbiddenModules(loaded);
	const numbers: StartupNumbers = {
		extraMs: round(o.p50 - e.p50),
		wallExtraMs: round(median(oursWall) - median(emptyWall)),
		oursMs: round(o.p50),
		emptyMs: round(e.p50),
		runs: ours.length,
		modulesLoaded: loaded.length,
		forbiddenLoaded: forbidden.length,
		piModules: piRead.length,
		piLoadKb: piLoadBytes === null ? Number.NaN : round(piLoadBytes / 1024),
		...(whole ? { pi: whole.numbers } : {}),
	};
	const registered = Object.entries(listed.calls)
		.map(([method, names]) => `${method}(${names.join(", ")})`)
		.join(" ");
	// runs: 0 (smoke test) only lists the modules: no timing rows or timing goal then.
	const rows: Comparison[] = [...(whole?.rows ?? [])];
	if (ours.length > 0)
		rows.push(
			{
				label: "startup (after host imports)",
				unit: "ms",
				oursName: "extension",
				ours: o,
				baseName: "empty",
				base: e,
			},
			{
				label: "startup (process wall)",
				unit: "ms",
				oursName: "extension",
				ours: summarize(oursWall),
				baseName: "empty",
				base: summarize(emptyWall),
			},
		);
	const idle = whole?.numbers.alternatives?.find((a) => a.name === EMPTY_EXTENSION);
	const goals: Goal[] = [
		...(whole
			? [
					{
						goal: "startup: whole pi run ≤ 1.10× bare pi (median wall time; CPU time alongside)",
						measured: `${whole.numbers.oursMs} / ${whole.numbers.bareMs} ms = ${whole.numbers.ratio}× wall; ${whole.numbers.oursCpuMs} / ${whole.numbers.bareCpuMs} ms = ${whole.numbers.cpuRatio}× CPU (${whole.numbers.runs} runs each)`,
						met: whole.numbers.ratio <= 1.1,
					},
				]
			: []),
		...(whole && idle
			? [
					{
						goal: "startup: whole pi run ≤ 1.02× pi + an empty extension (median CPU)",
						measured: `${whole.numbers.oursCpuMs} / ${idle.cpuMs} ms = ${round(whole.numbers.oursCpuMs / idle.cpuMs)}× CPU`,
						met: whole.numbers.oursCpuMs <= idle.cpuMs * 1.02,
					},
				]
			: []),
		...(ours.length === 0
			? []
			: [{ goal: "startup: ≤ 30 ms extra", measured: `${numbers.extraMs} ms`, met: numbers.extraMs <= 30 }]),
		{
			goal: "startup: no HTML/PDF library or provider module loaded by the factory",
			measured: forbidden.length === 0 ? "none loaded" : forbidden.join(", "),
			met: forbidden.length === 0,
		},
	];
	const notes = [
		...(whole && idle
			? [
					`startup: ${EMPTY_EXTENSION} alone runs ${idle.ratio}× wall and ${idle.cpuRatio}× CPU of bare pi; ` +
						`pi-web-access ${round(whole.numbers.ratio / idle.ratio)}× wall and ` +
						`${round(whole.numbers.oursCpuMs / idle.cpuMs)}× CPU of that`,
				]
			: []),
		...(whole
			? [
					"startup: runs with a full garbage collection: " +
						[
							`bare pi ${whole.numbers.bareFullGcRuns}`,
							`pi-web-access ${whole.numbers.oursFullGcRuns}`,
							...(whole.numbers.alternatives ?? []).map((a) => `${a.name} ${a.fullGcRuns}`),
						]
							.map((side) => `${side} of ${whole.numbers.runs}`)
							.join(", "),
					// Bytes decide that crossing: each side's above bare pi's, the same figure run after run.
					"startup: KB a whole run allocates (one run a side, --predictable): " +
						[
							`bare pi ${whole.numbers.bareAllocatedKb}`,
							`pi-web-access +${whole.numbers.oursAllocatedKb - whole.numbers.bareAllocatedKb}`,
							...(whole.numbers.alternatives ?? []).map(
								(a) => `${a.name} +${a.allocatedKb - whole.numbers.bareAllocatedKb}`,
							),
						].join(", "),
				]
			: []),
		`startup: factory registered ${registered || "nothing"}`,
		`startup: ${loaded.length} modules loaded by import + factory: ${groupModules(loaded).join(", ")}`,
		`startup: pi reads ${piRead.length} of our files at start-up (its jiti's modules and the data they read): ${piRead.join(", ")}`,
		`startup: loading it as pi does allocates ${numbers.piLoadKb} KB (jiti's cache warm)`,
	];
	return { numbers, rows, goals, notes };
}
