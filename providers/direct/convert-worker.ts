// The conversion worker thread: decodes and converts HTML pages and extracts PDF text, one job at a time, so that
// a slow or huge page never blocks pi's main thread. Started and bounded by providers/direct/worker-pool.ts.

import { parentPort } from "node:worker_threads";
import { type ConvertJob, sendError, splitText, type TextPart, type WorkerReply } from "./convert-jobs.ts";
import { runJob } from "./convert-run.ts";

// PDF.js and the converters may log; pi's terminal must not see it. (Piping the worker's stdio instead leaves a
// MessagePort active for as long as the idle worker lives.)
for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const) console[method] = () => {};

parentPort?.on("message", async (message: { id: number; job: ConvertJob }) => {
	const started = process.threadCpuUsage();
	let reply: WorkerReply;
	try {
		const value = await runJob(message.job);
		// A long text goes ahead in parts, so that no single message holds the main thread for long.
		for (const part of splitText(message.job.kind, value)) {
			parentPort?.postMessage({ id: message.id, part } satisfies TextPart);
		}
		reply = { id: message.id, ok: true, value };
	} catch (error) {
		reply = { id: message.id, ok: false, error: sendError(error) };
	}
	const used = process.threadCpuUsage(started);
	reply.cpuMs = (used.user + used.system) / 1000;
	parentPort?.postMessage(reply);
});
