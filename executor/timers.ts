// Timers and signals on the injected clock: the real sleep, an abortable timeout, linked controllers (one listener
// object on the parent, where AbortSignal.any keeps weak references per call), and the attempt's signal, whose race
// stops waiting for a provider promise the moment it aborts (a provider that ignores its signal cannot stall the walk).

import { TimerQueue } from "./timer-queue.ts";
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

/** The real clock's pending waits: one Node timer for all of them (timer-queue.ts says why). */
const waits = new TimerQueue();

/** `clock.after` on the real clock: cancelled without an abort event. */
export function realAfter(ms: number, fire: () => void): () => void {
	return waits.after(ms, fire);
}

/** `clock.after` built on an injected sleep (the fake clock of tests): fires through it, cancelled by its signal. */
export function afterBySleep(sleep: Clock["sleep"]): Clock["after"] {
	return (ms, fire) => {
		const stop = new AbortController();
		sleep(ms, stop.signal).then(fire, () => {});
		return () => stop.abort(CANCELLED);
	};
}

/**
 * A controller that also aborts, with the same reason, as soon as `parent` does. It listens as an object
 * (handleEvent), so linking allocates no closure; `release()` unhooks it once the work under it is over.
 */
export class LinkedSignal {
	readonly controller = new AbortController();
	readonly signal: AbortSignal = this.controller.signal;
	private parent: AbortSignal | undefined;

	constructor(parent: AbortSignal) {
		if (parent.aborted) this.abort(parent.reason);
		else {
			this.parent = parent;
			parent.addEventListener("abort", this);
		}
	}

	/** The parent aborted. */
	handleEvent(): void {
		const reason = this.parent?.reason;
		this.release();
		this.abort(reason);
	}

	abort(reason: unknown): void {
		this.controller.abort(reason);
	}

	release(): void {
		this.parent?.removeEventListener("abort", this);
		this.parent = undefined;
	}
}

/**
 * An attempt's signal: linked to the walk's, aborted on its own by the attempt's timeout. `race` settles like the
 * promise, or rejects with the abort reason as soon as the signal aborts; one race runs at a time, so the abort
 * rejects it directly and a race adds no listener.
 */
export class RaceSignal extends LinkedSignal {
	private rejectRace: ((reason: unknown) => void) | undefined;

	override abort(reason: unknown): void {
		const reject = this.rejectRace;
		this.rejectRace = undefined;
		this.controller.abort(reason);
		reject?.(this.signal.reason);
	}

	race<T>(promise: Promise<T>): Promise<T> {
		if (this.signal.aborted) {
			promise.catch(() => {});
			return Promise.reject(this.signal.reason);
		}
		return new Promise<T>((resolve, reject) => {
			this.rejectRace = reject;
			promise.then(
				(value) => {
					if (this.rejectRace === reject) this.rejectRace = undefined;
					resolve(value);
				},
				(error: unknown) => {
					if (this.rejectRace === reject) this.rejectRace = undefined;
					reject(error);
				},
			);
		});
	}
}
