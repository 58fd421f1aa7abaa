// createExecutor: wires the walk to process state (cooldowns, key pools, persistence), the result cache and
// coalescing, and turns a winning provider answer into the SearchResult / FetchResult the tools return.

import type { Plan } from "../engine/request-types.ts";
import type { FetchResult, SearchResult } from "../engine/result-types.ts";
import type { ProviderFetchResult, ProviderSearchResult } from "../providers/contract.ts";
import { evaluateSearch, type FetchHit, fetchResult, mismatch, type SearchValue, searchResult } from "./answers.ts";
import { CACHE_DEFAULTS, createCoalescer, createLru } from "./cache.ts";
import { callKey } from "./call-key.ts";
import { overallDeadlineMs } from "./chain.ts";
import { createHealth } from "./health.ts";
import { createKeyBook } from "./keys.ts";
import { copyPlain } from "./result-copy.ts";
import { fetchWindow } from "./results.ts";
import { createSharedState } from "./shared-state.ts";
import { createSpendBook } from "./spend.ts";
import { createMemoryStore } from "./store/memory/store.ts";
import { attemptSecrets, isFetchWin, isSearchResult, type TeamParts, throughTeam } from "./team-cache.ts";
import { afterBySleep, armBySleep, realAfter, realArm, realSleep, type Scope } from "./timers.ts";
import type { CallOptions, Clock, Executor, ExecutorOptions, ExecutorStateSnapshot } from "./types.ts";
import { type Evaluation, type WalkEnv, type WalkWin, walk } from "./walk.ts";

/** Spend is written at most this often while calls go on (and at flush()). */
export const STATE_DEFAULTS = { spendWriteMs: 1000 };

