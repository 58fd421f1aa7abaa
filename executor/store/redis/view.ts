// What the team's Redis held at the last pull, as this process uses it: the other machines' spend totals and
// held reservations (this machine's own come from its local store), and the marks by field. Pure decoding.

import { addSpend, type SpendDay, type SpendEntry } from "../../spend.ts";
import type { CooldownMark, KeyMark } from "../contract.ts";
import { LEDGER_DEFAULTS } from "../ledger.ts";

/** A machine's totals as kept in Redis: provider → [usd, calls, estimated (0|1)]. */
export type Totals = Record<string, [number, number, number]>;

/** A mark as kept in Redis: `c` (cooldown) or `k` (key state), when it was set, and when Redis may drop it. */
export type StoredMark = { at: number; exp: number } & ({ c: CooldownMark } | { k: KeyMark });

/** A reservation held in Redis by some machine. */
export interface StoredHold {
	p: string;
	usd: number;
	at: number;
	m: string;
}

export interface TeamView {
	/** Settled spend of the other machines, per provider. */
	others: Map<string, SpendEntry>;
	/** Prices the other machines hold for calls in flight, per provider. */
	othersHeld: Map<string, number>;
	marks: Map<string, StoredMark>;
}

export const emptyView = (): TeamView => ({ others: new Map(), othersHeld: new Map(), marks: new Map() });

const pairs = (list: string[]) => {
	const out: Array<[string, string]> = [];
	for (let i = 0; i + 1 < list.length; i += 2) out.push([list[i]!, list[i + 1]!]);
	return out;
};

function parse<T>(text: string): T | undefined {
	try {
		return JSON.parse(text) as T;
	} catch {
		return undefined;
	}
}

/** Decodes a pull's three lists, leaving out this machine's entries and holds older than a call can run. */
export function decodeView(reply: [string[], string[], string[]], machine: string, nowMs: number): TeamView {
	const view = emptyView();
	for (const [owner, text] of pairs(reply[0])) {
		if (owner === machine) continue;
		for (const [provider, [usd, calls, estimated]] of Object.entries(parse<Totals>(text) ?? {})) {
			const entry = view.others.get(provider) ?? { provider, usd: 0, calls: 0 };
			entry.usd += usd;
			entry.calls += calls;
			if (estimated === 1) entry.estimated = true;
			view.others.set(provider, entry);
		}
	}
	for (const [, text] of pairs(reply[1])) {
		const hold = parse<StoredHold>(text);
		if (hold === undefined || hold.m === machine || nowMs - hold.at > LEDGER_DEFAULTS.holdMs) continue;
		view.othersHeld.set(hold.p, (view.othersHeld.get(hold.p) ?? 0) + hold.usd);
	}
	for (const [field, text] of pairs(reply[2])) {
		const mark = parse<StoredMark>(text);
		if (mark !== undefined) view.marks.set(field, mark);
	}
	return view;
}

/** A machine's spend day as the totals Redis keeps. */
export function totalsOf(day: SpendDay): Totals {
	const totals: Totals = {};
	for (const entry of day.providers) totals[entry.provider] = [entry.usd, entry.calls, entry.estimated ? 1 : 0];
	return totals;
}

/** This machine's day with the other machines' spend added. */
export function teamDay(mine: SpendDay, view: TeamView): SpendDay {
	return addSpend(mine, view.others.values());
}

/** The other machines' settled plus held spend, for one provider or all. */
export function othersUsd(view: TeamView, provider?: string): number {
	let usd = 0;
	for (const entry of view.others.values()) if (provider === undefined || entry.provider === provider) usd += entry.usd;
	for (const [held, price] of view.othersHeld) if (provider === undefined || held === provider) usd += price;
	return usd;
}
