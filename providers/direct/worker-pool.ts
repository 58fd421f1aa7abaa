// Runs conversion jobs in a few worker threads (node:worker_threads, CONVERTER_DEFAULTS.workers) with a memory cap
// and a deadline per job: a worker starts when a job needs one, is reused, is terminated when its job runs past its
// deadline or its memory cap or the call is aborted (a fresh one takes the next job), and ends after an idle spell or
// at shutdown. Queued jobs start smallest body first, so a light page does not wait behind a batch of heavy ones.
// V8's own heap limit (resourceLimits) is only a backstop: Node documents its termination as best-effort, and a
// worker reaching it can abort the whole process (a 10 MB page did, in Runtime_WeakCollectionSet). So the main
// thread polls the worker's heap and external memory and terminates it at `maxHeapMb`, well below V8's limit.
// 320 MB: the converter peaks at ~120 MB of heap plus external memory on the 4 MB of HTML it converts at most, and
// the red-team pages at ~150 MB (npm run bench -- --only fetch).

import { Worker } from "node:worker_threads";
import { WebAccessError } from "../../engine/errors.ts";
import { abortError } from "../http/send-errors.ts";
import {
	type ConvertJob,
	type JobResult,
	jobSize,
	joinText,
	movableBody,
	receiveError,
	type TextPart,
	type WorkerReply,
} from "./convert-jobs.ts";
import {
	CONVERTER_DEFAULTS,
	type Converter,
	type ConverterSettings,
	died,
	type RunOptions,
	tooLarge,
	WORKER_URL,
} from "./worker-contract.ts";

export {
	CONVERTER_DEFAULTS,
	type Converter,
	type ConverterSettings,
	type ConverterStats,
	type RunOptions,
	WORKER_URL,
	workerUrl,
} from "./worker-contract.ts";

interface Pending {
	id: number;
	job: ConvertJob;
	options: RunOptions;
	resolve: (value: unknown) => void;
	reject: (error: Error) => void;
	onAbort?: () => void;
	/** Parts of the result's text received ahead of the reply. */
	parts: string[];
	/** The slot converting it, once started. */
	slot?: Slot;
}

/** One worker thread and the job it runs. */
interface Slot {
	worker?: Worker;
	current?: Pending;
	deadline?: ReturnType<typeof setTimeout>;
	poll?: ReturnType<typeof setInterval>;
	idle?: ReturnType<typeof setTimeout>;
}

/** A job's size: the queue starts the smallest first (a light page is not stuck behind heavy ones). */
const weight = (pending: Pending) => jobSize(pending.job);

