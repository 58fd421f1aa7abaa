// Result cache (bounded LRU with per-entry TTL) and coalescing: identical concurrent calls share one execution,
// which is cancelled only when every caller sharing it has cancelled.

import { WebAccessError } from "../engine/errors.ts";
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

interface Shared<T> {
	promise: Promise<T>;
	controller: AbortController;
	listeners: Set<(line: string) => void>;
	callers: number;
}

/** What one shared execution gets: a signal that aborts when all callers left, and progress fanned out to all. */
export type SharedRun<T> = (signal: AbortSignal, onProgress: (line: string) => void) => Promise<T>;

export interface Coalescer {
	run<T>(key: string, options: CallOptions, execute: SharedRun<T>): Promise<T>;
	readonly inFlight: number;
}

function callerCancelled(): WebAccessError {
	return new WebAccessError("cancelled", { kind: "cancelled", code: "cancelled", attempts: [] });
}

export function createCoalescer(): Coalescer {
	const running = new Map<string, Shared<unknown>>();

	function start<T>(key: string, execute: SharedRun<T>): Shared<T> {
		const controller = new AbortController();
		const listeners = new Set<(line: string) => void>();
		const shared: Shared<T> = {
			controller,
			listeners,
			callers: 0,
			// Started a microtask later so the first caller's progress listener is in place for the first line.
			promise: Promise.resolve()
				.then(() =>
					execute(controller.signal, (line) => {
						for (const listener of listeners) listener(line);
					}),
				)
				.finally(() => {
					if (running.get(key) === (shared as Shared<unknown>)) running.delete(key);
				}),
		};
		running.set(key, shared as Shared<unknown>);
		return shared;
	}

	return {
		run<T>(key: string, options: CallOptions, execute: SharedRun<T>): Promise<T> {
			const { signal, onProgress } = options;
			if (signal?.aborted) return Promise.reject(callerCancelled());
			const shared = (running.get(key) as Shared<T> | undefined) ?? start(key, execute);
			shared.callers++;
			if (onProgress) shared.listeners.add(onProgress);
			if (signal === undefined) return shared.promise;
			return new Promise<T>((resolve, reject) => {
				let left = false;
				const leave = () => {
					if (left) return;
					left = true;
					signal.removeEventListener("abort", onAbort);
					if (onProgress) shared.listeners.delete(onProgress);
					shared.callers--;
				};
				const onAbort = () => {
					leave();
					if (shared.callers > 0) {
						reject(callerCancelled());
						return;
					}
					// The last caller left: stop the execution and report its own cancellation (with attempts).
					shared.controller.abort(signal.reason);
					shared.promise.then(() => reject(callerCancelled()), reject);
				};
				signal.addEventListener("abort", onAbort, { once: true });
				shared.promise.then(
					(value) => {
						leave();
						resolve(value);
					},
					(error: unknown) => {
						leave();
						reject(error);
					},
				);
			});
		},
		get inFlight() {
			return running.size;
		},
	};
}
