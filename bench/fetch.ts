// Benchmark of the direct fetcher's HTML → markdown path as a fetch runs it: in the conversion worker
// (providers/direct/worker-pool.ts), on the test corpus scaled to 1 MB and 5 MB of HTML (5 MB is cut at the 4 MB
// conversion cap, as a real fetch is), the body moved to the worker as a fetch moves it. Measures the time and the
// worker thread's own CPU time, the main thread meanwhile (bench/main-thread.ts: longest loop stall, longest stretch
// of its own work) and the RSS a 5 MB page adds (its worker's start included); the baseline is the same 1 MB page
// converted on the main thread; then the red-team pages (bench/fetch-redteam.ts). Goals: stall ≤ 50 ms, RSS added
// ≤ 250 MB, 1 MB ≤ 100 ms, every red-team page bounded within the deadline under 500 MB. Run alone with
// `npx node bench/fetch.ts`.

import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { inlineConverter } from "../providers/direct/convert-run.ts";
import { type Converter, createConverter } from "../providers/direct/worker-pool.ts";
import { benchRedteam, type RedteamRow } from "./fetch-redteam.ts";
import { idleStallMs, threadCpuMs, watchMainThread } from "./main-thread.ts";

const PAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures", "pages");
const CORPUS = ["article.html", "docs.html", "forum.html"];
const MB = 1024 * 1024;

export const BENCH_FETCH_DEFAULTS = { runs1MB: 7, runs5MB: 3, warmups: 3, idleMs: 3000 };

export interface FetchBenchNumbers {
	/** Median time of a 1 MB page through the worker (wall clock). */
	ms1MB: number;
	/** Median CPU time of the worker thread for a 1 MB page (what the time is on an idle core). */
	cpuMs1MB: number;
	/** Median time of a 5 MB page through the worker (cut at 4 MB), and the worker thread's CPU time for it. */
	ms5MB: number;
	cpuMs5MB: number;
	mbPerSec: number;
	/** Longest main event loop stall while the 5 MB pages converted (monitorEventLoopDelay). */
	stallMs5MB: number;
	/** Longest stretch of the main thread's own CPU work meanwhile (the stall with the machine's load taken out). */
	longestWorkMs5MB: number;
	/** The main thread's CPU time for one 5 MB page, unwatched (the watch's timer costs CPU): send and receive. */
	mainCpuMs5MB: number;
	/** Longest stall of the same loop doing nothing for 3 s: the machine's own latency. */
	idleStallMs: number;
	/** Peak RSS while a 5 MB page converted, above the RSS before it, the worker started for it (no worker before). */
	rssAddedMB5MB: number;
	/** The same with the worker already warm from other pages. */
	rssAddedWarmMB5MB: number;
	/** The worker's heap plus external memory at its peak over the 5 MB pages. */
	workerPeakMB5MB: number;
	/** Baseline: the 1 MB page converted on the main thread, and the stall that causes. */
	mainThreadMs1MB: number;
	mainThreadStallMs1MB: number;
	peakRssMB: number;
	/** 1-minute load average over the cores when the bench started: above 1, wall-clock figures are inflated. */
	loadPerCore: number;
	/** Runs that failed, e.g. "5 MB: page too large to convert within 320 MB"; empty when all converted. */
	failures: string[];
	redteam: RedteamRow[];
}

