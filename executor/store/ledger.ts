// The ledger every store replays: records in one total order (the local store's log, the memory store's calls)
// give the same spend, reservations and marks in every process. A reservation is granted when the settled spend
// plus the prices held by calls still in flight is under each day budget, so racing processes stop together.

import { formatUsd, type SpendDay, type SpendEntry } from "../spend.ts";
import type { CooldownMark, KeyMark, StoreChanges } from "./contract.ts";

/** A reservation not settled within this time (its process died) stops holding its price. */
export const LEDGER_DEFAULTS = { holdMs: 10 * 60_000 };

/** One record: reserve, settle, cooldown or key mark. Field names are short: a paid call writes one or two. */
export type LedgerRecord =
	| { t: "r"; id: string; p: string; usd: number; own?: number; all?: number; at: number }
	| { t: "s"; id?: string; p: string; usd: number; est?: 1; at: number }
	| { t: "x"; id: string; at: number }
	| { t: "c"; m: CooldownMark; at: number }
	| { t: "k"; m: KeyMark; at: number };

/** A ledger's whole state at one point of the log: what a compacted log starts with (executor/store/local/). */
export interface LedgerSnapshot {
	spend: SpendEntry[];
	held: Array<{ id: string; p: string; usd: number; at: number }>;
	c: Array<{ m: CooldownMark; at: number }>;
	k: Array<{ m: KeyMark; at: number }>;
}

export interface Ledger {
	/** Applies one record; for a reservation, its verdict: true (granted) or why it was refused. */
	apply(record: LedgerRecord): string | true | undefined;
	/** The state as of the last record applied; marks that no longer hold anything (cleared, expired) are left out. */
	snapshot(at: number): LedgerSnapshot;
	/** Starts from a snapshot (before any record is applied); its marks count as changes. */
	restore(snapshot: LedgerSnapshot): void;
	today(): SpendDay;
	/** Marks applied since the last call. */
	takeChanges(): StoreChanges;
}

interface Held {
	provider: string;
	usd: number;
	at: number;
}

export function createLedger(day: string): Ledger {
	const settled = new Map<string, SpendEntry>();
	const held = new Map<string, Held>();
	const cooldowns = new Map<string, CooldownMark & { at: number }>();
	const keys = new Map<string, KeyMark & { at: number }>();
	// The newest mark of each provider and key, kept after takeChanges hands them out, for a snapshot.
	const latestCooldowns = new Map<string, { m: CooldownMark; at: number }>();
	const latestKeys = new Map<string, { m: KeyMark; at: number }>();
	const sum = (provider?: string) => {
		let usd = 0;
		for (const entry of settled.values()) if (provider === undefined || entry.provider === provider) usd += entry.usd;
		for (const hold of held.values()) if (provider === undefined || hold.provider === provider) usd += hold.usd;
		return usd;
	};
	const reserve = (record: Extract<LedgerRecord, { t: "r" }>): string | true => {
		for (const [id, hold] of held) if (record.at - hold.at > LEDGER_DEFAULTS.holdMs) held.delete(id);
		const own = record.own === undefined ? 0 : sum(record.p);
		if (record.own !== undefined && own >= record.own) {
			return `budget reached: ${formatUsd(own)} of ${formatUsd(record.own)} today (the provider's own budget)`;
		}
		const all = record.all === undefined ? 0 : sum();
		if (record.all !== undefined && all >= record.all) {
			return `budget reached: ${formatUsd(all)} of ${formatUsd(record.all)} today`;
		}
		held.set(record.id, { provider: record.p, usd: record.usd, at: record.at });
		return true;
	};
	const settle = (record: Extract<LedgerRecord, { t: "s" }>) => {
		if (record.id !== undefined) held.delete(record.id);
		const entry = settled.get(record.p) ?? { provider: record.p, usd: 0, calls: 0 };
		entry.usd += record.usd;
		entry.calls += 1;
		if (record.est === 1 && record.usd > 0) entry.estimated = true;
		settled.set(record.p, entry);
	};
	const cooldown = (m: CooldownMark, at: number) => {
		const known = latestCooldowns.get(m.provider);
		if (known !== undefined && known.at > at) return;
		latestCooldowns.set(m.provider, { m, at });
		cooldowns.set(m.provider, { ...m, at });
	};
	const key = (m: KeyMark, at: number) => {
		const known = latestKeys.get(m.fingerprint);
		if (known !== undefined && known.at > at) return;
		latestKeys.set(m.fingerprint, { m, at });
		keys.set(m.fingerprint, { ...m, at });
	};
	return {
		apply(record) {
			if (record.t === "r") return reserve(record);
			if (record.t === "s") settle(record);
			else if (record.t === "x") held.delete(record.id);
			else if (record.t === "c") cooldown(record.m, record.at);
			else if (record.t === "k") key(record.m, record.at);
			return undefined;
		},
		snapshot(at) {
			const c = [...latestCooldowns.values()].filter(({ m }) => m.untilMs > at);
			const k = [...latestKeys.values()].filter(({ m }) => m.state === "exhausted" || (m.untilMs ?? 0) > at);
			const inFlight = [...held].map(([id, hold]) => ({ id, p: hold.provider, usd: hold.usd, at: hold.at }));
			return { spend: [...settled.values()].map((entry) => ({ ...entry })), held: inFlight, c, k };
		},
		restore(snapshot) {
			for (const entry of snapshot.spend) settled.set(entry.provider, { ...entry });
			for (const hold of snapshot.held) held.set(hold.id, { provider: hold.p, usd: hold.usd, at: hold.at });
			for (const { m, at } of snapshot.c) cooldown(m, at);
			for (const { m, at } of snapshot.k) key(m, at);
		},
		today: () => ({ day, providers: [...settled.values()].map((entry) => ({ ...entry })) }),
		takeChanges() {
			const strip = <T extends { at: number }>({ at: _at, ...rest }: T) => rest;
			const changes = { cooldowns: [...cooldowns.values()].map(strip), keys: [...keys.values()].map(strip) };
			cooldowns.clear();
			keys.clear();
			return changes;
		},
	};
}
