// The executor's inputs and outputs: what cli/ and extension/ hand it per provider, the clock it runs on,
// and the state snapshot shown by status displays and written to the state file (fingerprints, never keys).

import type { Config, ProviderConfig } from "../engine/config-types.ts";
import type { Plan } from "../engine/request-types.ts";
import type { FetchResult, SearchResult } from "../engine/result-types.ts";
import type {
	CallKey,
	CurrentModel,
	PiProviderAuth,
	ProviderDefinition,
	ProxySettings,
} from "../providers/contract.ts";
import type { SourceSettings } from "../providers/sources/contract.ts";
import type { SpendDay, SpendReport } from "./spend.ts";
import type { StateStore, StoreHealth } from "./store/contract.ts";
import type { Timed, Timer } from "./timer-queue.ts";

/** A configured provider bound to its definition, keys and proxy: what the executor calls (runtime/services.ts). */
export interface ProviderBinding {
	config: ProviderConfig;
	/** Tests may pass in-process fake definitions. */
	definition: ProviderDefinition;
	/**
	 * Resolve the key pool; [] for keyless types. Throws WebAccessError (kind "auth") when no key can be had. Lazy:
	 * called on first use; `attempt.signal` ends a `!command` (its process group is killed), read only when one is
	 * waited for (the attempt makes its AbortSignal on first use). A pool that needs no waiting (literal and `$VAR`
	 * keys) comes back as it is, so a call does not wait a turn of the event loop for it.
	 */
	resolveKeys(attempt?: { readonly signal: AbortSignal }): CallKey[] | Promise<CallKey[]>;
	/** The referenced pi provider's auth; undefined (not a promise) when there is none to ask. */
	piAuth?(): PiProviderAuth | undefined | Promise<PiProviderAuth | undefined>;
	/** The proxies its requests use, handed to the provider as CallContext.proxy. */
	proxy?: ProxySettings;
	/** The config's source settings, handed to the provider as CallContext.sources. */
	sources?: SourceSettings;
}

/** A provider in cooldown (or with failed probes still counted towards the next, longer one). */
export interface CooldownState {
	provider: string;
	/** Epoch ms (of the executor's clock) when the provider is healthy again. */
	untilMs: number;
	/** Consecutive failed probes; the next cooldown is base × 2^failures, capped. */
	failures: number;
	/** Error class and reason of the failure that started the cooldown. */
	reason: string;
}

/** A key that is not usable right now, identified by a sha256 prefix of the secret. */
export interface KeyState {
	fingerprint: string;
	/** Label the key had in the pool that last used it (`key1`); never the key. */
	label: string;
	state: "rate-limited" | "exhausted";
	/** rate-limited: when the key is usable again. */
	untilMs?: number;
	/** exhausted: when it was marked (a persisted mark expires after a day, see persist.ts). */
	sinceMs?: number;
	/** exhausted because the backend refused the key (401/403), not for a used-up quota: shown as "refused". */
	refused?: true;
}

/** The executor's process state: what status displays show and what the state file holds. */
export interface ExecutorStateSnapshot {
	version: 1;
	cooldowns: CooldownState[];
	keys: KeyState[];
	/** Today's spend per provider (amounts only). */
	spend?: SpendDay;
}

export interface ExecutorOptions {
	/**
	 * The configured providers by name, built by the composition root (runtime/services.ts) once per set-up and
	 * loaded definition; it keeps the map current (a reload replaces its entries), the executor only reads it.
	 */
	bindings: ReadonlyMap<string, ProviderBinding>;
	/** Fake clock in tests; defaults to Date.now. */
	now?: () => number;
	/** Must reject with `signal.reason` when the signal aborts; every timer of the executor goes through it. */
	sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
	/**
	 * Where spend, budget reservations, cooldowns and key states are shared with other processes (executor/store/);
	 * default: this process's memory.
	 */
	store?: StateStore;
	/** Persistence of cooldowns and key states (see persist.ts for the file-backed one). */
	state?: { load(): ExecutorStateSnapshot | undefined; save(s: ExecutorStateSnapshot): void };
	currentModel?: () => CurrentModel | undefined;
	fetchGuard?: () => Config["fetchGuard"];
	/** Entries of the result cache (LRU); default 100. */
	cacheEntries?: number;
}

export interface CallOptions {
	signal?: AbortSignal;
	/** One line per event, e.g. `exa failed (rate-limit); trying deepseek`. */
	onProgress?: (line: string) => void;
}

export interface Executor {
	search(plan: Plan, options?: CallOptions): Promise<SearchResult>;
	fetch(plan: Plan, options?: CallOptions): Promise<FetchResult>;
	/** For status displays: cooling providers and key states (labels + fingerprints only). */
	snapshot(): ExecutorStateSnapshot;
	/** Writes the spend not yet in the state file (it is written at most once a second); the end of a process calls it. */
	flush(): void;
	/** Requests sent per provider and key label since the process started (labels only, never keys). */
	keyUses(): Array<{ provider: string; label: string; uses: number }>;
	/** Spend today (UTC, persisted) and in this process, per provider. */
	spend(): SpendReport;
	/** The state store in use and its health. */
	store(): StoreHealth;
	/** flush, then a store behind a network sends what is in flight (bounded) and closes: the end of a process. */
	drain(): Promise<void>;
}

/** The clock every executor part runs on. */
export interface Clock {
	now: () => number;
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
	/** Calls `fire` after `ms`; the returned function cancels it. On an injected sleep, it goes through that sleep. */
	after: (ms: number, fire: () => void) => () => void;
	/** `after` for an object with a `due` method (a walk's deadline, an attempt's timeout): no closure per wait. */
	arm: (ms: number, target: Timed) => Timer;
}
