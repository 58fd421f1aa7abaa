// One paid call's state-store operations as the executor runs them (executor/reserve.ts, walk.ts): take in others'
// records, reserve against a day budget when one applies, settle. The store scenarios time it (store.ts, store-redis.ts).

import type { StateStore } from "../executor/store/contract.ts";

export function paidCall(store: StateStore, budget: boolean): void {
	store.sync();
	store.today();
	const reservation = budget ? store.reserve({ provider: "exa", usd: 0.005, totalDayUsd: 1e9 }) : undefined;
	store.settle("exa", 0.005, false, reservation?.granted ? reservation.id : undefined);
}
