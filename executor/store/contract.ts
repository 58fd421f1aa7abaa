// The state store's contract: where spend, budget reservations, cooldowns and key states live so that every
// process using the same store sees them. One folder per implementation (memory/, local/), listed in index.ts.
// Records carry amounts, provider names and key fingerprints only: never a key.

import type { SpendDay, SpendEntry } from "../spend.ts";

/** A cooldown as written to a store (executor/types.ts CooldownState): `untilMs` 0 clears it (the provider answered). */
export interface CooldownMark {
	provider: string;
	untilMs: number;
	failures: number;
	reason: string;
}

/** A key state as written to a store (executor/types.ts KeyState, by fingerprint): state "active" clears it. */
export interface KeyMark {
	fingerprint: string;
	label: string;
	state: "rate-limited" | "exhausted" | "active";
	untilMs?: number;
	sinceMs?: number;
}

/** A paid call's price held against the day budgets before it is sent. */
export interface ReserveRequest {
	provider: string;
	/** The price held until the call settles (the declared per-request price, or one unit). */
	usd: number;
	/** The provider's own usdPerDay, if any. */
	providerDayUsd?: number;
	/** The plan's usdPerDay (over all providers), if any. */
	totalDayUsd?: number;
}

/** Granted: the call may be sent and must be settled with `id`. Refused: the reason, as attempts show it. */
export type Reservation = { granted: true; id: string } | { granted: false; reason: string };

/** What a store knows about itself, for `status` and `check`. */
export interface StoreHealth {
	/** The implementation: "memory" (this process only), "local" (this machine) or "redis" (a team's machines). */
	kind: string;
	/** Where it lives (a folder for the local store, the URL with its secrets masked for redis). */
	location?: string;
	state: "ok" | "degraded";
	/** Why it is degraded, with the fix; also records it could not read. */
	detail?: string;
	/** A store shared past this machine: today's spend per provider of this machine and of every machine sharing it. */
	spend?: { machine: SpendEntry[]; team: SpendEntry[] };
	/** A result cache shared past this machine: its live entries, their bytes, and its caps. */
	cache?: SharedCacheSize;
}

/** The size of a result cache shared by a team, and its caps. */
export interface SharedCacheSize {
	entries: number;
	bytes: number;
	maxEntries: number;
	maxBytes: number;
	/** A result larger than this is not shared. */
	entryMaxBytes: number;
}

/**
 * A call's place in a result cache shared past this process, looked up in the pull before the call. `keys` are the
 * executor's cache keys (executor/call-key.ts; the store hashes them), tried in order; the first marks the call
 * pending while it runs, for at most `pendingMs`.
 */
export interface SharedLookup {
	keys: string[];
	pendingMs: number;
}

/** Found (the entry as stored, and how long it has left), running elsewhere, or this process's to run. */
export type SharedAnswer = { kind: "hit"; text: string; ttlMs: number } | { kind: "pending" } | { kind: "run" };

/** A result to share once the call is answered: `encode` runs then (undefined: nothing to share). */
export interface SharedPut {
	/** The cache key it is stored under (one of the lookup's keys). */
	key: string;
	/** The lookup's first key, whose pending mark goes. */
	pendingKey: string;
	ttlMs: number;
	encode(): string | undefined;
}

/** Cooldowns and key states other processes set since the last sync, newest first wins. */
export interface StoreChanges {
	cooldowns: CooldownMark[];
	keys: KeyMark[];
}

export interface StateStore {
	/** Reads what other processes wrote; the caller merges the marks into its own view. Never throws. */
	sync(): StoreChanges;
	/** Holds a paid call's price against the day budgets of every process sharing the store. */
	reserve(request: ReserveRequest): Reservation;
	/** What an answered call cost; `id` is its reservation's, when there was one. */
	settle(provider: string, usd: number, estimated: boolean, id?: string): void;
	/** A reserved call that was not answered: its price is no longer held. */
	release(id: string): void;
	putCooldown(mark: CooldownMark): void;
	putKey(mark: KeyMark): void;
	/** Today's settled spend per provider, over every process sharing the store. */
	today(): SpendDay;
	health(): StoreHealth;
	/** Writes anything buffered; the end of a process calls it. */
	flush(): void;
	close(): void;
	/**
	 * A store behind a network: takes in its view before a call, bounded by its own timeout; never rejects. With a
	 * shared result cache and a `lookup`, the same round trip looks the call up and marks it pending.
	 */
	refresh?(lookup?: SharedLookup): Promise<SharedAnswer | undefined>;
	/** Waits at most `waitMs` for the entry another process is making: its text, or undefined once it gave up. */
	awaitShared?(lookup: SharedLookup, waitMs: number, signal: { readonly aborted: boolean }): Promise<SharedAnswer>;
	/** Shares a result after the answer (queued, never awaited); with nothing to share its pending mark goes. */
	share?(put: SharedPut): void;
	/** A change of the store's health a call's warnings say, returned once (then undefined until the next change). */
	notice?(): string | undefined;
	/** A store behind a network: sends what is in flight (bounded), then closes; the end of a process awaits it. */
	drain?(): Promise<void>;
}
