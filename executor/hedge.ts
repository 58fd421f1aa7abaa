// Hedging: when the only running attempt has not finished `hedgeAfterMs` after it started, the next ready step
// starts too. This module owns that timer; the walk owns what happens when it fires.

import type { Clock } from "./types.ts";

/** One shared reason: aborting without one builds a DOMException per call, a hot path per attempt. */
const CANCELLED = Symbol("timer cancelled");

export interface HedgeTimer {
	/** The attempt that is timed. */
	id: number;
	/** After this, `fire` is not called. */
	cancel(): void;
}

/** Calls `fire` when attempt `id` has run `hedgeAfterMs` since `startedAt`, unless cancelled first. */
export function startHedgeTimer(
	clock: Clock,
	id: number,
	startedAt: number,
	hedgeAfterMs: number,
	fire: (id: number) => void,
): HedgeTimer {
	const stop = new AbortController();
	let live = true;
	clock.sleep(Math.max(0, startedAt + hedgeAfterMs - clock.now()), stop.signal).then(
		() => {
			if (live) fire(id);
		},
		() => {},
	);
	return {
		id,
		cancel: () => {
			live = false;
			stop.abort(CANCELLED);
		},
	};
}

/** Why a running attempt was aborted by the walk itself, recorded as its reason. */
export const LOSER_REASONS = {
	won: "cancelled: another provider answered first",
	stopped: "cancelled: the chain stopped",
} as const;

export type LoserReason = keyof typeof LOSER_REASONS;
