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

export interface Ledger {
	/** Applies one record; for a reservation, its verdict: true (granted) or why it was refused. */
	apply(record: LedgerRecord): string | true | undefined;
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
	return {
		apply(record) {
			if (record.t === "r") return reserve(record);
			if (record.t === "s") settle(record);
			else if (record.t === "x") held.delete(record.id);
			else if (record.t === "c") {
				const known = cooldowns.get(record.m.provider);
				if (known === undefined || known.at <= record.at)
					cooldowns.set(record.m.provider, { ...record.m, at: record.at });
			} else if (record.t === "k") {
				const known = keys.get(record.m.fingerprint);
				if (known === undefined || known.at <= record.at)
					keys.set(record.m.fingerprint, { ...record.m, at: record.at });
			}
			return undefined;
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
