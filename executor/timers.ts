// Timers and signals on the injected clock: the real sleep, an abortable timeout, a race that stops waiting for a
// provider promise the moment its signal aborts (a provider that ignores its signal cannot stall the walk), and
// linked controllers, which cost a listener per parent where AbortSignal.any keeps weak references per call.

import type { Clock } from "./types.ts";

/** One shared reason: aborting without one builds a DOMException per call, a hot path per attempt. */
const CANCELLED = Symbol("timer cancelled");

/** Resolves after `ms`, rejects with `signal.reason` when the signal aborts first. */
export function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) {
			reject(signal.reason);
			return;
		}
		const onAbort = () => {
			clearTimeout(timer);
			reject(signal?.reason);
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}

/** `clock.after` on the real clock: a plain timer, cancelled without an abort event. */
export function realAfter(ms: number, fire: () => void): () => void {
	const timer = setTimeout(fire, ms);
	return () => clearTimeout(timer);
}

/** `clock.after` built on an injected sleep (the fake clock of tests): fires through it, cancelled by its signal. */
export function afterBySleep(sleep: Clock["sleep"]): Clock["after"] {
	return (ms, fire) => {
		const stop = new AbortController();
		sleep(ms, stop.signal).then(fire, () => {});
		return () => stop.abort(CANCELLED);
	};
}

/** A controller that aborts with `reason()` after `ms` on the clock; `cancel()` drops the timer. */
export interface Timeout {
	signal: AbortSignal;
	cancel(): void;
}

export function startTimeout(clock: Clock, ms: number, reason: () => unknown): Timeout {
	const fired = new AbortController();
	const cancel = clock.after(Math.max(0, ms), () => fired.abort(reason()));
	return { signal: fired.signal, cancel };
}

/** A controller that also aborts, with the same reason, as soon as one of `parents` does. */
export interface Linked {
	controller: AbortController;
	signal: AbortSignal;
	/** Unhooks it from the parents (it stays as it is); call once the work under it is over. */
	release(): void;
}

export function linkSignals(parents: readonly AbortSignal[]): Linked {
	const controller = new AbortController();
	const { signal } = controller;
	const aborted = parents.find((parent) => parent.aborted);
	if (aborted !== undefined) {
		controller.abort(aborted.reason);
		return { controller, signal, release: () => {} };
	}
	const onAbort = (event: Event) => {
		release();
		controller.abort((event.target as AbortSignal).reason);
	};
	const release = () => {
		for (const parent of parents) parent.removeEventListener("abort", onAbort);
	};
	for (const parent of parents) parent.addEventListener("abort", onAbort);
	return { controller, signal, release };
}

/** Settles like `promise`, or rejects with `signal.reason` as soon as the signal aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) {
		promise.catch(() => {});
		return Promise.reject(signal.reason);
	}
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(signal.reason);
		signal.addEventListener("abort", onAbort, { once: true });
		promise.then(
			(value) => {
				signal.removeEventListener("abort", onAbort);
				resolve(value);
			},
			(error: unknown) => {
				signal.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}
