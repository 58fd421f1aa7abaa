// The red-team pages (test/helpers/redteam-shapes.ts) through the direct fetcher's conversion as a fetch runs it
// (convertPage in providers/direct/convert.ts, the worker with its default deadline and memory cap), each in a
// fresh worker: how it ended, how long it took and how much RSS the process gained (the worker's start included).

import { convertPage } from "../providers/direct/convert.ts";
import { CONVERTER_DEFAULTS, type Converter, createConverter } from "../providers/direct/worker-pool.ts";
import { REDTEAM_HTML_SHAPES, REDTEAM_PDF_SHAPES, type RedteamShape } from "../test/helpers/redteam-shapes.ts";
import { watchMainThread } from "./main-thread.ts";

const MB = 1024 * 1024;

export const REDTEAM_BENCH_DEFAULTS = {
	/** The fetch's own deadline (CONVERTER_DEFAULTS.deadlineMs) plus the time a terminate takes to be noticed. */
	deadlineSlackMs: 1000,
	maxRssAddedMB: 500,
};

export interface RedteamRow {
	shape: string;
	/** "converted whole", "cut and warned: …" or "failed (code): …". */
	outcome: string;
	/** Ended as the shape allows: a clear failure, a warned cut, or (for a shape under the cap) the whole text. */
	bounded: boolean;
	ms: number;
	/** Peak RSS above the process's RSS before the page, with the worker started for it. */
	rssAddedMB: number;
	/** The worker's heap plus external memory at its peak, as its memory watchdog saw it. */
	workerPeakMB: number;
	/** Bounded, within the fetch deadline, and under the memory ceiling. */
	met: boolean;
}

async function runShape(shape: RedteamShape): Promise<RedteamRow> {
	const body = await shape.make();
	const converter: Converter = createConverter();
	const page = {
		url: "https://redteam.example/page",
		finalUrl: "https://redteam.example/page",
		status: 200,
		headers: { "content-type": shape.type },
		body,
		truncated: false,
		maxBytes: 10 * MB,
	};
	const before = process.memoryUsage.rss();
	const start = performance.now();
	try {
		const { value: outcome, figures } = await watchMainThread(() =>
			convertPage(page, "direct", { converter }).then(
				(result) => {
					const warning = result.warnings?.[0];
					if (warning) return { text: `cut and warned: ${warning}`, bounded: true };
					return { text: "converted whole", bounded: shape.whole === true };
				},
				(error: Error & { code?: string; kind?: string }) => ({
					text: `failed (${error.code}): ${error.message}`,
					bounded: error.kind === "timeout" || error.kind === "bad-request",
				}),
			),
		);
		const ms = performance.now() - start;
		const rssAddedMB = (figures.peakRss - before) / MB;
		const { deadlineSlackMs, maxRssAddedMB } = REDTEAM_BENCH_DEFAULTS;
		const inTime = ms <= CONVERTER_DEFAULTS.deadlineMs + deadlineSlackMs;
		return {
			shape: shape.name,
			outcome: outcome.text,
			bounded: outcome.bounded,
			ms,
			rssAddedMB,
			workerPeakMB: converter.stats().peakMb,
			met: outcome.bounded && inTime && rssAddedMB < maxRssAddedMB,
		};
	} finally {
		await converter.close();
	}
}

/** Every shape, one after another (each in its own worker, so one's memory does not count in the next). */
export async function benchRedteam(): Promise<RedteamRow[]> {
	const rows: RedteamRow[] = [];
	for (const shape of [...REDTEAM_HTML_SHAPES, ...REDTEAM_PDF_SHAPES]) rows.push(await runShape(shape));
	return rows;
}