/** One page of about `bytes` of HTML: the corpus pages' bodies repeated as sections of one long document. */
export function scaledCorpus(bytes: number): string {
	const bodies = CORPUS.map((name) => {
		const html = readFileSync(join(PAGES_DIR, name), "utf8");
		const body = html.match(/<body[^>]*>([\s\S]*)<\/body>/i);
		return body?.[1] ?? html;
	});
	const sections: string[] = [];
	let size = 0;
	for (let i = 0; size < bytes; i++) {
		const section = `<section id="s${i}">\n${bodies[i % bodies.length]}\n</section>\n`;
		sections.push(section);
		size += Buffer.byteLength(section);
	}
	return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Scaled corpus</title></head>\n<body><main><article>\n${sections.join("")}</article></main></body></html>`;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)]!;
}

interface Measured {
	ms: number;
	cpuMs: number;
	stallMs: number;
	longestWorkMs: number;
	rssAddedMB: number;
	/** Why runs failed (a memory cap or deadline reached): the times then say how long the failure took. */
	failures: string[];
}

/** The main thread's CPU time while `html` converts in the worker, with nothing else running on the thread. */
async function mainCpuMs(converter: Converter, html: string): Promise<number> {
	const job = {
		kind: "html" as const,
		body: Buffer.from(html),
		contentType: "text/html",
		baseUrl: "https://bench.example/page",
	};
	const start = threadCpuMs();
	await converter.run(job, { transferBody: true });
	return threadCpuMs() - start;
}

/** Converts `html` `runs` times: median times, the longest stalls and the most RSS added over the runs. */
async function measure(converter: Converter, html: string, runs: number): Promise<Measured> {
	const times: number[] = [];
	const cpu: number[] = [];
	let stallMs = 0;
	let longestWorkMs = 0;
	let rssAddedMB = 0;
	const failures: string[] = [];
	for (let i = 0; i < runs; i++) {
		// A fresh body each run: the job moves it to the worker, as convert.ts does with a fetched page.
		const body = Buffer.from(html);
		const job = { kind: "html" as const, body, contentType: "text/html", baseUrl: "https://bench.example/page" };
		const before = process.memoryUsage.rss();
		const { value, figures } = await watchMainThread(async () => {
			const start = performance.now();
			const outcome = await converter.run(job, { transferBody: true }).then(
				({ page }) => (page.markdown.length === 0 ? "no markdown" : undefined),
				(error: Error) => error.message,
			);
			return { ms: performance.now() - start, outcome };
		});
		times.push(value.ms);
		cpu.push(converter.stats().lastJobCpuMs ?? value.ms);
		if (value.outcome !== undefined) failures.push(value.outcome);
		stallMs = Math.max(stallMs, figures.stallMs);
		longestWorkMs = Math.max(longestWorkMs, figures.longestWorkMs);
		rssAddedMB = Math.max(rssAddedMB, (figures.peakRss - before) / MB);
	}
	return {
		ms: median(times),
		cpuMs: median(cpu),
		stallMs,
		longestWorkMs,
		rssAddedMB,
		failures,
	};
}

export async function benchFetch(): Promise<FetchBenchNumbers> {
	const loadPerCore = (loadavg()[0] ?? 0) / availableParallelism();
	const idleMs = await idleStallMs(BENCH_FETCH_DEFAULTS.idleMs);
	const html1 = scaledCorpus(MB);
	const html5 = scaledCorpus(5 * MB);
	// First, on a process without a worker: what one 5 MB page costs in memory, the worker's start included.
	const cold = createConverter();
	let coldFive: Measured;
	try {
		coldFive = await measure(cold, html5, 1);
	} finally {
		await cold.close();
	}
	const converter = createConverter();
	let one: Measured;
	let five: Measured;
	let mainCpu5: number;
	try {
		// Warm-up: the worker's start, module loading and JIT, not part of the numbers.
		await measure(converter, scaledCorpus(MB / 4), BENCH_FETCH_DEFAULTS.warmups);
		one = await measure(converter, html1, BENCH_FETCH_DEFAULTS.runs1MB);
		five = await measure(converter, html5, BENCH_FETCH_DEFAULTS.runs5MB);
		mainCpu5 = await mainCpuMs(converter, html5);
	} finally {
		await converter.close();
	}
	const workerPeakMB = converter.stats().peakMb;
	const redteam = await benchRedteam();
	// The baseline last, so that its memory does not count in the worker's figures.
	const inline = inlineConverter();
	await measure(inline, scaledCorpus(MB / 4), 1);
	const mainThread = await measure(inline, html1, BENCH_FETCH_DEFAULTS.runs1MB);
	const round = (value: number) => Math.round(value * 10) / 10;
	const failed = [...coldFive.failures, ...five.failures].map((f) => `5 MB: ${f}`);
	return {
		ms1MB: round(one.ms),
		cpuMs1MB: round(one.cpuMs),
		ms5MB: round(five.ms),
		cpuMs5MB: round(five.cpuMs),
		mbPerSec: round(5 / (five.ms / 1000)),
		stallMs5MB: round(Math.max(coldFive.stallMs, five.stallMs)),
		longestWorkMs5MB: round(Math.max(coldFive.longestWorkMs, five.longestWorkMs)),
		mainCpuMs5MB: round(mainCpu5),
		idleStallMs: round(idleMs),
		rssAddedMB5MB: round(coldFive.rssAddedMB),
		rssAddedWarmMB5MB: round(five.rssAddedMB),
		workerPeakMB5MB: round(workerPeakMB),
		mainThreadMs1MB: round(mainThread.ms),
		mainThreadStallMs1MB: round(mainThread.stallMs),
		peakRssMB: round(process.resourceUsage().maxRSS / 1024),
		loadPerCore: round(loadPerCore),
		failures: [...new Set([...one.failures.map((f) => `1 MB: ${f}`), ...failed])],
		redteam: redteam.map((row) => ({
			...row,
			ms: round(row.ms),
			rssAddedMB: round(row.rssAddedMB),
			workerPeakMB: round(row.workerPeakMB),
		})),
	};
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
	console.log(JSON.stringify(await benchFetch(), null, 2));
}
