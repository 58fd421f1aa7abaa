// Hedging: when the only running attempt has not finished `hedgeAfterMs` after it started, the next ready step
// starts too. This module owns that timer; the walk owns what happens when it fires.

import type { Clock } from "./types.ts";

/** One shared reason: aborting without one builds a DOMException per call, a hot path per attempt. */
const CANCELLED = Symbol("timer cancelled");

export interface HedgeFired {
	type: "hedge";
	/** The attempt that was too slow. */
	id: number;
}

export interface HedgeTimer {
	/** Resolves when the timer fires; never settles once cancelled (so it simply loses every race). */
	fired: Promise<HedgeFired>;
	cancel(): void;
}

export function startHedgeTimer(clock: Clock, id: number, startedAt: number, hedgeAfterMs: number): HedgeTimer {
	const stop = new AbortController();
	const fired = clock.sleep(Math.max(0, startedAt + hedgeAfterMs - clock.now()), stop.signal).then(
		(): HedgeFired => ({ type: "hedge", id }),
		() => new Promise<never>(() => {}),
	);
	return { fired, cancel: () => stop.abort(CANCELLED) };
}

/** Why a running attempt was aborted by the walk itself, recorded as its reason. */
export const LOSER_REASONS = {
	won: "cancelled: another provider answered first",
	stopped: "cancelled: the chain stopped",
} as const;

export type LoserReason = keyof typeof LOSER_REASONS;
