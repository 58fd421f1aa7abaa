// A paid attempt's price held against the day budgets in the state store before it is sent, so processes racing
// for the same budget stop together (executor/store/ledger.ts decides); settled with what the answer cost.

import type { Policy } from "../engine/config-types.ts";
import type { StateStore } from "./store/contract.ts";
import type { ProviderBinding } from "./types.ts";

/** No reservation is needed: shared, never changed. */
const NONE: Readonly<{ id?: string; refused?: string }> = Object.freeze({});

/** The reservation's id, undefined when none is needed (free, or no day budget), or why the step is skipped. */
export function reserveAttempt(
	store: StateStore,
	provider: string,
	binding: ProviderBinding,
	budget: Policy["budget"],
): Readonly<{ id?: string; refused?: string }> {
	const { cost } = binding.definition;
	if (cost === undefined || cost.basis === "free") return NONE;
	const providerDayUsd = binding.config.budget?.usdPerDay;
	const totalDayUsd = budget?.usdPerDay;
	if (providerDayUsd === undefined && totalDayUsd === undefined) return NONE;
	const reservation = store.reserve({
		provider,
		usd: cost.usd ?? 0,
		...(providerDayUsd === undefined ? {} : { providerDayUsd }),
		...(totalDayUsd === undefined ? {} : { totalDayUsd }),
	});
	return reservation.granted ? { id: reservation.id } : { refused: reservation.reason };
}
