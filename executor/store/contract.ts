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
	/** A store behind a network: takes in its view before a call, bounded by its own timeout; never rejects. */
	refresh?(): Promise<void>;
	/** A change of the store's health a call's warnings say, returned once (then undefined until the next change). */
	notice?(): string | undefined;
	/** A store behind a network: sends what is in flight (bounded), then closes; the end of a process awaits it. */
	drain?(): Promise<void>;
}
