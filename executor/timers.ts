// Timers on the injected clock: the real sleep, an abortable timeout, and a race that stops waiting for a
// provider promise the moment its signal aborts (a provider that ignores its signal cannot stall the walk).

import type { Clock } from "./types.ts";

/** Resolves after `ms`, rejects with `signal.reason` when the signal aborts first. */
/** One shared reason: aborting without one builds a DOMException per call, a hot path per attempt. */
const CANCELLED = Symbol("timer cancelled");

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

/** A controller that aborts with `reason()` after `ms` on the clock; `cancel()` drops the timer. */
export interface Timeout {
	signal: AbortSignal;
	cancel(): void;
}

export function startTimeout(clock: Clock, ms: number, reason: () => unknown): Timeout {
	const fired = new AbortController();
	const stop = new AbortController();
	clock.sleep(Math.max(0, ms), stop.signal).then(
		() => fired.abort(reason()),
		() => {},
	);
	return { signal: fired.signal, cancel: () => stop.abort(CANCELLED) };
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
