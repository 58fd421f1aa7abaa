// A walk's bookkeeping around each attempt: whether a step may start (not tried yet in this call, ready, its
// escalation's condition met, configured, under its budgets), and what an attempt's end costs, which settles or
// releases the price its reservation (executor/reserve.ts) held in the state store.

import type { Policy } from "../engine/config-types.ts";
import type { Step } from "../engine/request-types.ts";
import type { Attempt } from "../engine/result-types.ts";
import type { AttemptEnd } from "./attempt-types.ts";
import { budgetSkip, inFlightUsd } from "./spend.ts";
import type { StateStore } from "./store/contract.ts";
import type { ProviderBinding } from "./types.ts";
import type { Finished, WalkEnv } from "./walk-types.ts";

/** The walk as the gate reads it (walk.ts's Walk). */
export interface GateView {
	readonly env: WalkEnv;
	readonly policy: Policy;
	readonly attempts: Attempt[];
	readonly launched: number;
	readonly failureCodes: string[] | undefined;
	readonly callUsd: number;
	readonly running: ReadonlyArray<Finished>;
}

/**
 * The step's binding when it may start, else why it is skipped; `undefined` for a provider this call already came
 * to, which is passed over without a record (never the same provider twice in one call).
 */
export function admit(walk: GateView, step: Step): ProviderBinding | { skip: string } | undefined {
	if (walk.attempts.some((attempt) => attempt.provider === step.provider)) return undefined;
	if (step.status === "skipped") return { skip: step.reason ?? "skipped" };
	// An escalation step (the browser after direct) runs first, or after a failure it is for, never otherwise.
	const { onlyAfter } = step;
	if (onlyAfter && walk.launched > 0 && !onlyAfter.codes.some((code) => walk.failureCodes?.includes(code))) {
		return { skip: `only when ${onlyAfter.when}` };
	}
	const binding = walk.env.bindings.get(step.provider);
	if (binding === undefined) return { skip: "not configured" };
	// No budget of the provider's or the policy's: nothing to check, and no check object to build for it.
	if (binding.config.budget === undefined && walk.policy.budget === undefined) return binding;
	const over = budgetSkip(
		{
			provider: step.provider,
			cost: binding.definition.cost,
			own: binding.config.budget,
			policy: walk.policy.budget,
			callUsd: walk.callUsd,
			inFlightUsd: inFlightUsd(walk.running),
		},
		walk.env.spend,
	);
	return over === undefined ? binding : { skip: over };
}

/** A price the attempt held in the state store is held no longer. */
export function releaseHeld(store: StateStore, run: Finished): void {
	const id = run.reservation;
	if (id === undefined) return;
	run.reservation = undefined;
	store.release(id);
}

/**
 * What the attempt cost, in USD. Every request sent is charged: an answer for what it cost, a request abandoned in
 * flight (a hedge's stopped loser, a timeout) at its declared price, since the backend bills it whether or not its
 * answer is read. The charge settles the attempt's reservation in the state store; one that cost nothing releases it.
 */
export function chargeAttempt<R>(env: WalkEnv, run: Finished, end: AttemptEnd<R>): number {
	const { cost } = run.binding.definition;
	const id = run.reservation;
	run.reservation = undefined;
	let charged: { usd: number; estimated: boolean } | undefined;
	if (end.status === "ok") charged = env.spend.charge(run.provider, cost, end.value);
	else if (end.status !== "skipped" && end.abandoned) charged = env.spend.charge(run.provider, cost, undefined);
	if (charged === undefined) {
		if (id !== undefined) env.store.release(id);
		return 0;
	}
	if (charged.usd > 0 || id !== undefined) env.store.settle(run.provider, charged.usd, charged.estimated, id);
	return charged.usd;
}