export function createConverter(settings: Partial<ConverterSettings> = {}): Converter {
	const config: ConverterSettings = { ...CONVERTER_DEFAULTS, ...settings };
	const queue: Pending[] = [];
	const slots: Slot[] = Array.from({ length: Math.max(1, config.workers) }, () => ({}));
	let peakMb = 0;
	let lastJobCpuMs: number | undefined;
	let nextId = 1;
	let jobs = 0;
	let started = 0;
	let terminated = 0;

	function spawn(slot: Slot): Worker {
		const fresh = new Worker(WORKER_URL, {
			resourceLimits: {
				maxOldGenerationSizeMb: config.maxHeapMb + config.heapHeadroomMb,
				maxYoungGenerationSizeMb: config.maxYoungMb,
			},
		});
		started++;
		fresh.on("message", (reply: WorkerReply | TextPart) => {
			const current = slot.current;
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
			if (slot.worker !== fresh) return;
			slot.worker = undefined;
			if (slot.current) settle(slot.current, died(config.maxHeapMb, error));
		});
		fresh.on("exit", (code) => {
			if (slot.worker !== fresh) return;
			slot.worker = undefined;
			if (slot.current) settle(slot.current, died(config.maxHeapMb, undefined, code));
		});
		return fresh;
	}

	function kill(slot: Slot): void {
		const doomed = slot.worker;
		slot.worker = undefined;
		if (doomed) {
			terminated++;
			doomed.removeAllListeners("message");
			void doomed.terminate();
		}
	}

	function settle(job: Pending, error: Error | undefined, value?: unknown): void {
		const slot = job.slot;
		if (slot === undefined || slot.current !== job) return;
		slot.current = undefined;
		clearTimeout(slot.deadline);
		clearInterval(slot.poll);
		if (job.onAbort) job.options.signal?.removeEventListener("abort", job.onAbort);
		if (error) job.reject(error);
		else job.resolve(value);
		pump();
	}

	/** The queued job to start next: the smallest body, the earliest among equals. */
	function next(): Pending | undefined {
		let at = -1;
		for (let i = 0; i < queue.length; i++) {
			const job = queue[i]!;
			// Jobs whose call was aborted meanwhile (one signal may cancel several) never start a worker.
			if (job.options.signal?.aborted) {
				if (job.onAbort) job.options.signal.removeEventListener("abort", job.onAbort);
				job.reject(abortError(job.options.signal.reason, "direct"));
				queue.splice(i--, 1);
			} else if (at < 0 || weight(job) < weight(queue[at]!)) at = i;
		}
		return at < 0 ? undefined : queue.splice(at, 1)[0];
	}

	function pump(): void {
		for (const slot of slots) {
			if (slot.current) continue;
			const job = next();
			if (!job) {
				rest(slot);
				continue;
			}
			start(slot, job);
		}
	}

	/** A slot with nothing to do: its worker never holds the process, and ends after an idle spell. */
	function rest(slot: Slot): void {
		if (!slot.worker) return;
		slot.worker.unref();
		clearTimeout(slot.idle);
		slot.idle = setTimeout(() => kill(slot), config.idleMs);
		slot.idle.unref();
	}

	function start(slot: Slot, job: Pending): void {
		clearTimeout(slot.idle);
		slot.current = job;
		job.slot = slot;
		slot.worker ??= spawn(slot);
		const worker = slot.worker;
		// Referenced while it works, so a CLI run waits for the page; unreferenced when idle, so it never holds pi.
		worker.ref();
		const deadlineMs = Math.max(1, job.options.deadlineMs ?? config.deadlineMs);
		slot.deadline = setTimeout(() => {
			kill(slot);
			settle(
				job,
				new WebAccessError(`conversion exceeded the ${seconds(deadlineMs)} deadline`, {
					kind: "timeout",
					code: "convert-deadline",
				}),
			);
		}, deadlineMs);
		watchMemory(slot, job, worker);
		const body = job.job.kind === "fragments" ? undefined : job.job.body;
		worker.postMessage({ id: job.id, job: job.job }, job.options.transferBody && body ? movableBody(body) : []);
	}

	/** Polls heap + external memory (answered between the worker's JS steps, even in a long synchronous loop). */
	function watchMemory(slot: Slot, job: Pending, watched: Worker): void {
		let asking = false;
		const limit = config.maxHeapMb * 1024 * 1024;
		slot.poll = setInterval(() => {
			if (asking) return;
			asking = true;
			watched
				.getHeapStatistics()
				.then((heap) => {
					asking = false;
					const used = heap.used_heap_size + heap.external_memory;
					peakMb = Math.max(peakMb, used / 1024 / 1024);
					if (slot.current !== job || slot.worker !== watched || used <= limit) return;
					kill(slot);
					settle(job, tooLarge(config.maxHeapMb));
				})
				.catch(() => {
					asking = false;
				});
		}, config.pollMs);
		slot.poll.unref();
	}

	return {
		run<J extends ConvertJob>(job: J, options: RunOptions = {}): Promise<JobResult<J>> {
			const { signal } = options;
			if (signal?.aborted) return Promise.reject(abortError(signal.reason, "direct"));
			jobs++;
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
						if (pending.slot?.current === pending) {
							kill(pending.slot);
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
		stats: () => {
			const live = slots.find((slot) => slot.worker)?.worker;
			return {
				jobs,
				started,
				terminated,
				peakMb,
				...(lastJobCpuMs !== undefined ? { lastJobCpuMs } : {}),
				running: live !== undefined,
				settings: { ...config },
				...(live ? { resourceLimits: live.resourceLimits } : {}),
			};
		},
		async close() {
			const closing = new WebAccessError("converter closed", { kind: "cancelled", code: "cancelled" });
			for (const job of queue.splice(0)) job.reject(closing);
			const doomed: Worker[] = [];
			for (const slot of slots) {
				clearTimeout(slot.idle);
				if (slot.worker) doomed.push(slot.worker);
				kill(slot);
				if (slot.current) settle(slot.current, closing);
			}
			await Promise.all(doomed.map((worker) => worker.terminate()));
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
