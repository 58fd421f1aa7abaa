// Scenario "load": loadConfigText (JSON5 + positions, Ajv validation, normalisation) plus compile, for the example
// files and a generated 1,000-rule file, against a bare JSON5.parse of the same text; phases timed apart.
// The 1,000-rule figure is taken warm (after a warm-up, as the route and overhead scenarios do): on a busy machine
// the optimising compiler's thread gets little CPU, and runs before its code arrives measured the machine, not the
// loader. The warm-up is counted in loads as well as timed: a cold load takes ~45 ms here, so 400 ms was 9 loads,
// and the figure still fell until about the 100th (median of 20 loads after 9: 11.9 ms; after 200: 6.9 ms).
// The cold first load is reported beside it, and CPU time beside wall time; so is the first load in a fresh process
// (bench/load-first.ts, the median of a few), what pi's host and the CLI pay at start.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import JSON5 from "json5";
import { compile } from "../engine/route.ts";
import { providerTypes } from "../providers/registry.ts";
import { loadConfigText } from "../schema/load.ts";
import { normalizeConfig, type TypeFacts } from "../schema/normalize.ts";
import { parseSource } from "../schema/source.ts";
import { validateAgainstSchema } from "../schema/validate.ts";
import { generateConfig } from "./generate.ts";
import { type Comparison, type Goal, median, nowMs, round, type ScenarioReport, summarize } from "./stats.ts";

export interface LoadOptions {
	/** Rules in the generated file (the goal is stated for 1,000). */
	rules?: number;
	/** Timed repetitions per file (after one untimed warm-up). */
	runs?: number;
	/** Timed repetitions of each phase of the generated file. */
	phaseRuns?: number;
	/** Untimed loads of the generated file before its timing, in ms (and at least `warmupRuns` loads). */
	warmupMs?: number;
	/** Untimed loads of the generated file before its timing, at least (within WARMUP_MAX_MS). */
	warmupRuns?: number;
	/** Fresh processes that each load the generated file once (bench/load-first.ts); 0 skips them. */
	freshRuns?: number;
}

const DEFAULTS = { rules: 1000, runs: 20, phaseRuns: 10, warmupMs: 400, warmupRuns: 100, freshRuns: 7 };
const FIRST_CHILD = join(import.meta.dirname, "load-first.ts");
/** The warm-up stops here even short of `warmupRuns` loads (a very slow machine), and the notes say how many ran. */
const WARMUP_MAX_MS = 5000;
const EXAMPLES_DIR = join(import.meta.dirname, "..", "examples");

export interface LoadNumbers {
	/** Median load + compile of the generated file (`rules` rules; 1,000 by default), warm. */
	ms1000: number;
	p99Ms1000: number;
	/** Median CPU time (user + system, the whole process) of the same runs. */
	cpuMs1000: number;
	/** The first load + compile of the generated file in this process (after the examples): cold code, new patterns. */
	coldMs1000: number;
	/**
	 * The first load + compile of the generated file in a fresh process, the loader's modules imported just before
	 * (median of `freshRuns` processes; absent when 0): what pi's host and the CLI pay at start.
	 */
	firstMs1000?: number;
	firstCpuMs1000?: number;
	/** The same first load in processes with V8's optimising compiler off (`--no-opt`), alternating with those. */
	firstNoOptMs1000?: number;
	firstNoOptCpuMs1000?: number;
	/** Of that first load: loadConfigText and compile apart, and the loader's module imports before it (medians). */
	firstPhasesMs?: { load: number; compile: number; imports: number };
	/** Untimed loads of the generated file before the timed ones. */
	warmupLoads: number;
	rules: number;
	/** The first validation in this process: reading the schema file and compiling Ajv. */
	ajvFirstCallMs: number;
	/** The first loadConfigText call after that (cold JSON5 / momoa / normaliser code). */
	firstCallMs: number;
	/** Median per phase for the generated file. */
	phasesMs: {
		json5: number;
		parseWithPositions: number;
		validate: number;
		/** normalizeConfig alone: site patterns parsed, rules checked, shadowed rules found. */
		normalize: number;
		loadTotal: number;
		compile: number;
	};
	/** Median load + compile per example file. */
	examplesMs: Record<string, number>;
	diagnostics: number;
}

function timeRuns(runs: number, run: () => unknown): number[] {
	run();
	const samples: number[] = [];
	for (let i = 0; i < runs; i++) {
		const started = nowMs();
		run();
		samples.push(nowMs() - started);
	}
	return samples;
}

/** Wall and CPU time (ms) of each run. */
function timeRunsCpu(runs: number, run: () => unknown): { wall: number[]; cpu: number[] } {
	const wall: number[] = [];
	const cpu: number[] = [];
	for (let i = 0; i < runs; i++) {
		const cpuStarted = process.cpuUsage();
		const started = nowMs();
		run();
		wall.push(nowMs() - started);
		const used = process.cpuUsage(cpuStarted);
		cpu.push((used.user + used.system) / 1000);
	}
	return { wall, cpu };
}

