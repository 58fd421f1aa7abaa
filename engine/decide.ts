// The fallback decision: given how one step ended and the policy, accept the answer, move on, or stop.
// Pure and total so the executor only does I/O and bookkeeping around it (style.md §5).

import type { Policy } from "./config-types.ts";
import type { ErrorClass } from "./error-classes.ts";

/** How one step of a chain ended, as far as the decision needs to know. */
export type StepOutcome =
	| { outcome: "ok" }
	/** `restricted`: the search had `domains`, so filtering (ours or the backend's) may explain the emptiness. */
	| { outcome: "empty"; restricted: boolean }
	| { outcome: "error"; errorClass: ErrorClass };

export type Decision = "accept" | "next" | "stop";

export const DECIDE_DEFAULTS = { onEmpty: "next-if-filtered" } as const satisfies Pick<Policy, "onEmpty">;

/**
 * Examples: ok → accept; empty + onEmpty "stop" → accept (an empty answer is an answer);
 * error cancelled → stop; error server with fallbackOn ["timeout"] → stop; error server by default → next.
 */
export function decide(step: StepOutcome, policy: Policy): Decision {
	switch (step.outcome) {
		case "ok":
			return "accept";
		case "empty": {
			const onEmpty = policy.onEmpty ?? DECIDE_DEFAULTS.onEmpty;
			if (onEmpty === "next") return "next";
			if (onEmpty === "stop") return "accept";
			return step.restricted ? "next" : "accept";
		}
		case "error":
			// Cancellation ends the whole call whatever the policy says: no further provider is contacted.
			if (step.errorClass === "cancelled") return "stop";
			if (policy.fallbackOn !== undefined) return policy.fallbackOn.includes(step.errorClass) ? "next" : "stop";
			return "next";
	}
}
