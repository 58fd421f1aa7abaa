// Timers and cancellation on the injected clock: the real sleep, `after` (one shared timer, timer-queue.ts), the
// walk's scopes (linked in lists, where AbortSignal.any keeps weak references per call and an event listener costs a
// map per signal), and the attempt's signal, whose watch stops waiting for a provider promise the moment it aborts (a
// provider that ignores its signal cannot stall the walk).

import type { CancelSignal } from "../providers/contract.ts";
import { type Timed, type Timer, TimerQueue } from "./timer-queue.ts";
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

/** `clock.arm` on the real clock: `target.due()` after `ms`, cancelled through the timer returned. */
export function realArm(ms: number, target: Timed): Timer {
	return waits.arm(ms, target);
}

/** `clock.arm` built on an injected sleep (afterBySleep's). */
export function armBySleep(sleep: Clock["sleep"]): Clock["arm"] {
	const after = afterBySleep(sleep);
	return (ms, target) => ({ cancel: after(ms, () => target.due()) });
}

/**
 * `clock.after` built on an injected sleep (the fake clock of tests): fires through it, cancelled by its signal. A
 * cancel after the sleep ended but before its reaction ran still keeps `fire` from being called, as on the real clock.
 */
export function afterBySleep(sleep: Clock["sleep"]): Clock["after"] {
	return (ms, fire) => {
		const stop = new AbortController();
		let live = true;
		sleep(ms, stop.signal).then(
			() => {
				if (live) fire();
			},
			() => {},
		);
		return () => {
			live = false;
			stop.abort(CANCELLED);
		};
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
		if (parent.children !== undefined) removeItem(parent.children, this);
	}
}

/**
 * Takes `item` out of `list`, keeping the order; false when it was not there. The usual item is the last (often the
 * only one): popped, without the array of removed items that splice makes.
 */
export function removeItem<T>(list: T[], item: T): boolean {
	if (list[list.length - 1] === item) {
		list.pop();
		return true;
	}
	const at = list.indexOf(item);
	if (at < 0) return false;
	list.splice(at, 1);
	return true;
}

/** What a watch hands a promise's outcome to (RaceSignal.watchWith): neither method may throw. */
export interface Watcher<T> {
	settled(value: T): void;
	failed(error: unknown): void;
}

/** What a walk is cancelled by: the coalescer's Scope, or a caller's own signal. */
export type Cancel = AbortSignal | Scope;

function ignore(): void {}

/** What an abort hands its listeners (they read the signal, not the event). */
const ABORT_EVENT = new Event("abort");

/** As an AbortSignal does: a listener that throws does not keep the others from hearing, and its error is uncaught. */
function tell(listener: EventListenerObject): void {
	try {
		listener.handleEvent(ABORT_EVENT);
	} catch (error) {
		queueMicrotask(() => {
			throw error;
		});
	}
}

/**
 * An attempt's signal: linked to the walk's scope, aborted on its own by the attempt's timeout. `signal` is the
 * AbortSignal the provider and a `!command` get, made when one is first asked for: the HTTP layer listens to this
 * object itself (CancelSignal), so a provider that only sends requests never makes one (an AbortController and its
 * event tables, about 0.8 µs and 400 bytes a call). `watchWith` hands a promise's outcome to a watcher, or the abort
 * reason as soon as the signal aborts (a provider that ignores its signal cannot stall the walk). One watch runs at a
 * time, so an abort ends it directly and a watch adds no listener; the abort is reported on a microtask, never inside
 * whatever aborted.
 */
export class RaceSignal extends Scope implements CancelSignal {
	private controller: AbortController | undefined;
	/** Listeners of the HTTP layer (objects, as an AbortSignal takes them), told once at the abort. */
	private listeners: EventListenerObject[] | undefined;
	/** The watcher of the watch in progress, and its number (a settled or aborted watch is not current). */
	private watcher: Watcher<never> | undefined;
	private watchId = 0;

	/** The AbortSignal of this attempt, aborted with it (with the same reason); made on first use. */
	get signal(): AbortSignal {
		let { controller } = this;
		if (controller === undefined) {
			controller = new AbortController();
			this.controller = controller;
			if (this.aborted) controller.abort(this.reason);
		}
		return controller.signal;
	}

	addEventListener(_type: "abort", listener: EventListenerObject): void {
		if (this.aborted) return; // as an AbortSignal: an aborted one dispatches no more events
		const { listeners } = this;
		if (listeners === undefined) this.listeners = [listener];
		else if (!listeners.includes(listener)) listeners.push(listener);
	}

	removeEventListener(_type: "abort", listener: EventListenerObject): void {
		if (this.listeners !== undefined) removeItem(this.listeners, listener);
	}

	override abort(reason: unknown): void {
		if (this.aborted) return;
		super.abort(reason);
		const fail = this.watcher;
		this.watcher = undefined;
		this.watchId++;
		this.controller?.abort(reason);
		const { listeners } = this;
		this.listeners = undefined;
		if (listeners !== undefined) for (const listener of listeners) tell(listener);
		if (fail !== undefined) queueMicrotask(() => fail.failed(reason));
	}

	/**
	 * Calls the watcher's `settled` or `failed` once: as `promise` settles, or with the abort reason if the signal
	 * aborts first. Neither may throw: they run as the promise's reactions, where a throw would be an unhandled
	 * rejection. Both are one object's methods: an attempt's request is its own watcher (no closures).
	 */
	watchWith<T>(promise: PromiseLike<T>, watcher: Watcher<T>): void {
		if (this.aborted) {
			promise.then(ignore, ignore);
			const why = this.reason;
			queueMicrotask(() => watcher.failed(why));
			return;
		}
		const id = ++this.watchId;
		this.watcher = watcher as Watcher<never>;
		promise.then(
			(value) => {
				if (this.watchId !== id) return;
				this.watchId++;
				this.watcher = undefined;
				watcher.settled(value);
			},
			(error: unknown) => {
				if (this.watchId !== id) return;
				this.watchId++;
				this.watcher = undefined;
				watcher.failed(error);
			},
		);
	}

	/** `watchWith` as a promise: settles like `promise`, or rejects with the abort reason as soon as the signal aborts. */
	race<T>(promise: PromiseLike<T>): Promise<T> {
		return new Promise<T>((resolve, reject) => this.watchWith(promise, { settled: resolve, failed: reject }));
	}
}