interface FirstLoad {
	importMs: number;
	loadMs: number;
	compileMs: number;
	firstMs: number;
	firstCpuMs: number;
	diagnostics: number;
}

/**
 * `runs` fresh processes, each loading `text` once (bench/load-first.ts), and as many again with V8's optimising
 * compiler off (`--no-opt`), the two alternating: what the load costs without TurboFan compiling its hot functions
 * on other threads meanwhile, which on a machine of few cores takes the main thread's CPU.
 */
function freshLoads(text: string, runs: number): { fresh: FirstLoad[]; noOpt: FirstLoad[] } {
	const dir = mkdtempSync(join(tmpdir(), "pwa-bench-load-"));
	const file = join(dir, "generated.json5");
	const loadOnce = (flags: string[]) => {
		const out = execFileSync(process.execPath, [...flags, FIRST_CHILD, file], { encoding: "utf8" });
		return JSON.parse(out.trim().split("\n").at(-1) ?? "") as FirstLoad;
	};
	try {
		writeFileSync(file, text);
		const fresh: FirstLoad[] = [];
		const noOpt: FirstLoad[] = [];
		for (let i = 0; i < runs; i++) {
			fresh.push(loadOnce([]));
			noOpt.push(loadOnce(["--no-opt"]));
		}
		return { fresh, noOpt };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function loadAndCompile(text: string, file: string): number {
	const loaded = loadConfigText(text, file);
	compile(loaded.config);
	return loaded.diagnostics.length;
}

export async function benchLoad(options: LoadOptions = {}): Promise<ScenarioReport<LoadNumbers>> {
	const { rules, runs, phaseRuns, warmupMs, warmupRuns, freshRuns } = { ...DEFAULTS, ...options };
	const loadPerCore = (loadavg()[0] ?? 0) / availableParallelism();
	const examples = readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith(".json5"))
		.sort();
	const exampleTexts = examples.map((f) => ({ file: f, text: readFileSync(join(EXAMPLES_DIR, f), "utf8") }));
	const generatedText = JSON.stringify(generateConfig(rules, 4242).raw, null, "\t");
	// First, before this process's own loads: the children then compete with nothing of ours.
	const { fresh, noOpt } = freshRuns > 0 ? freshLoads(generatedText, freshRuns) : { fresh: [], noOpt: [] };
	const freshMedian = (pick: (load: FirstLoad) => number, of = fresh) => round(median(of.map(pick)));

	// First calls: reading the schema and compiling Ajv happen once per process and are reported apart.
	const ajvStarted = nowMs();
	validateAgainstSchema({});
	const ajvFirstCallMs = nowMs() - ajvStarted;
	const firstStarted = nowMs();
	loadConfigText(exampleTexts[0]?.text ?? "{}", "first.json5");
	const firstCallMs = nowMs() - firstStarted;

	const rows: Comparison[] = [];
	const examplesMs: Record<string, number> = {};
	for (const { file, text } of exampleTexts) {
		const ours = summarize(timeRuns(runs, () => loadAndCompile(text, file)));
		const base = summarize(timeRuns(runs, () => JSON5.parse(text)));
		examplesMs[file] = round(ours.p50);
		rows.push({ label: `load ${file}`, unit: "ms", oursName: "load+compile", ours, baseName: "JSON5.parse", base });
	}

	const file = `generated-${rules}.json5`;
	let diagnostics = 0;
	const coldStarted = nowMs();
	loadAndCompile(generatedText, file);
	const coldMs = nowMs() - coldStarted;
	const warmupStarted = nowMs();
	const warming = () => nowMs() - warmupStarted;
	let warmupLoads = 0;
	while ((warmupLoads < warmupRuns || warming() < warmupMs) && warming() <= WARMUP_MAX_MS) {
		loadAndCompile(generatedText, file);
		warmupLoads++;
	}
	const timed = timeRunsCpu(runs, () => {
		diagnostics = loadAndCompile(generatedText, file);
	});
	const ours = summarize(timed.wall);
	const oursCpu = summarize(timed.cpu);
	const json5 = summarize(timeRuns(runs, () => JSON5.parse(generatedText)));
	rows.push({
		label: `load ${rules} rules`,
		unit: "ms",
		oursName: "load+compile",
		ours,
		baseName: "JSON5.parse",
		base: json5,
	});
	const value = JSON5.parse(generatedText) as unknown;
	const facts: Record<string, TypeFacts> = {};
	for (const [type, entry] of Object.entries(providerTypes)) facts[type] = { search: entry.search, fetch: entry.fetch };
	const loaded = loadConfigText(generatedText, file);
	const phasesMs = {
		json5: round(json5.p50),
		parseWithPositions: round(summarize(timeRuns(phaseRuns, () => parseSource(generatedText))).p50),
		validate: round(summarize(timeRuns(phaseRuns, () => validateAgainstSchema(value))).p50),
		normalize: round(
			summarize(timeRuns(phaseRuns, () => normalizeConfig(value as Record<string, unknown>, facts))).p50,
		),
		loadTotal: round(summarize(timeRuns(phaseRuns, () => loadConfigText(generatedText, file))).p50),
		compile: round(summarize(timeRuns(phaseRuns, () => compile(loaded.config))).p50),
	};
	const numbers: LoadNumbers = {
		ms1000: round(ours.p50),
		p99Ms1000: round(ours.p99),
		cpuMs1000: round(oursCpu.p50),
		coldMs1000: round(coldMs),
		...(fresh.length > 0
			? {
					firstMs1000: freshMedian((f) => f.firstMs),
					firstCpuMs1000: freshMedian((f) => f.firstCpuMs),
					firstNoOptMs1000: freshMedian((f) => f.firstMs, noOpt),
					firstNoOptCpuMs1000: freshMedian((f) => f.firstCpuMs, noOpt),
					firstPhasesMs: {
						load: freshMedian((f) => f.loadMs),
						compile: freshMedian((f) => f.compileMs),
						imports: freshMedian((f) => f.importMs),
					},
				}
			: {}),
		warmupLoads,
		rules,
		ajvFirstCallMs: round(ajvFirstCallMs),
		firstCallMs: round(firstCallMs),
		phasesMs,
		examplesMs,
		diagnostics,
	};
	const notes: string[] = [
		`load: where the time goes for ${rules} rules (medians): JSON5.parse ${phasesMs.json5} ms, parse with positions ` +
			`(JSON5 + momoa) ${phasesMs.parseWithPositions} ms, Ajv validate ${phasesMs.validate} ms, normalise ` +
			`${phasesMs.normalize} ms, whole loadConfigText ${phasesMs.loadTotal} ms, compile ${phasesMs.compile} ms; ` +
			`once per process: schema + Ajv compile ${numbers.ajvFirstCallMs} ms, first load ${numbers.firstCallMs} ms`,
		`load: ${rules} rules warm (after ${warmupLoads} loads): p50 ${numbers.ms1000} ms wall, ${numbers.cpuMs1000} ms ` +
			`CPU; the first load of the file in this process (cold code, patterns not memoised): ${numbers.coldMs1000} ms`,
	];
	const first = numbers.firstPhasesMs;
	if (first)
		notes.push(
			`load: the first load of ${rules} rules in a fresh process (median of ${fresh.length}): ` +
				`${numbers.firstMs1000} ms wall, ${numbers.firstCpuMs1000} ms CPU (loadConfigText ${first.load} ms, ` +
				`compile ${first.compile} ms); the loader's module imports before it ${first.imports} ms`,
		);
	if (numbers.firstNoOptMs1000 !== undefined)
		notes.push(
			`load: the same first load with V8's optimising compiler off (--no-opt, median of ${noOpt.length}, ` +
				`alternating with those): ${numbers.firstNoOptMs1000} ms wall, ${numbers.firstNoOptCpuMs1000} ms CPU; ` +
				`the difference is TurboFan compiling the loader's hot functions on other threads while it runs ` +
				`(${availableParallelism()} cores here)`,
		);
	if (diagnostics > 0 || [...fresh, ...noOpt].some((f) => f.diagnostics > 0))
		notes.push(`load: the generated file gave ${diagnostics} diagnostics (expected none)`);
	// Wall time decides on a quiet machine; with more than one runnable process per core, CPU time (and it says so).
	const busy = loadPerCore > 1;
	const decisive = busy ? numbers.cpuMs1000 : numbers.ms1000;
	const measured = busy
		? `${numbers.cpuMs1000} ms CPU (machine busy, ${round(loadPerCore)} load per core; wall ${numbers.ms1000} ms)`
		: `${numbers.ms1000} ms (CPU ${numbers.cpuMs1000} ms)`;
	const goals: Goal[] =
		rules === 1000
			? [
					{ goal: "load: ≤ 15 ms for 1,000 rules (load + compile)", measured, met: decisive <= 15 },
					{ goal: "load: ≤ 12 ms for 1,000 rules (load + compile)", measured, met: decisive <= 12 },
					...(numbers.firstMs1000 !== undefined && numbers.firstCpuMs1000 !== undefined
						? [
								{
									goal: "load: ≤ 30 ms for the first load of 1,000 rules in a fresh process (load + compile)",
									measured: busy
										? `${numbers.firstCpuMs1000} ms CPU (machine busy; wall ${numbers.firstMs1000} ms)`
										: `${numbers.firstMs1000} ms (CPU ${numbers.firstCpuMs1000} ms)`,
									met: (busy ? numbers.firstCpuMs1000 : numbers.firstMs1000) <= 30,
								},
							]
						: []),
				]
			: [];
	return { numbers, rows, goals, notes };
}
