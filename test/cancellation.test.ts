// Cancellation (fast variant): one call through the real stack (an exa key pool, an openai SSE stream, searxng) is
// aborted at a random moment, fast-check choosing the moment and how each backend behaves (fails, stalls, streams
// slowly, answers). Whatever was running, no request stays open at any server, no request starts after the abort,
// the call ends as cancelled, and nothing is left over. The soak variant runs many more cases.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANDING_EXAMPLES, type Lane, observeRequests, runLane, startLane } from "./helpers/cancel-lane.ts";
import { activeResources, leftoverResources } from "./helpers/fault-server.ts";

/** Independent lanes run side by side (each its own servers), so the cases fit the time budget. */
const LANES = 3;
const RUNS_PER_LANE = 12;

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

describe("cancellation at random points", () => {
	it("leaves no request in flight, starts nothing after the abort, and ends the call as cancelled", async () => {
		const baseline = activeResources();
		await Promise.all(lanes.map((lane, i) => runLane(lane, RUNS_PER_LANE, 1000 + i, i === 0 ? LANDING_EXAMPLES : [])));
		expect(unhandled).toEqual([]);
		for (const lane of lanes) for (const server of Object.values(lane.servers)) server.dropIdle();
		expect(await leftoverResources(baseline)).toEqual({});

		const landed = new Map<string, number>();
		for (const lane of lanes) for (const [where, n] of lane.landed) landed.set(where, (landed.get(where) ?? 0) + n);
		const cases = lanes.reduce((sum, lane) => sum + lane.cases, 0);
		const summary = [...landed].map(([where, n]) => `${where} ${n}`).join(", ");
		console.log(`cancellation: ${cases} cases; ${summary}`);
		// The random moments must reach the interesting places, or the property proves little.
		expect(landed.get("while a ran") ?? 0).toBeGreaterThan(0);
		expect(landed.get("while b ran") ?? 0).toBeGreaterThan(0);
		expect(landed.get("while c ran") ?? 0).toBeGreaterThan(0);
	}, 120_000);
});
