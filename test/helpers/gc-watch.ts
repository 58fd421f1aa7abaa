// For a child process that counts bytes (test/helpers/hot-path-bytes-child.ts, parse-bytes-child.ts): the exposed
// collector, and how many collections have run, so that a measured window that saw one is taken again.

import { PerformanceObserver } from "node:perf_hooks";

export interface GcWatch {
	/** Runs a full collection (the process runs with --expose-gc). */
	gc: () => void;
	/** Collections heard of so far. */
	collections: () => number;
	/** A turn of the event loop: the observer hears of the collections so far. */
	settle: () => Promise<unknown>;
}

export function watchGc(): GcWatch {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (gc === undefined) throw new Error("run with --expose-gc");
	let collections = 0;
	new PerformanceObserver((list) => {
		collections += list.getEntries().length;
	}).observe({ entryTypes: ["gc"] });
	return { gc, collections: () => collections, settle: () => new Promise((resolve) => setTimeout(resolve, 20)) };
}
