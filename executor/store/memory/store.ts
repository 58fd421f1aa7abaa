// The memory store: the ledger of this process only. The executor's default when nothing is shared (tests, and
// `state: { persist: false }`); also what the local store falls back to when its files cannot be used.

import { utcDay } from "../../spend.ts";
import type { StateStore, StoreHealth } from "../contract.ts";
import { createLedger, type Ledger, type LedgerRecord } from "../ledger.ts";

export function createMemoryStore(now: () => number = Date.now, health?: () => StoreHealth): StateStore {
	let day = utcDay(now());
	let ledger: Ledger = createLedger(day);
	let next = 0;
	const apply = (record: LedgerRecord) => {
		const current = utcDay(record.at);
		if (current !== day) {
			day = current;
			ledger = createLedger(day);
		}
		return ledger.apply(record);
	};
	return {
		// This process's own marks are already in the executor's view.
		sync: () => ({ cooldowns: [], keys: [] }),
		reserve(request) {
			const id = `m${++next}`;
			const record: LedgerRecord = { t: "r", id, p: request.provider, usd: request.usd, at: now() };
			if (request.providerDayUsd !== undefined) record.own = request.providerDayUsd;
			if (request.totalDayUsd !== undefined) record.all = request.totalDayUsd;
			const verdict = apply(record);
			return verdict === true ? { granted: true, id } : { granted: false, reason: verdict ?? "not reserved" };
		},
		settle(provider, usd, estimated, id) {
			// Fields set one by one, not spread from objects made for the purpose: every paid answer settles one.
			const record: LedgerRecord = { t: "s", p: provider, usd, at: now() };
			if (id !== undefined) record.id = id;
			if (estimated) record.est = 1;
			apply(record);
		},
		release(id) {
			apply({ t: "x", id, at: now() });
		},
		putCooldown() {},
		putKey() {},
		today() {
			apply({ t: "x", id: "", at: now() });
			return ledger.today();
		},
		health: health ?? (() => ({ kind: "memory", state: "ok" })),
		flush() {},
		close() {},
	};
}
