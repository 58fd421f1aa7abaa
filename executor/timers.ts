// Timers and cancellation on the injected clock: the real sleep, `after` (one shared timer, timer-queue.ts), the
// walk's scopes (linked in lists, where AbortSignal.any keeps weak references per call and an event listener costs a
// map per signal), and the attempt's signal, whose race stops waiting for a provider promise the moment it aborts (a
// provider that ignores its signal cannot stall the walk).

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
 * A cancellation scope of the walk's: it aborts, with the same reason, as soon as its parent does. A caller's
 * AbortSignal is listened to as an object (handleEvent: no closure); a parent Scope keeps its children in a list,
 * so the walk's scope, a hedged attempt's stop and the attempt's own signal need no event listener between them
 * (and only the attempt, which hands a signal to the provider, makes an AbortController). `release()` unhooks it
 * once the work under it is over.
 */
export class Scope {
	private isAborted = false;
	private why: unknown;
	private parent: AbortSignal | Scope | undefined;
	private children: Scope[] | undefined;

	/** Without a parent: a root, aborted only directly (the coalescer's, for all callers of one execution). */
	constructor(parent?: AbortSignal | Scope) {
		if (parent === undefined) return;
		// Aborted already: marked, not aborted through `abort`, which a subclass's fields are not ready for yet.
		if (parent.aborted) {
			this.isAborted = true;
			this.why = parent.reason;
		} else {
			this.parent = parent;
			if (!(parent instanceof Scope)) parent.addEventListener("abort", this);
			else if (parent.children === undefined) parent.children = [this];
			else parent.children.push(this);
		}
	}

	get aborted(): boolean {
		return this.isAborted;
	}

	get reason(): unknown {
		return this.why;
	}

	/** The parent signal aborted. */
	handleEvent(): void {
		const reason = this.parent?.reason;
		this.release();
		this.abort(reason);
	}

	abort(reason: unknown): void {
		if (this.isAborted) return;
		this.isAborted = true;
		this.why = reason;
		const { children } = this;
		this.children = undefined;
		if (children === undefined) return;
		for (const child of children) {
			child.parent = undefined;
			child.abort(reason);
		}
	}

	release(): void {
		const { parent } = this;
		this.parent = undefined;
		if (parent === undefined) return;
		if (!(parent instanceof Scope)) {
			parent.removeEventListener("abort", this);
			return;
		}
		const siblings = parent.children;
		const at = siblings?.indexOf(this) ?? -1;
		if (at >= 0) siblings!.splice(at, 1);
	}
}

/**
 * An attempt's signal: linked to the walk's scope, aborted on its own by the attempt's timeout; `signal` is what the
 * provider gets. `race` settles like the promise, or rejects with the abort reason as soon as the signal aborts; one
 * race runs at a time, so the abort rejects it directly and a race adds no listener.
 */
/** What a walk is cancelled by: the coalescer's Scope, or a caller's own signal. */
export type Cancel = AbortSignal | Scope;

export class RaceSignal extends Scope {
	readonly controller = new AbortController();
	readonly signal: AbortSignal = this.controller.signal;
	private rejectRace: ((reason: unknown) => void) | undefined;

	constructor(parent: AbortSignal | Scope) {
		super(parent);
		if (this.aborted) this.controller.abort(this.reason);
	}

	override abort(reason: unknown): void {
		if (this.aborted) return;
		super.abort(reason);
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
