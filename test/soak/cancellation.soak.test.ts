// Cancellation, soak variant (`npm run soak`): 4 lanes × 100 random cases per SOAK round, with fresh seeds each run
// (printed, so a failure can be replayed with the fast variant's runLane and that seed).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANDING_EXAMPLES, type Lane, observeRequests, runLane, startLane } from "../helpers/cancel-lane.ts";
import { activeResources, leftoverResources } from "../helpers/fault-server.ts";

const rounds = Math.max(1, Number.parseInt(process.env.SOAK ?? "", 10) || 1);
const LANES = 4;
const RUNS_PER_LANE = 100 * rounds;

describe.skipIf(!process.env.SOAK)("cancellation soak", () => {
	let lanes: Lane[] = [];
	let stopObserving: () => void;
	const unhandled: unknown[] = [];
	const onUnhandled = (reason: unknown) => unhandled.push(reason);

	beforeAll(async () => {
		process.on("unhandledRejection", onUnhandled);
		stopObserving = observeRequests();
		lanes = await Promise.all(Array.from({ length: LANES }, startLane));
	});

	afterAll(async () => {
		stopObserving();
		process.off("unhandledRejection", onUnhandled);
		await Promise.all(lanes.map((lane) => lane.close()));
	});

	it(`${LANES} lanes × ${RUNS_PER_LANE} random aborts: nothing in flight, nothing started after, nothing left`, async () => {
		const seeds = lanes.map(() => Math.floor(Math.random() * 2 ** 31));
		console.log(`cancellation soak seeds: ${seeds.join(", ")}`);
		const baseline = activeResources();
		await Promise.all(lanes.map((lane, i) => runLane(lane, RUNS_PER_LANE, seeds[i]!, i === 0 ? LANDING_EXAMPLES : [])));
		expect(unhandled).toEqual([]);
		for (const lane of lanes) for (const server of Object.values(lane.servers)) server.dropIdle();
		expect(await leftoverResources(baseline)).toEqual({});
		const landed = new Map<string, number>();
		for (const lane of lanes) for (const [where, n] of lane.landed) landed.set(where, (landed.get(where) ?? 0) + n);
		const cases = lanes.reduce((sum, lane) => sum + lane.cases, 0);
		console.log(`cancellation soak: ${cases} cases; ${[...landed].map(([where, n]) => `${where} ${n}`).join(", ")}`);
	}, 1_200_000);
});
