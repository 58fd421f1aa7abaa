// Counting bytes in a child process: the V8 flags that keep collections out of a measured window, the child's side
// (test/helpers/hot-path-bytes-child.ts, parse-bytes-child.ts: a window that saw a collection is taken again) and the
// parent's (the test that starts the child and reads its answer).

import { execFile } from "node:child_process";
import { PerformanceObserver } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
import { nodeBinary } from "../e2e/harness.ts";

/** A young generation large enough that no collection runs while a measured window fills it. */
export const YOUNG_GENERATION_FLAGS = ["--min-semi-space-size=64", "--max-semi-space-size=64"];
/** A bytes-counting child's flags: the collector exposed (watchGc) and YOUNG_GENERATION_FLAGS. */
export const BYTES_CHILD_FLAGS = ["--expose-gc", ...YOUNG_GENERATION_FLAGS];

/** One measured window: the heap used before it, the bytes it allocated and what its run answered. */
export interface Measured<T> {
	before: number;
	bytes: number;
	value: T;
}

export interface GcWatch {
	/** Runs a full collection (the process runs with --expose-gc). */
	gc: () => void;
	/**
	 * The bytes `run` allocates, from a collected heap: taken again when a collection ran inside the window (the
	 * figure would be short), up to `tries` times, and an error when every try saw one. A caller that keeps the value
	 * past its window (to count what stays) lets it go before the next one, or that window's heap counts it.
	 */
	measure: <T>(run: () => T, tries: number) => Promise<Measured<Awaited<T>>>;
}

/** A turn of the event loop: the observer hears of the collections so far. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

export function watchGc(): GcWatch {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (gc === undefined) throw new Error("run with --expose-gc");
	let collections = 0;
	new PerformanceObserver((list) => {
		collections += list.getEntries().length;
	}).observe({ entryTypes: ["gc"] });
	/** One window, or undefined when a collection ran inside it: its run's value goes with this frame. */
	const once = async <T>(run: () => T): Promise<Measured<Awaited<T>> | undefined> => {
		gc();
		await settle();
		const seen = collections;
		const before = getHeapStatistics().used_heap_size;
		const ran = run();
		// A synchronous run's heap is read at once: an await between would count what the turn allocates.
		const value = (ran instanceof Promise ? await ran : ran) as Awaited<T>;
		const bytes = getHeapStatistics().used_heap_size - before;
		await settle();
		return collections === seen ? { before, bytes, value } : undefined;
	};
	const measure = async <T>(run: () => T, tries: number): Promise<Measured<Awaited<T>>> => {
		for (let t = 0; t < tries; t++) {
			const measured = await once(run);
			if (measured !== undefined) return measured;
		}
		throw new Error("a collection ran inside every window");
	};
	return { gc, measure };
}

/** Starts the bytes-counting child `file` with BYTES_CHILD_FLAGS and `args`, and reads its last line of output. */
export async function runBytesChild<T>(file: string, args: string[] = []): Promise<T> {
	const stdout = await new Promise<string>((done, fail) => {
		execFile(nodeBinary(), [...BYTES_CHILD_FLAGS, file, ...args], { timeout: 120_000 }, (error, out, err) =>
			error ? fail(new Error(`${error.message}\n${err.slice(0, 2000)}`)) : done(out),
		);
	});
	return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as T;
}
