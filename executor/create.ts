// createExecutor: wires the walk to process state (cooldowns, key pools, persistence), the result cache and
// coalescing, and turns a winning provider answer into the SearchResult / FetchResult the tools return.

import { WebAccessError } from "../engine/errors.ts";
import type { FetchRequest, Plan, SearchRequest } from "../engine/request-types.ts";
import type { FetchResult, SearchResult } from "../engine/result-types.ts";
import type { RequestSites } from "../engine/sites.ts";
import type { ProviderFetchResult, ProviderSearchResult } from "../providers/contract.ts";
import { CACHE_DEFAULTS, createCoalescer, createLru } from "./cache.ts";
import { callKey } from "./call-key.ts";
import { createHealth } from "./health.ts";
import { createKeyBook } from "./keys.ts";
import { copyPageFacts, copyPlain } from "./result-copy.ts";
import { fetchWindow, type ProcessedSearch, processSearch, windowFetch } from "./results.ts";
import { createSharedState } from "./shared-state.ts";
import { createSpendBook } from "./spend.ts";
import { createMemoryStore } from "./store/memory/store.ts";
import { afterBySleep, realAfter, realSleep } from "./timers.ts";
import type { CallOptions, Clock, Executor, ExecutorOptions, ExecutorStateSnapshot } from "./types.ts";
import { type Evaluation, type WalkEnv, type WalkWin, walk } from "./walk.ts";

interface SearchValue {
	raw: ProviderSearchResult;
	processed: ProcessedSearch;
}

/** A fetch answer kept in the cache before windowing, so paging through a page does not fetch it again. */
interface FetchHit {
	win: WalkWin<ProviderFetchResult>;
}

/** Spend is written at most this often while calls go on (and at flush()). */
export const STATE_DEFAULTS = { spendWriteMs: 1000 };

function unique(lines: string[]): string[] {
	return lines.length < 2 ? lines : [...new Set(lines)];
}

function fallbackWarning(plan: Plan, provider: string, costUsd: number | undefined): string[] {
	const first = plan.steps[0]?.provider;
	if (first === undefined || first === provider) return [];
	const cost = costUsd === undefined ? "no cost reported" : `reported cost $${costUsd}`;
	return [`answered by ${provider} after a fallback from ${first}; ${cost}`];
}

/** Text without markup was asked for, but this backend answers in markdown only. */
function formatWarning(request: FetchRequest, raw: ProviderFetchResult, provider: string): string[] {
	if (request.format !== "text" || (raw.format ?? "markdown") !== "markdown") return [];
	return [`${provider} returns markdown: format "text" is the keyless fetcher's (direct)`];
}

function evaluateSearch(
	raw: ProviderSearchResult,
	request: SearchRequest,
	native: Parameters<typeof processSearch>[2],
	nowMs: number,
	sites: RequestSites | undefined,
): Evaluation<SearchValue> {
	const processed = processSearch(raw, request, native, nowMs, sites);
	if (processed.results.length > 0) return { outcome: "ok", value: { raw, processed } };
	const restricted = request.domains.length > 0;
	// An answer without sources still answers an open question, but says nothing about the requested sites.
	if (!restricted && raw.answer?.trim()) return { outcome: "ok", value: { raw, processed } };
	const filtered = raw.results.length > 0 ? ` (${raw.results.length} removed by filters)` : "";
	return { outcome: "empty", value: { raw, processed }, reason: `no results${filtered}` };
}

export function createExecutor(options: ExecutorOptions): Executor {
	const clock: Clock = {
		now: options.now ?? Date.now,
		sleep: options.sleep ?? realSleep,
		after: options.sleep ? afterBySleep(options.sleep) : realAfter,
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
	// A store behind a network takes in the team's view before the walk (one round trip, bounded by its timeout).
	const refreshed = <T>(go: () => Promise<T>): Promise<T> => (store.refresh ? store.refresh().then(go) : go());
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

	function mismatch(capability: string): WebAccessError {
		return new WebAccessError(`executor.${capability} needs a ${capability} plan`, {
			kind: "usage",
			code: "plan-mismatch",
		});
	}

	function searchResult(plan: Plan, request: SearchRequest, win: WalkWin<SearchValue>, started: number): SearchResult {
		const { raw, processed } = win.value;
		const result: SearchResult = {
			provider: win.provider,
			query: request.query,
			results: processed.results,
			attempts: win.attempts,
			warnings: unique([
				...(raw.warnings ?? []),
				...processed.warnings,
				...fallbackWarning(plan, win.provider, raw.costUsd),
			]),
			latencyMs: clock.now() - started,
		};
		if (raw.answer !== undefined) result.answer = raw.answer;
		if (raw.costUsd !== undefined) result.costUsd = raw.costUsd;
		return result;
	}

	function fetchResult(plan: Plan, hit: FetchHit, started: number, cached: boolean): FetchResult {
		const request = plan.request;
		if (request.kind !== "fetch") throw mismatch("fetch");
		const raw = hit.win.value;
		const window = windowFetch(raw, request);
		const result: FetchResult = {
			provider: hit.win.provider,
			url: request.url,
			content: window.content,
			extraction: raw.extraction,
			truncated: window.truncated,
			attempts: hit.win.attempts.map((attempt) => ({ ...attempt })),
			warnings: unique([
				...(raw.warnings ?? []),
				...window.warnings,
				...formatWarning(request, raw, hit.win.provider),
				...fallbackWarning(plan, hit.win.provider, raw.costUsd),
			]),
			latencyMs: clock.now() - started,
		};
		result.format = raw.format ?? "markdown";
		if (raw.finalUrl !== undefined) result.finalUrl = raw.finalUrl;
		if (raw.title !== undefined) result.title = raw.title;
		copyPageFacts(raw, result);
		if (window.nextOffset !== undefined) result.nextOffset = window.nextOffset;
		if (window.totalChars !== undefined) result.totalChars = window.totalChars;
		if (raw.crawledAt !== undefined) result.crawledAt = raw.crawledAt;
		if (raw.costUsd !== undefined) result.costUsd = raw.costUsd;
		if (cached) result.cached = true;
		return result;
	}

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
			(signal, onProgress) =>
				refreshed(() =>
					walk<ProviderSearchResult, SearchValue, SearchResult>(
						{
							plan,
							signal,
							evaluate: (raw, binding) =>
								evaluateSearch(raw, request, binding.definition.native, clock.now(), plan.sites),
							finish: (win) => {
								const built = searchResult(plan, request, win, started);
								if (win.outcome === "ok" && ttlMs > 0) searchCache.set(key, own(built), ttlMs);
								return noted(built);
							},
						},
						env(onProgress),
					),
				),
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
			if (hit !== undefined) return fetchResult(plan, hit, started, true);
			const stored = await coalescer.run(windowKey, call, (signal, onProgress) =>
				refreshed(() =>
					walk<ProviderFetchResult, ProviderFetchResult, FetchHit>(
						{
							plan,
							signal,
							evaluate: (raw): Evaluation<ProviderFetchResult> =>
								raw.content.trim() === ""
									? { outcome: "error", failure: { errorClass: "parse", reason: "no text returned" } }
									: { outcome: "ok", value: raw },
							finish: (win) => {
								const entry: FetchHit = { win };
								fetchCache.set(win.value.window === undefined ? key : windowKey, entry, ttlMs);
								return entry;
							},
						},
						env(onProgress),
					),
				),
			);
			return noted(fetchResult(plan, stored, started, false));
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
