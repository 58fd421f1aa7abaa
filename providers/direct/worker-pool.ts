// Runs conversion jobs in one worker thread (node:worker_threads) with a memory cap and a deadline per job: the
// worker starts on the first page, is reused, is terminated when a job runs past its deadline or its memory cap or
// the call is aborted (a fresh one takes the next job), and ends after an idle spell or at shutdown.
// V8's own heap limit (resourceLimits) is only a backstop: Node documents its termination as best-effort, and a
// worker reaching it can abort the whole process (a 10 MB page did, in Runtime_WeakCollectionSet). So the main
// thread polls the worker's heap and external memory and terminates it at `maxHeapMb`, well below V8's limit.
// 320 MB: the converter peaks at ~120 MB of heap plus external memory on the 4 MB of HTML it converts at most, and
// the red-team pages at ~150 MB (npm run bench -- --only fetch).

import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { WebAccessError } from "../../engine/errors.ts";
import { abortError } from "../http/send-errors.ts";
import {
	type ConvertJob,
	type JobResult,
	joinText,
	movableBody,
	receiveError,
	type TextPart,
	type WorkerReply,
} from "./convert-jobs.ts";

export const CONVERTER_DEFAULTS = {
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

/** Counts for tests and status: how many workers were started and terminated. */
export interface ConverterStats {
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

interface Pending {
	id: number;
	job: ConvertJob;
	options: RunOptions;
	resolve: (value: unknown) => void;
	reject: (error: Error) => void;
	onAbort?: () => void;
	/** Parts of the result's text received ahead of the reply. */
	parts: string[];
}

export function createConverter(settings: Partial<ConverterSettings> = {}): Converter {
	const config: ConverterSettings = { ...CONVERTER_DEFAULTS, ...settings };
	const queue: Pending[] = [];
	let worker: Worker | undefined;
	let current: Pending | undefined;
	let deadline: ReturnType<typeof setTimeout> | undefined;
	let poll: ReturnType<typeof setInterval> | undefined;
	let peakMb = 0;
	let lastJobCpuMs: number | undefined;
	let idle: ReturnType<typeof setTimeout> | undefined;
	let nextId = 1;
	let started = 0;
	let terminated = 0;

	function spawn(): Worker {
		const fresh = new Worker(WORKER_URL, {
			resourceLimits: {
				maxOldGenerationSizeMb: config.maxHeapMb + config.heapHeadroomMb,
				maxYoungGenerationSizeMb: config.maxYoungMb,
			},
		});
		started++;
		fresh.on("message", (reply: WorkerReply | TextPart) => {
			if (!current || reply.id !== current.id) return;
			if ("part" in reply) {
				current.parts.push(reply.part);
				return;
			}
			if (reply.cpuMs !== undefined) lastJobCpuMs = reply.cpuMs;
			if (reply.ok) settle(current, undefined, joinText(current.job.kind, reply.value, current.parts));
			else settle(current, receiveError(reply.error));
		});
		// A worker we terminated ourselves (deadline, abort) has already failed its job; only the live one reports.
		fresh.on("error", (error: Error & { code?: string }) => {
			if (worker !== fresh) return;
			worker = undefined;
			if (current) settle(current, died(error));
		});
		fresh.on("exit", (code) => {
			if (worker !== fresh) return;
			worker = undefined;
			if (current) settle(current, died(undefined, code));
		});
		return fresh;
	}

	function tooLarge(cause?: unknown): WebAccessError {
		return new WebAccessError(`page too large to convert within ${config.maxHeapMb} MB`, {
			kind: "bad-request",
			code: "convert-memory",
			cause,
		});
	}

	function died(error: (Error & { code?: string }) | undefined, exitCode?: number): WebAccessError {
		if (error?.code === "ERR_WORKER_OUT_OF_MEMORY") return tooLarge(error);
		const why = error ? error.message.split("\n")[0]!.slice(0, 120) : `exit code ${exitCode}`;
		return new WebAccessError(`conversion worker stopped (${why})`, {
			kind: "bad-request",
			code: "convert-crashed",
			cause: error,
		});
	}

	function kill(): void {
		const doomed = worker;
		worker = undefined;
		if (doomed) {
			terminated++;
			doomed.removeAllListeners("message");
			void doomed.terminate();
		}
	}

	function settle(job: Pending, error: Error | undefined, value?: unknown): void {
		if (current !== job) return;
		current = undefined;
		clearTimeout(deadline);
		clearInterval(poll);
		if (job.onAbort) job.options.signal?.removeEventListener("abort", job.onAbort);
		if (error) job.reject(error);
		else job.resolve(value);
		pump();
	}

	function pump(): void {
		if (current) return;
		let job = queue.shift();
		// Jobs whose call was aborted meanwhile (one signal may cancel several) never start a worker.
		while (job?.options.signal?.aborted) {
			if (job.onAbort) job.options.signal.removeEventListener("abort", job.onAbort);
			job.reject(abortError(job.options.signal.reason, "direct"));
			job = queue.shift();
		}
		if (!job) {
			worker?.unref();
			if (worker) {
				clearTimeout(idle);
				idle = setTimeout(kill, config.idleMs);
				idle.unref();
			}
			return;
		}
		clearTimeout(idle);
		current = job;
		worker ??= spawn();
		// Referenced while it works, so a CLI run waits for the page; unreferenced when idle, so it never holds pi.
		worker.ref();
		const deadlineMs = Math.max(1, job.options.deadlineMs ?? config.deadlineMs);
		deadline = setTimeout(() => {
			kill();
			settle(
				job,
				new WebAccessError(`conversion exceeded the ${seconds(deadlineMs)} deadline`, {
					kind: "timeout",
					code: "convert-deadline",
				}),
			);
		}, deadlineMs);
		watchMemory(job, worker);
		worker.postMessage({ id: job.id, job: job.job }, job.options.transferBody ? movableBody(job.job.body) : []);
	}

	/** Polls heap + external memory (answered between the worker's JS steps, even in a long synchronous loop). */
	function watchMemory(job: Pending, watched: Worker): void {
		let asking = false;
		const limit = config.maxHeapMb * 1024 * 1024;
		poll = setInterval(() => {
			if (asking) return;
			asking = true;
			watched
				.getHeapStatistics()
				.then((heap) => {
					asking = false;
					const used = heap.used_heap_size + heap.external_memory;
					peakMb = Math.max(peakMb, used / 1024 / 1024);
					if (current !== job || worker !== watched || used <= limit) return;
					kill();
					settle(job, tooLarge());
				})
				.catch(() => {
					asking = false;
				});
		}, config.pollMs);
		poll.unref();
	}

	return {
		run<J extends ConvertJob>(job: J, options: RunOptions = {}): Promise<JobResult<J>> {
			const { signal } = options;
			if (signal?.aborted) return Promise.reject(abortError(signal.reason, "direct"));
			return new Promise<JobResult<J>>((resolve, reject) => {
				const pending: Pending = {
					id: nextId++,
					job,
					options,
					resolve: resolve as (value: unknown) => void,
					reject,
					parts: [],
				};
				if (signal) {
					pending.onAbort = () => {
						const error = abortError(signal.reason, "direct");
						if (current === pending) {
							kill();
							settle(pending, error);
						} else {
							const at = queue.indexOf(pending);
							if (at >= 0) queue.splice(at, 1);
							reject(error);
						}
					};
					signal.addEventListener("abort", pending.onAbort, { once: true });
				}
				queue.push(pending);
				pump();
			});
		},
		stats: () => ({
			started,
			terminated,
			peakMb,
			...(lastJobCpuMs !== undefined ? { lastJobCpuMs } : {}),
			running: worker !== undefined,
			settings: { ...config },
			...(worker ? { resourceLimits: worker.resourceLimits } : {}),
		}),
		async close() {
			clearTimeout(idle);
			const closing = new WebAccessError("converter closed", { kind: "cancelled", code: "cancelled" });
			for (const job of queue.splice(0)) job.reject(closing);
			const doomed = worker;
			kill();
			if (current) settle(current, closing);
			await doomed?.terminate();
		},
	};
}

function seconds(ms: number): string {
	return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

let shared: Converter | undefined;

/** The process-wide converter the direct provider uses by default (created on first use). */
export function sharedConverter(): Converter {
	shared ??= createConverter();
	return shared;
}

/** Ends the shared converter's worker, if one was ever started (extension shutdown, CLI exit). */
export async function closeSharedConverter(): Promise<void> {
	await shared?.close();
}
