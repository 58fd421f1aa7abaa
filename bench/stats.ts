// Shared pieces of the benchmarks: percentiles, batch timing for microsecond operations, a seeded PRNG and the
// report shapes every scenario returns (so run.ts prints them alike and the smoke test can call them directly).

/** Median, p99 and friends of one sample set, in the unit the samples were taken in. */
export interface Summary {
	n: number;
	p50: number;
	p90: number;
	p99: number;
	mean: number;
	min: number;
	max: number;
}

/** One "ours versus baseline" line of the table. */
export interface Comparison {
	label: string;
	unit: "µs" | "ms";
	oursName: string;
	ours: Summary;
	baseName: string;
	base: Summary;
}

/** A goal from the issue, with the figure that decides it. */
export interface Goal {
	goal: string;
	measured: string;
	met: boolean;
}

/** What every scenario function returns: flat numbers for --json, rows for the table, goals and free notes. */
export interface ScenarioReport<N> {
	numbers: N;
	rows: Comparison[];
	goals: Goal[];
	notes: string[];
}

/** Nearest-rank percentile of already sorted samples (q in 0..1). */
export function percentile(sorted: readonly number[], q: number): number {
	if (sorted.length === 0) return Number.NaN;
	const rank = Math.ceil(q * sorted.length) - 1;
	return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

export function summarize(samples: readonly number[]): Summary {
	const sorted = [...samples].sort((a, b) => a - b);
	const sum = sorted.reduce((total, x) => total + x, 0);
	return {
		n: sorted.length,
		p50: percentile(sorted, 0.5),
		p90: percentile(sorted, 0.9),
		p99: percentile(sorted, 0.99),
		mean: sorted.length === 0 ? Number.NaN : sum / sorted.length,
		min: sorted[0] ?? Number.NaN,
		max: sorted.at(-1) ?? Number.NaN,
	};
}

export function median(samples: readonly number[]): number {
	return percentile(
		[...samples].sort((a, b) => a - b),
		0.5,
	);
}

/** A median with its 95 % interval. */
export interface MedianInterval {
	median: number;
	low: number;
	high: number;
}

/**
 * The median with its distribution-free 95 % interval: the k-th smallest and the k-th largest value, k the largest
 * with P(Binomial(n, ½) < k) ≤ 2.5 %, so the interval holds the median the values are drawn around in at least 95 runs
 * of 100, whatever their distribution (independent draws is all it assumes). A few wild values cannot move it far;
 * a run whose interval reaches across a goal has not decided it. The whole range with 8 values or fewer.
 */
export function medianInterval(values: readonly number[]): MedianInterval {
	const sorted = [...values].sort((a, b) => a - b);
	const n = sorted.length;
	if (n === 0) return { median: Number.NaN, low: Number.NaN, high: Number.NaN };
	let k = 0;
	// P(X < k + 1) summed term by term: C(n, i) / 2^n, built in logs so that large n does not overflow.
	let logTerm = -n * Math.LN2;
	let below = 0;
	for (let i = 0; i < n; i++) {
		below += Math.exp(logTerm);
		if (below > 0.025) break;
		k = i + 1;
		logTerm += Math.log((n - i) / (i + 1));
	}
	const at = Math.max(1, k);
	return { median: percentile(sorted, 0.5), low: sorted[at - 1]!, high: sorted[n - at]! };
}

export function nowMs(): number {
	return performance.now();
}

export interface BatchOptions {
	/** Stop taking batches after this much time (the first batch always runs). */
	budgetMs: number;
	/** Aim for batches of about this long, so timer resolution and loop overhead vanish. */
	targetBatchMs?: number;
	maxBatches?: number;
	/** Untimed calls first, so the JIT has seen the code. */
	warmupCalls?: number;
}

/**
 * Times a microsecond operation: calls `run(i)` in batches of N (N calibrated so a batch lasts about
 * targetBatchMs), returns the per-call time of each batch in µs. `i` counts calls, so callers can cycle inputs.
 */
export function timeBatches(run: (i: number) => unknown, options: BatchOptions): number[] {
	const targetMs = options.targetBatchMs ?? 2;
	const maxBatches = options.maxBatches ?? 2000;
	let i = 0;
	let sink = 0;
	const consume = (value: unknown) => {
		if (value !== undefined) sink++;
	};
	for (let w = 0; w < (options.warmupCalls ?? 200); w++) consume(run(i++));
	let size = 1;
	for (;;) {
		const started = nowMs();
		for (let k = 0; k < size; k++) consume(run(i++));
		const took = nowMs() - started;
		if (took >= targetMs / 4 || size >= 1 << 20) {
			size = Math.max(1, Math.round((size * targetMs) / Math.max(took, 1e-3)));
			break;
		}
		size *= 4;
	}
	const perCallUs: number[] = [];
	const deadline = nowMs() + options.budgetMs;
	do {
		const started = nowMs();
		for (let k = 0; k < size; k++) consume(run(i++));
		perCallUs.push(((nowMs() - started) * 1000) / size);
	} while (perCallUs.length < maxBatches && nowMs() < deadline);
	if (sink < 0) console.log(sink); // keeps `consume` observable so results are not optimised away
	return perCallUs;
}

/**
 * Times a microsecond operation per input: each input is run `reps` times back to back (reps calibrated after a
 * timed warm-up so one sample lasts about targetSampleMs), twice, and the faster sample's mean is that input's µs
 * per call (the slower one is the one a preemption hit). Summaries over the result are p50 / p99 across inputs,
 * cheap and expensive requests apart, rather than a mix.
 */
export function timePerInput<I>(
	inputs: readonly I[],
	run: (input: I) => unknown,
	options: { budgetMs: number; targetSampleMs?: number; warmupMs?: number },
): number[] {
	const targetMs = options.targetSampleMs ?? 0.2;
	let sink = 0;
	const consume = (value: unknown) => {
		if (value !== undefined) sink++;
	};
	// Long enough for the optimising compiler to have seen the hot code, counted in time not calls.
	const warmupEnds = nowMs() + (options.warmupMs ?? 150);
	let calls = 0;
	do consume(run(inputs[calls++ % inputs.length]!));
	while (nowMs() < warmupEnds);
	const probe = Math.min(inputs.length, 50);
	const started = nowMs();
	for (let k = 0; k < probe; k++) consume(run(inputs[k]!));
	const perCallMs = Math.max((nowMs() - started) / Math.max(probe, 1), 1e-5);
	const reps = Math.max(1, Math.min(10_000, Math.round(targetMs / perCallMs)));
	const perCallUs: number[] = [];
	const deadline = nowMs() + options.budgetMs;
	for (const input of inputs) {
		let best = Number.POSITIVE_INFINITY;
		for (let sample = 0; sample < 2; sample++) {
			const t0 = nowMs();
			for (let r = 0; r < reps; r++) consume(run(input));
			best = Math.min(best, nowMs() - t0);
		}
		perCallUs.push((best * 1000) / reps);
		if (nowMs() > deadline) break;
	}
	if (sink < 0) console.log(sink);
	return perCallUs;
}

/** mulberry32: small, fast, seeded; good enough to make generated data and latencies repeatable. */
export function createRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function pick<T>(random: () => number, items: readonly T[]): T {
	return items[Math.floor(random() * items.length)]!;
}

/** Rounds for printing and JSON: 3 significant digits, never scientific notation for our ranges. */
export function round(value: number, digits = 3): number {
	if (!Number.isFinite(value) || value === 0) return value;
	const magnitude = Math.floor(Math.log10(Math.abs(value)));
	const factor = 10 ** Math.max(0, digits - 1 - magnitude);
	return Math.round(value * factor) / factor;
}

/** Runs `count` async jobs with at most `concurrency` in flight; returns each job's latency in ms. */
export async function runConcurrent(
	count: number,
	concurrency: number,
	job: (i: number) => Promise<unknown>,
): Promise<number[]> {
	const latencies = new Array<number>(count);
	let next = 0;
	const worker = async () => {
		for (let i = next++; i < count; i = next++) {
			const started = nowMs();
			await job(i);
			latencies[i] = nowMs() - started;
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
	return latencies;
}
