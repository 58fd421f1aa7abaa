// Result cache (bounded LRU with per-entry TTL) and coalescing: identical concurrent calls share one execution,
// which is cancelled only when every caller sharing it has cancelled.

import { WebAccessError } from "../engine/errors.ts";
import { Scope } from "./timers.ts";
import type { CallOptions } from "./types.ts";

export const CACHE_DEFAULTS = { entries: 100, searchTtlMs: 5 * 60_000, fetchTtlMs: 15 * 60_000 };

export interface Lru<V> {
	get(key: string): V | undefined;
	/** `ttlMs` ≤ 0 stores nothing. */
	set(key: string, value: V, ttlMs: number): void;
	readonly size: number;
}

export function createLru<V>(maxEntries: number, now: () => number): Lru<V> {
	// A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
	const entries = new Map<string, { value: V; expiresAt: number }>();
	return {
		get(key) {
			const entry = entries.get(key);
			if (entry === undefined) return undefined;
			entries.delete(key);
			if (entry.expiresAt <= now()) return undefined;
			entries.set(key, entry);
			return entry.value;
		},
		set(key, value, ttlMs) {
			if (!(ttlMs > 0) || maxEntries <= 0) return;
			entries.delete(key);
			entries.set(key, { value, expiresAt: now() + ttlMs });
			while (entries.size > maxEntries) {
				const oldest = entries.keys().next().value;
				if (oldest === undefined) break;
				entries.delete(oldest);
			}
		},
		get size() {
			return entries.size;
		},
	};
}

/**
 * One shared execution. It is itself the scope the execution runs under: aborted when the last caller left, the
 * walk's scope hangs off it (no AbortController, no event listener, no second object per call).
 */
class Shared<T> extends Scope {
	promise: Promise<T> | undefined = undefined;
	listeners: Set<(line: string) => void> | undefined = undefined;
	callers = 0;
	/** Callers that ever joined, in order; the first gets the value itself. */
	joined = 0;
	/** One copy per later caller (with `copy`), made when the execution ends, before any caller sees the value. */
	copies: T[] | undefined = undefined;
}

/** What one shared execution gets: a signal that aborts when all callers left, and progress fanned out to all. */
export type SharedRun<T> = (signal: Scope, onProgress: (line: string) => void) => Promise<T>;

export interface Coalescer {
	/**
	 * Runs `execute` once for all concurrent callers of `key`. With `copy` (the first caller's counts), the first
	 * caller gets the value and every later one its own copy, so no two callers hold the same object.
	 */
	run<T>(key: string, options: CallOptions, execute: SharedRun<T>, copy?: (value: T) => T): Promise<T>;
	readonly inFlight: number;
}

function callerCancelled(): WebAccessError {
	return new WebAccessError("cancelled", { kind: "cancelled", code: "cancelled", attempts: [] });
}

export function createCoalescer(): Coalescer {
	// A dictionary object, not a Map: with a fresh long key per call and as many deletes, a Map cost 3-6 µs of CPU
	// a call more at 64 in flight (bench/overhead.ts's executor without the network, old and new alternating, 6 of 6
	// pairs). No key can be a prototype's name or an index: there is no prototype, and callKey's keys
	// (executor/call-key.ts) start with a letter.
	const running: Record<string, Shared<unknown> | undefined> = Object.create(null);
	let inFlight = 0;

	/**
	 * Runs once the first caller has joined (its progress listener is in place for the first line). The bookkeeping
	 * at its end is a side reaction registered before any caller's, so it runs first and the first caller gets the
	 * execution's own promise, one reaction away from its answer.
	 */
	function execution<T>(
		key: string,
		shared: Shared<T>,
		execute: SharedRun<T>,
		copy: ((value: T) => T) | undefined,
	): Promise<T> {
		const over = () => {
			if (running[key] !== (shared as Shared<unknown>)) return;
			delete running[key];
			inFlight--;
		};
		let pending: Promise<T>;
		try {
			pending = execute(shared, (line) => {
				if (shared.listeners) for (const listener of shared.listeners) listener(line);
			});
		} catch (error) {
			over();
			return Promise.reject(error);
		}
		pending.then((value) => {
			over();
			// Nobody can join any more: the later callers' copies are made now.
			if (copy === undefined || shared.joined < 2) return;
			try {
				const copies: T[] = [];
				for (let i = 1; i < shared.joined; i++) copies.push(copy(value));
				shared.copies = copies;
			} catch {
				// Plain data does not fail to copy; should it, the later callers share the value rather than hang.
			}
		}, over);
		return pending;
	}

	return {
		run<T>(key: string, options: CallOptions, execute: SharedRun<T>, copy?: (value: T) => T): Promise<T> {
			const { signal, onProgress } = options;
			if (signal?.aborted) return Promise.reject(callerCancelled());
			let shared = running[key] as Shared<T> | undefined;
			const first = shared === undefined;
			if (shared === undefined) {
				shared = new Shared<T>();
				running[key] = shared as Shared<unknown>;
				inFlight++;
			}
			shared.callers++;
			const index = shared.joined++;
			if (onProgress) {
				shared.listeners ??= new Set();
				shared.listeners.add(onProgress);
			}
			if (first) shared.promise = execution(key, shared, execute, copy);
			const promise = shared.promise as Promise<T>;
			// The usual caller: the first, with no signal of its own, gets the execution's promise itself.
			if (signal === undefined && index === 0) return promise;
			const own = (value: T): T => (index === 0 || shared.copies === undefined ? value : shared.copies[index - 1]!);
			if (signal === undefined) return promise.then(own);
			return new Promise<T>((resolve, reject) => {
				let left = false;
				const leave = () => {
					if (left) return;
					left = true;
					signal.removeEventListener("abort", onAbort);
					if (onProgress) shared.listeners?.delete(onProgress);
					shared.callers--;
				};
				const onAbort = () => {
					leave();
					if (shared.callers > 0) {
						reject(callerCancelled());
						return;
					}
					// The last caller left: stop the execution and report its own cancellation (with attempts).
					shared.abort(signal.reason);
					promise.then(() => reject(callerCancelled()), reject);
				};
				signal.addEventListener("abort", onAbort, { once: true });
				promise.then(
					(value) => {
						leave();
						resolve(own(value));
					},
					(error: unknown) => {
						leave();
						reject(error);
					},
				);
			});
		},
		get inFlight() {
			return inFlight;
		},
	};
}
