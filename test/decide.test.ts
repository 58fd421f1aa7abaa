// decide(): every error class under the default policy and a narrowed fallbackOn, every onEmpty mode, and
// properties against a slow oracle written from the wording.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Policy } from "../engine/config-types.ts";
import { type Decision, decide, type StepOutcome } from "../engine/decide.ts";
import type { ErrorClass } from "../engine/error-classes.ts";
import { ERROR_CLASSES } from "../engine/error-classes.ts";

/** Every error class: the one list in engine/errors.ts. */
const CLASSES: ErrorClass[] = [...ERROR_CLASSES];

describe("decide: errors", () => {
	const table: Array<{ description: string; errorClass: ErrorClass; policy: Policy; expected: Decision }> = [
		...CLASSES.map((errorClass) => ({
			description: `default policy: ${errorClass}`,
			errorClass,
			policy: {},
			expected: (errorClass === "cancelled" ? "stop" : "next") as Decision,
		})),
		...CLASSES.map((errorClass) => ({
			description: `fallbackOn [timeout, rate-limit]: ${errorClass}`,
			errorClass,
			policy: { fallbackOn: ["timeout", "rate-limit"] } as Policy,
			expected: (errorClass === "timeout" || errorClass === "rate-limit" ? "next" : "stop") as Decision,
		})),
		{
			description: "fallbackOn [] stops on everything",
			errorClass: "server",
			policy: { fallbackOn: [] },
			expected: "stop",
		},
		{
			description: "fallbackOn naming cancelled still stops on cancellation",
			errorClass: "cancelled",
			policy: { fallbackOn: ["cancelled"] },
			expected: "stop",
		},
	];
	it.each(table)("$description → $expected", ({ errorClass, policy, expected }) => {
		expect(decide({ outcome: "error", errorClass }, policy)).toBe(expected);
	});
});

describe("decide: ok and empty", () => {
	const table: Array<{ description: string; step: StepOutcome; policy: Policy; expected: Decision }> = [
		{ description: "ok is accepted", step: { outcome: "ok" }, policy: {}, expected: "accept" },
		{
			description: "ok is accepted even with onEmpty next",
			step: { outcome: "ok" },
			policy: { onEmpty: "next" },
			expected: "accept",
		},
		{
			description: "default: empty restricted search moves on",
			step: { outcome: "empty", restricted: true },
			policy: {},
			expected: "next",
		},
		{
			description: "default: empty open search is the answer",
			step: { outcome: "empty", restricted: false },
			policy: {},
			expected: "accept",
		},
		{
			description: "next: empty open search moves on",
			step: { outcome: "empty", restricted: false },
			policy: { onEmpty: "next" },
			expected: "next",
		},
		{
			description: "stop: empty restricted search is the answer",
			step: { outcome: "empty", restricted: true },
			policy: { onEmpty: "stop" },
			expected: "accept",
		},
		{
			description: "next-if-filtered spelled out: restricted moves on",
			step: { outcome: "empty", restricted: true },
			policy: { onEmpty: "next-if-filtered" },
			expected: "next",
		},
	];
	it.each(table)("$description", ({ step, policy, expected }) => {
		expect(decide(step, policy)).toBe(expected);
	});
});

/** The sentences, one by one. */
function oracle(step: StepOutcome, policy: Policy): Decision {
	if (step.outcome === "ok") return "accept";
	if (step.outcome === "empty") {
		const mode = policy.onEmpty ?? "next-if-filtered";
		if (mode === "stop") return "accept";
		if (mode === "next") return "next";
		return step.restricted ? "next" : "accept";
	}
	if (step.errorClass === "cancelled") return "stop";
	const allowed = policy.fallbackOn ?? CLASSES.filter((c) => c !== "cancelled");
	return allowed.includes(step.errorClass) ? "next" : "stop";
}

const stepArb: fc.Arbitrary<StepOutcome> = fc.oneof(
	fc.constant<StepOutcome>({ outcome: "ok" }),
	fc.boolean().map((restricted): StepOutcome => ({ outcome: "empty", restricted })),
	fc.constantFrom(...CLASSES).map((errorClass): StepOutcome => ({ outcome: "error", errorClass })),
);
const policyArb: fc.Arbitrary<Policy> = fc.record(
	{
		onEmpty: fc.constantFrom<Policy["onEmpty"]>("next", "stop", "next-if-filtered"),
		fallbackOn: fc.subarray(CLASSES),
		maxAttempts: fc.integer({ min: 1, max: 10 }),
	},
	{ requiredKeys: [] },
);

describe("decide: properties", () => {
	it("agrees with the oracle on every outcome and policy", () => {
		fc.assert(fc.property(stepArb, policyArb, (step, policy) => decide(step, policy) === oracle(step, policy)));
	});

	it("never moves on after a cancellation, whatever the policy", () => {
		fc.assert(
			fc.property(policyArb, (policy) => decide({ outcome: "error", errorClass: "cancelled" }, policy) === "stop"),
		);
	});

	it("never accepts an error", () => {
		fc.assert(
			fc.property(fc.constantFrom(...CLASSES), policyArb, (errorClass, policy) => {
				return decide({ outcome: "error", errorClass }, policy) !== "accept";
			}),
		);
	});
});
