// Benchmark of the direct fetcher's HTML → markdown path as a fetch runs it: in the conversion worker
// (providers/direct/worker-pool.ts), on the test corpus scaled to 1 MB and 5 MB of HTML (5 MB is cut at the 4 MB
// conversion cap, as a real fetch is). Measures the time, the main event loop's longest stall meanwhile
// (monitorEventLoopDelay) and the RSS the 5 MB page adds; the baseline is the same 1 MB page converted on the main
// thread. Goals: stall ≤ 50 ms, RSS added ≤ 250 MB, 1 MB ≤ 100 ms. Run alone with `npx node bench/fetch.ts`.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { inlineConverter } from "../providers/direct/convert-run.ts";
import { type Converter, createConverter } from "../providers/direct/worker-pool.ts";

const PAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures", "pages");
const CORPUS = ["article.html", "docs.html", "forum.html"];
const MB = 1024 * 1024;

export const BENCH_FETCH_DEFAULTS = { runs1MB: 5, runs5MB: 3, warmups: 2, sampleMs: 5, idleMs: 3000 };

export interface FetchBenchNumbers {
	/** Median time of a 1 MB page through the worker. */
	ms1MB: number;
	/** Median time of a 5 MB page through the worker (cut at 4 MB). */
	ms5MB: number;
	mbPerSec: number;
	/** Longest main event loop stall while the 5 MB pages converted. */
	stallMs5MB: number;
	/** Longest stall of the same loop doing nothing for 3 s: the machine's own latency. */
	idleStallMs: number;
	/** Peak RSS while a 5 MB page converted, above the RSS just before it. */
	rssAddedMB5MB: number;
	/** Baseline: the 1 MB page converted on the main thread, and the stall that causes. */
	mainThreadMs1MB: number;
	mainThreadStallMs1MB: number;
	peakRssMB: number;
	/** Runs that failed, e.g. "5 MB: page too large to convert within 320 MB"; empty when all converted. */
	failures: string[];
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
	stallMs: number;
	rssAddedMB: number;
	/** Why runs failed (a memory cap or deadline reached): the times then say how long the failure took. */
	failures: string[];
}

/** Converts `html` `runs` times; the median time, the longest loop stall and the most RSS added over the runs. */
async function measure(converter: Converter, html: string, runs: number): Promise<Measured> {
	const body = Buffer.from(html);
	const times: number[] = [];
	let stallMs = 0;
	let rssAddedMB = 0;
	const failures: string[] = [];
	for (let i = 0; i < runs; i++) {
		const before = process.memoryUsage.rss();
		let peak = before;
		const sampler = setInterval(() => {
			peak = Math.max(peak, process.memoryUsage.rss());
		}, BENCH_FETCH_DEFAULTS.sampleMs);
		const delay = monitorEventLoopDelay({ resolution: BENCH_FETCH_DEFAULTS.sampleMs });
		delay.enable();
		// The histogram's timer starts on the next loop turn: a block before it would go unseen.
		await sleep(BENCH_FETCH_DEFAULTS.sampleMs * 2);
		const start = performance.now();
		const job = { kind: "html" as const, body, contentType: "text/html", baseUrl: "https://bench.example/page" };
		const outcome = await converter.run(job).then(
			({ page }) => (page.markdown.length === 0 ? "no markdown" : undefined),
			(error: Error) => error.message,
		);
		times.push(performance.now() - start);
		// A blocked loop's delay is recorded when the loop runs again: let the histogram's timer fire first.
		await sleep(BENCH_FETCH_DEFAULTS.sampleMs * 4);
		delay.disable();
		clearInterval(sampler);
		peak = Math.max(peak, process.memoryUsage.rss());
		if (outcome !== undefined) failures.push(outcome);
		// The histogram counts the sampling period itself; the stall is what came on top of it.
		stallMs = Math.max(stallMs, delay.max / 1e6 - BENCH_FETCH_DEFAULTS.sampleMs);
		rssAddedMB = Math.max(rssAddedMB, (peak - before) / MB);
	}
	return { ms: median(times), stallMs: Math.max(0, stallMs), rssAddedMB, failures };
}

/** The longest stall of an idle loop over `ms`: what the machine's load alone costs (the stall figures' floor). */
async function idleStallMs(ms: number): Promise<number> {
	const delay = monitorEventLoopDelay({ resolution: BENCH_FETCH_DEFAULTS.sampleMs });
	delay.enable();
	await sleep(ms);
	delay.disable();
	return Math.max(0, delay.max / 1e6 - BENCH_FETCH_DEFAULTS.sampleMs);
}

export async function benchFetch(): Promise<FetchBenchNumbers> {
	const idleMs = await idleStallMs(BENCH_FETCH_DEFAULTS.idleMs);
	const html1 = scaledCorpus(MB);
	const html5 = scaledCorpus(5 * MB);
	const converter = createConverter();
	let one: Measured;
	let five: Measured;
	try {
		// Warm-up: the worker's start, module loading and JIT, not part of the numbers.
		await measure(converter, scaledCorpus(MB / 4), BENCH_FETCH_DEFAULTS.warmups);
		one = await measure(converter, html1, BENCH_FETCH_DEFAULTS.runs1MB);
		five = await measure(converter, html5, BENCH_FETCH_DEFAULTS.runs5MB);
	} finally {
		await converter.close();
	}
	// The baseline last, so that its memory does not count in the worker's figures.
	const inline = inlineConverter();
	await measure(inline, scaledCorpus(MB / 4), 1);
	const mainThread = await measure(inline, html1, BENCH_FETCH_DEFAULTS.runs1MB);
	const round = (value: number) => Math.round(value * 10) / 10;
	return {
		ms1MB: round(one.ms),
		ms5MB: round(five.ms),
		mbPerSec: round(5 / (five.ms / 1000)),
		stallMs5MB: round(five.stallMs),
		idleStallMs: round(idleMs),
		rssAddedMB5MB: round(five.rssAddedMB),
		mainThreadMs1MB: round(mainThread.ms),
		mainThreadStallMs1MB: round(mainThread.stallMs),
		peakRssMB: round(process.resourceUsage().maxRSS / 1024),
		failures: [...new Set([...one.failures.map((f) => `1 MB: ${f}`), ...five.failures.map((f) => `5 MB: ${f}`)])],
	};
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
	console.log(JSON.stringify(await benchFetch(), null, 2));
}
