// What a converter is (providers/direct/worker-pool.ts runs one; convert-run.ts has an inline one for tests): its
// bounds, run options and counts, where its worker script is, and the failures a worker's end turns into.

import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { WebAccessError } from "../../engine/errors.ts";
import type { ConvertJob, JobResult } from "./convert-jobs.ts";

export const CONVERTER_DEFAULTS = {
	/**
	 * Worker threads converting at once. With one, a batch of heavy pages in a turn held every other fetch behind
	 * them until its step's deadline; two (and the queue's smallest-first order) let a light page through. Memory
	 * is bounded by this many times `maxHeapMb` plus headroom.
	 */
	workers: 2,
	/** Heap plus external memory (ArrayBuffers) a job may use: a page needing more fails instead of growing pi. */
	maxHeapMb: 320,
	/** V8's old-generation limit is this much above `maxHeapMb`: room for an allocation burst between two polls. */
	heapHeadroomMb: 128,
	maxYoungMb: 32,
	/** How often the worker's memory is read while a job runs. */
	pollMs: 50,
	/** A job still running after this long is ended by terminating the worker. */
	deadlineMs: 20_000,
	/** An idle worker is ended after this long (the next page starts a fresh one). */
	idleMs: 30_000,
};

export type ConverterSettings = typeof CONVERTER_DEFAULTS;

export interface RunOptions {
	signal?: AbortSignal;
	/** Overrides the converter's deadline for this job (the call's remaining time, say). */
	deadlineMs?: number;
	/**
	 * Moves the job's body to the worker instead of copying it (the caller's buffer is left empty): a 5 MB copy on
	 * the calling thread is a stall of its own. Only a buffer that fills its ArrayBuffer alone moves; others copy.
	 */
	transferBody?: boolean;
}

/** Counts for tests and status: how many jobs were given, how many workers were started and terminated. */
export interface ConverterStats {
	/** Jobs this converter was given (each is one round trip to a worker). */
	jobs: number;
	started: number;
	terminated: number;
	/** The most memory (heap + external) a job was seen using, in MB. */
	peakMb: number;
	/** The worker thread's own CPU time for the last job it answered, in ms (its GC helper threads not counted). */
	lastJobCpuMs?: number;
	/** The live worker's V8 limits (undefined when none runs). */
	resourceLimits?: Worker["resourceLimits"];
	running: boolean;
	settings: ConverterSettings;
}

export interface Converter {
	run<J extends ConvertJob>(job: J, options?: RunOptions): Promise<JobResult<J>>;
	stats(): ConverterStats;
	/** Ends the worker (pending jobs fail as cancelled); the converter can be used again afterwards. */
	close(): Promise<void>;
}

/**
 * The worker script beside a module, with that module's own extension (.ts from sources, .js from dist/). An
 * installed package runs its TypeScript sources through pi's loader, but a worker is plain Node, which refuses to
 * strip types under node_modules: there the built copy in dist/ runs instead (the package ships it).
 */
export function workerUrl(moduleUrl: string): URL {
	const extension = extname(fileURLToPath(moduleUrl));
	if (extension === ".ts" && moduleUrl.includes("/node_modules/")) {
		return new URL("../../dist/providers/direct/convert-worker.js", moduleUrl);
	}
	return new URL(`./convert-worker${extension}`, moduleUrl);
}

export const WORKER_URL = workerUrl(import.meta.url);

/** A job that needed more than the memory cap (the watchdog's poll or V8's own limit ended it). */
export function tooLarge(maxHeapMb: number, cause?: unknown): WebAccessError {
	return new WebAccessError(`page too large to convert within ${maxHeapMb} MB`, {
		kind: "bad-request",
		code: "convert-memory",
		cause,
	});
}

/** A worker that ended on its own while a job ran: out of memory, a crash, an exit. */
export function died(
	maxHeapMb: number,
	error: (Error & { code?: string }) | undefined,
	exitCode?: number,
): WebAccessError {
	if (error?.code === "ERR_WORKER_OUT_OF_MEMORY") return tooLarge(maxHeapMb, error);
	const why = error ? error.message.split("\n")[0]!.slice(0, 120) : `exit code ${exitCode}`;
	return new WebAccessError(`conversion worker stopped (${why})`, {
		kind: "bad-request",
		code: "convert-crashed",
		cause: error,
	});
}
