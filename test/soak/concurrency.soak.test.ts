// Concurrency, soak variant (`npm run soak`): 2,000 calls per round, 200 in flight at a time, through the real
// executor; SOAK=<n> runs n rounds on the same backends, so state or memory that builds up across rounds shows.
// Client and backends share one process, so the CPU is the queue: step timeouts are longer than in the fast variant
// (with 500 in flight on a loaded 2-core machine, healthy answers took over 10 s and hit 5 s timeouts).

import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { concurrencyRound, type Scenario, startScenario } from "../helpers/concurrency-scenario.ts";

const rounds = Math.max(1, Number.parseInt(process.env.SOAK ?? "", 10) || 1);
const CALLS = 2000;
const IN_FLIGHT = 200;
const SETTLE_WITHIN_MS = 120_000;

describe.skipIf(!process.env.SOAK)("concurrency soak", () => {
	let scenario: Scenario;
	const unhandled: unknown[] = [];
	const onUnhandled = (reason: unknown) => unhandled.push(reason);

	beforeAll(async () => {
		process.on("unhandledRejection", onUnhandled);
		const random = fc.sample(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
			numRuns: 20_000,
			seed: 7,
		});
		let n = 0;
		scenario = await startScenario(() => random[n++ % random.length]!, { timeoutMs: 20_000, braveTimeoutMs: 5000 });
	});

	afterAll(async () => {
		process.off("unhandledRejection", onUnhandled);
		await scenario.close();
	});

	for (let round = 1; round <= rounds; round++) {
		it(`round ${round} of ${rounds}: ${CALLS} calls settle coherently, state stays consistent, nothing builds up`, async () => {
			const summary = await concurrencyRound(scenario, {
				calls: CALLS,
				inFlight: IN_FLIGHT,
				settleWithinMs: SETTLE_WITHIN_MS,
				unhandled,
			});
			console.log(`concurrency soak round ${round}: ${summary}`);
		}, 300_000);
	}
});
