// The chain around a walk: step timeouts, the overall deadline, cooling providers moved behind healthy ones,
// the errors a walk ends with (cancelled, stopped by policy, all failed), and why it stopped a hedged attempt.

import { WebAccessError } from "../engine/errors.ts";
import type { Capability, Step } from "../engine/request-types.ts";
import type { Attempt } from "../engine/result-types.ts";
import type { Classification } from "../providers/contract.ts";
import type { Health } from "./health.ts";
import type { ProviderBinding } from "./types.ts";

export const WALK_DEFAULTS = { timeoutMs: 60_000, maxAttempts: 6, deadlineCapMs: 300_000 };

export function seconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}

/** The provider's timeout: config, else the type's default, else 60 s. */
export function stepTimeoutMs(binding: Pick<ProviderBinding, "config" | "definition">): number {
	return binding.config.timeoutMs ?? binding.definition.defaults.timeoutMs ?? WALK_DEFAULTS.timeoutMs;
}

/** Sum of the ready steps' timeouts, at most 5 minutes. */
export function overallDeadlineMs(steps: readonly Step[], bindings: ReadonlyMap<string, ProviderBinding>): number {
	let sum = 0;
	for (const step of steps) {
		const found = step.status === "ready" ? bindings.get(step.provider) : undefined;
		if (found !== undefined) sum += stepTimeoutMs(found);
	}
	return Math.min(WALK_DEFAULTS.deadlineCapMs, sum);
}

/** Steps whose provider is cooling down go behind the others, in plan order; none is dropped. */
export function orderSteps(steps: readonly Step[], health: Health, say: (line: string) => void): Step[] {
	const cooling = steps.filter((step) => step.status === "ready" && health.remainingMs(step.provider) > 0);
	if (cooling.length === 0) return [...steps];
	const healthy = steps.filter((step) => !cooling.includes(step));
	if (healthy.some((step) => step.status === "ready")) {
		for (const step of cooling) {
			say(`${step.provider} is cooling down (${seconds(health.remainingMs(step.provider))} left), so it goes last`);
		}
	}
	return [...healthy, ...cooling];
}

/** Why a running attempt was aborted by the walk itself, recorded as its reason. */
export const LOSER_REASONS = {
	won: "cancelled: another provider answered first",
	stopped: "cancelled: the chain stopped",
} as const;

export type LoserReason = keyof typeof LOSER_REASONS;

export function cancelledError(attempts: Attempt[]): WebAccessError {
	return new WebAccessError("cancelled by the caller", { kind: "cancelled", code: "cancelled", attempts });
}

export interface ChainEnd {
	capability: Capability;
	attempts: Attempt[];
	/** Set when decide() stopped the chain on this failure. */
	policyStop?: { provider: string; failure: Classification };
	/** Set when a bound, not the end of the chain, ended the walk. */
	bound?: { kind: "maxAttempts"; maxAttempts: number } | { kind: "deadline"; deadlineMs: number };
}

/** `no search provider answered: exa (rate-limit: 429), deepseek (no credentials)` plus why the walk ended early. */
export function chainError(end: ChainEnd): WebAccessError {
	const { attempts } = end;
	const tried =
		attempts.length === 0
			? "no provider in the chain"
			: attempts.map((a) => `${a.provider} (${a.reason ?? a.outcome})`).join(", ");
	const head = `no ${end.capability} provider answered: ${tried}`;
	if (end.policyStop !== undefined) {
		const { provider, failure } = end.policyStop;
		return new WebAccessError(
			`${head}; stopped after ${provider} because the policy does not fall back on ${failure.errorClass}`,
			{ kind: "chain", code: "stopped", attempts },
		);
	}
	const bound =
		end.bound?.kind === "maxAttempts"
			? `; stopped after ${end.bound.maxAttempts} attempts (maxAttempts)`
			: // An attempt the deadline ended already says so in its reason.
				end.bound?.kind === "deadline" && !attempts.some((a) => /overall deadline/.test(a.reason ?? ""))
				? `; overall deadline of ${seconds(end.bound.deadlineMs)} reached`
				: "";
	return new WebAccessError(`${head}${bound}`, { kind: "chain", code: "all-failed", attempts });
}