export function createExecutor(options: ExecutorOptions): Executor {
	const clock: Clock = {
		now: options.now ?? Date.now,
		sleep: options.sleep ?? realSleep,
		after: options.sleep ? afterBySleep(options.sleep) : realAfter,
		arm: options.sleep ? armBySleep(options.sleep) : realArm,
	};
	const health = createHealth(clock.now);
	const keys = createKeyBook(clock.now);
	const spend = createSpendBook(clock.now);
	const snapshot = (): ExecutorStateSnapshot => ({
		version: 1,
		cooldowns: health.entries(),
		keys: keys.entries(),
		spend: spend.persisted(),
	});
	try {
		const loaded = options.state?.load();
		if (loaded) {
			health.load(loaded.cooldowns);
			keys.load(loaded.keys);
			if (loaded.spend) spend.load(loaded.spend);
		}
	} catch {
		// A broken state file only costs the memory of past failures.
	}
	// What the file holds, in two parts: cooldowns and key marks are written as soon as they change (they are rare,
	// and another process should see them); spend changes with every paid answer, so it is written at most once per
	// STATE_DEFAULTS.spendWriteMs and at flush(). A write per call measured 166 µs of CPU on the caller's thread.
	const marksOf = (state: ExecutorStateSnapshot) => JSON.stringify([state.cooldowns, state.keys]);
	const initial = snapshot();
	let savedMarks = marksOf(initial);
	let savedSpend = JSON.stringify(initial.spend);
	let cancelWrite: (() => void) | undefined;
	const write = (current: ExecutorStateSnapshot, marks = marksOf(current)) => {
		cancelWrite?.();
		cancelWrite = undefined;
		savedMarks = marks;
		savedSpend = JSON.stringify(current.spend);
		try {
			options.state?.save(current);
		} catch {
			// Persistence is best effort; the in-memory state stays authoritative.
		}
	};
	const store = options.store ?? createMemoryStore(clock.now);
	const shared = options.store === undefined ? undefined : createSharedState(store, health, keys, spend);
	shared?.sync();
	const changed = () => {
		shared?.publish();
		if (options.state === undefined) return;
		const current = snapshot();
		const marks = marksOf(current);
		if (marks !== savedMarks) write(current, marks);
		else if (cancelWrite === undefined && JSON.stringify(current.spend) !== savedSpend) {
			cancelWrite = clock.after(STATE_DEFAULTS.spendWriteMs, () => write(snapshot()));
		}
	};
	// A store behind a network takes in the team's view before the walk (one round trip, bounded by its timeout),
	// and with a team cache looks the call up in the same round trip (executor/team-cache.ts). The callers build its
	// parts only for such a store: without one, a call is its walk.
	const team = <T>(plan: Plan, signal: Scope, ttlMs: number, keys: string[], parts: TeamParts<T>): Promise<T> =>
		throughTeam(store, {
			keys,
			ttlMs,
			signal,
			deadlineMs: overallDeadlineMs(plan.steps, options.bindings),
			secrets: () => attemptSecrets(parts.attempts(), options.bindings),
			...parts,
		});
	/** The store's change of health, said in the warnings of the first call that meets it (never a cached copy's). */
	const noted = <T extends { warnings: string[] }>(result: T): T => {
		const notice = store.notice?.();
		if (notice !== undefined) result.warnings.push(notice);
		return result;
	};
	const entries = options.cacheEntries ?? CACHE_DEFAULTS.entries;
	const searchCache = createLru<SearchResult>(entries, clock.now);
	const fetchCache = createLru<FetchHit>(entries, clock.now);
	const coalescer = createCoalescer();

	const env = (onProgress: (line: string) => void): WalkEnv => {
		shared?.sync();
		return {
			clock,
			keys,
			health,
			spend,
			store,
			bindings: options.bindings,
			currentModel: options.currentModel?.(),
			fetchGuard: options.fetchGuard?.(),
			changed,
			onProgress,
		};
	};

	// No two holders share a result, so nothing a caller does to its own reaches another caller or the cache: the
	// cache keeps a copy and hands out copies; callers sharing one execution get a copy each; a lone caller the
	// result itself.
	const own = (result: SearchResult): SearchResult => copyPlain(result);

	function searchOnce(plan: Plan, call: CallOptions): Promise<SearchResult> {
		const { request } = plan;
		if (request.kind !== "search") throw mismatch("search");
		const started = clock.now();
		const ttlMs = plan.policy.cacheTtlMs ?? CACHE_DEFAULTS.searchTtlMs;
		const key = callKey(plan);
		const hit = ttlMs > 0 ? searchCache.get(key) : undefined;
		if (hit !== undefined) {
			const copy = own(hit);
			copy.cached = true;
			copy.latencyMs = clock.now() - started;
			return Promise.resolve(copy);
		}
		return coalescer.run(
			key,
			call,
			(signal, onProgress) => {
				let kept: SearchResult | undefined;
				const run = () =>
					walk<ProviderSearchResult, SearchValue, SearchResult>(
						{
							plan,
							signal,
							evaluate: (raw, binding) =>
								evaluateSearch(raw, request, binding.definition.native, clock.now(), plan.sites),
							finish: (win) => {
								const built = searchResult(plan, request, win, clock.now() - started);
								if (win.outcome === "ok" && ttlMs > 0) {
									kept = own(built);
									searchCache.set(key, kept, ttlMs);
								}
								return noted(built);
							},
						},
						env(onProgress),
					);
				if (store.refresh === undefined) return run();
				return team(plan, signal, ttlMs, [key], {
					run,
					decode: (value, leftMs) => {
						if (!isSearchResult(value)) return undefined;
						searchCache.set(key, own(value), Math.min(ttlMs, leftMs));
						value.cached = true;
						value.latencyMs = clock.now() - started;
						return noted(value);
					},
					shared: () => (kept === undefined ? undefined : { key, value: () => kept }),
					attempts: () => kept?.attempts ?? [],
				});
			},
			own,
		);
	}

	return {
		// Not an async function: a search waits only for its walk, so no frame of its own stays alive meanwhile.
		search(plan: Plan, call: CallOptions = {}): Promise<SearchResult> {
			try {
				return searchOnce(plan, call);
			} catch (error) {
				return Promise.reject(error);
			}
		},

		async fetch(plan: Plan, call: CallOptions = {}): Promise<FetchResult> {
			const { request } = plan;
			if (request.kind !== "fetch") throw mismatch("fetch");
			const started = clock.now();
			const ttlMs = plan.policy.cacheTtlMs ?? CACHE_DEFAULTS.fetchTtlMs;
			const { offset, maxChars } = fetchWindow(request);
			const key = callKey(plan);
			const windowKey = callKey(plan, `${offset}:${maxChars}`);
			const hit = ttlMs > 0 ? (fetchCache.get(key) ?? fetchCache.get(windowKey)) : undefined;
			if (hit !== undefined) return fetchResult(plan, hit, clock.now() - started, true);
			const stored = await coalescer.run(windowKey, call, (signal, onProgress) => {
				let kept: FetchHit | undefined;
				const keyOf = (win: WalkWin<ProviderFetchResult>) => (win.value.window === undefined ? key : windowKey);
				const run = () =>
					walk<ProviderFetchResult, ProviderFetchResult, FetchHit>(
						{
							plan,
							signal,
							evaluate: (raw): Evaluation<ProviderFetchResult> =>
								raw.content.trim() === ""
									? { outcome: "error", failure: { errorClass: "parse", reason: "no text returned" } }
									: { outcome: "ok", value: raw },
							finish: (win) => {
								kept = { win };
								fetchCache.set(keyOf(win), kept, ttlMs);
								return kept;
							},
						},
						env(onProgress),
					);
				if (store.refresh === undefined) return run();
				return team(plan, signal, ttlMs, [windowKey, key], {
					run,
					decode: (value, leftMs): FetchHit | undefined => {
						if (!isFetchWin(value)) return undefined;
						fetchCache.set(keyOf(value), { win: value }, Math.min(ttlMs, leftMs));
						return { win: value, team: true };
					},
					shared: () => (kept === undefined ? undefined : { key: keyOf(kept.win), value: () => kept?.win }),
					attempts: () => kept?.win.attempts ?? [],
				});
			});
			return noted(fetchResult(plan, stored, clock.now() - started, stored.team === true));
		},

		snapshot,
		flush() {
			if (cancelWrite !== undefined) write(snapshot());
			store.flush();
		},
		async drain() {
			this.flush();
			await store.drain?.();
		},
		store: () => store.health(),
		keyUses: () => keys.uses(),
		spend: () => spend.report(),
	};
}
