// Concurrency (fast variant): 200 calls at once through the real executor against healthy, slow, stalling and
// failing backends with 2–3 key pools. Every call settles, results are coherent, cooldowns and key states match
// what the backends did, exhausted keys are never handed out again, and memory and resources return to baseline.
// The soak variant (test/soak/concurrency.soak.test.ts) runs thousands of calls.

import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { concurrencyRound, type Scenario, startScenario } from "./helpers/concurrency-scenario.ts";

const CALLS = 200;
/** Liveness bound per call: the longest chain's step timeouts plus same-key retry pauses, with room for a busy CPU. */
const SETTLE_WITHIN_MS = 45_000;

let scenario: Scenario;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
	process.on("unhandledRejection", onUnhandled);
	const random = fc.sample(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { numRuns: 5000, seed: 42 });
	let n = 0;
	scenario = await startScenario(() => random[n++ % random.length]!);
});

afterAll(async () => {
	process.off("unhandledRejection", onUnhandled);
	await scenario.close();
});

describe("concurrency: 200 calls at once through the real executor", () => {
	it("settles every call coherently, keeps health and key state consistent, and returns to baseline", async () => {
		const summary = await concurrencyRound(scenario, {
			calls: CALLS,
			inFlight: CALLS,
			settleWithinMs: SETTLE_WITHIN_MS,
			unhandled,
		});
		console.log(`concurrency: ${summary}`);
	}, 120_000);
});
