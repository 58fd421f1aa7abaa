// Benchmark of the direct fetcher's HTML → markdown path (linkedom, then readability or — above 512 KB — the
// landmark extraction, then turndown): the test corpus scaled to 1 MB and 5 MB of HTML, median of a few runs.
// Run alone with `npx node bench/fetch.ts`. Goal: 1 MB in ≤ 100 ms. The 4 MB conversion cap is lifted while
// measuring, so that "5 MB" means 5 MB converted (fetches cut at the cap and say so).

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { EXTRACT_DEFAULTS, htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";

const PAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures", "pages");
const CORPUS = ["article.html", "docs.html", "forum.html"];
const MB = 1024 * 1024;

export const BENCH_FETCH_DEFAULTS = { runs1MB: 5, runs5MB: 3, warmups: 1 };

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

async function timeConversion(html: string, runs: number): Promise<number> {
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const start = performance.now();
		const page = await htmlToMarkdown(html, "https://bench.example/page");
		times.push(performance.now() - start);
		if (page.markdown.length === 0) throw new Error("benchmark conversion produced no markdown");
	}
	return median(times);
}

export async function benchFetch(): Promise<{ ms1MB: number; ms5MB: number; mbPerSec: number; peakRssMB: number }> {
	const html1 = scaledCorpus(MB);
	const html5 = scaledCorpus(5 * MB);
	const cap = EXTRACT_DEFAULTS.maxConvertChars;
	EXTRACT_DEFAULTS.maxConvertChars = Number.POSITIVE_INFINITY;
	let ms1MB: number;
	let ms5MB: number;
	try {
		// Warm-up: module loading and JIT, not part of the numbers.
		await timeConversion(scaledCorpus(MB / 8), BENCH_FETCH_DEFAULTS.warmups);
		ms1MB = await timeConversion(html1, BENCH_FETCH_DEFAULTS.runs1MB);
		ms5MB = await timeConversion(html5, BENCH_FETCH_DEFAULTS.runs5MB);
	} finally {
		EXTRACT_DEFAULTS.maxConvertChars = cap;
	}
	const round = (value: number) => Math.round(value * 10) / 10;
	return {
		ms1MB: round(ms1MB),
		ms5MB: round(ms5MB),
		mbPerSec: round(5 / (ms5MB / 1000)),
		peakRssMB: round(process.resourceUsage().maxRSS / 1024),
	};
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
	console.log(JSON.stringify(await benchFetch(), null, 2));
}
