// Hedging and cancellation: a slow attempt gets a parallel one after hedgeAfterMs, the first acceptable answer
// wins and the loser is aborted; the caller's abort stops everything and no further provider is contacted.

import { describe, expect, it } from "vitest";
import { WebAccessError } from "../engine/errors.ts";
import { createFakeClock } from "./helpers/fake-clock.ts";
import { answerAfter, createWorld, failure, hang, keys, results, searchPlan } from "./helpers/fake-providers.ts";

function setup() {
	const clock = createFakeClock();
	const world = createWorld(clock);
	return { clock, world };
}

describe("hedging", () => {
	it("starts the next step after hedgeAfterMs, keeps the first answer and aborts the loser", async () => {
		const { clock, world } = setup();
		world.add("a", (_r, call) => answerAfter(clock, call, 5000, results(1, "a.example")));
		world.add("b", (_r, call) => answerAfter(clock, call, 500, results(1, "b.example")));
		world.add("c", () => results(1));
		const executor = world.executor();
		const lines: string[] = [];
		const start = clock.now();
		const result = await clock.run(
			executor.search(searchPlan(["a", "b", "c"], { hedgeAfterMs: 1000 }), { onProgress: (l) => lines.push(l) }),
		);
		expect(result.provider).toBe("b");
		expect(world.callsOf("b")[0]?.at).toBe(start + 1000);
		expect(clock.now() - start).toBe(1500);
		expect(world.callsOf("a")[0]?.signal.aborted).toBe(true);
		expect(world.callsOf("c")).toHaveLength(0);
		expect(result.attempts).toEqual([
			{ provider: "a", outcome: "error", reason: "cancelled: another provider answered first", latencyMs: 1500 },
			{ provider: "b", outcome: "ok", latencyMs: 500 },
		]);
		expect(lines).toContain("a has not answered after 1 s; also trying b");
		// Losing a race says nothing about a provider's health.
		expect(executor.snapshot().cooldowns).toEqual([]);
	});

	it("does not hedge when the first answer comes in time", async () => {
		const { clock, world } = setup();
		world.add("a", (_r, call) => answerAfter(clock, call, 800, results(1)));
		world.add("b", () => results(1));
		const result = await clock.run(world.executor().search(searchPlan(["a", "b"], { hedgeAfterMs: 1000 })));
		expect(result.provider).toBe("a");
		expect(world.callsOf("b")).toHaveLength(0);
	});

	it("keeps waiting for the slow attempt when the hedge fails, and wins with it", async () => {
		const { clock, world } = setup();
		world.add("a", (_r, call) => answerAfter(clock, call, 3000, results(1, "a.example")));
		world.add("b", (_r, call) => answerAfter(clock, call, 100, null).then(() => Promise.reject(failure("server"))));
		const result = await clock.run(world.executor().search(searchPlan(["a", "b"], { hedgeAfterMs: 1000 })));
		expect(result.provider).toBe("a");
		expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
			["a", "ok"],
			["b", "error"],
		]);
	});

	it("does not take a hedge's empty answer to a restricted search as the winner", async () => {
		const { clock, world } = setup();
		world.add("a", (_r, call) => answerAfter(clock, call, 3000, results(1, "github.com")));
		world.add("b", (_r, call) => answerAfter(clock, call, 100, results(0)));
		const plan = searchPlan(["a", "b"], { hedgeAfterMs: 1000 }, { domains: ["github.com"] });
		const result = await clock.run(world.executor().search(plan));
		expect(result.provider).toBe("a");
		expect(result.results).toHaveLength(1);
	});
});

describe("cancellation", () => {
	async function cancelled(promise: Promise<unknown>): Promise<WebAccessError> {
		const error = await promise.then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(WebAccessError);
		expect((error as WebAccessError).kind).toBe("cancelled");
		return error as WebAccessError;
	}

	it("contacts no provider when the signal is already aborted", async () => {
		const { clock, world } = setup();
		world.add("a", () => results(1));
		const controller = new AbortController();
		controller.abort();
		await cancelled(clock.run(world.executor().search(searchPlan(["a"]), { signal: controller.signal })));
		expect(world.calls).toHaveLength(0);
	});

	it("aborts the attempt in flight and contacts no further provider", async () => {
		const { clock, world } = setup();
		world.add("a", (_r, call) => answerAfter(clock, call, 10_000, results(1)));
		world.add("b", () => results(1));
		const executor = world.executor();
		const controller = new AbortController();
		const pending = executor.search(searchPlan(["a", "b"]), { signal: controller.signal });
		await clock.advance(2000);
		controller.abort();
		const error = await cancelled(clock.run(pending));
		expect(world.callsOf("a")[0]?.signal.aborted).toBe(true);
		expect(world.callsOf("b")).toHaveLength(0);
		expect(error.attempts).toEqual([
			{ provider: "a", outcome: "error", reason: "cancelled: by the caller", latencyMs: 2000 },
		]);
		expect(executor.snapshot().cooldowns).toEqual([]);
	});

	it("returns at once even when the provider ignores its signal", async () => {
		const { clock, world } = setup();
		world.add("a", () => hang());
		world.add("b", () => results(1));
		const controller = new AbortController();
		const pending = world.executor().search(searchPlan(["a", "b"]), { signal: controller.signal });
		await clock.advance(10);
		controller.abort();
		// No time passes: the walk stops waiting for a provider that ignores its signal.
		await cancelled(pending);
		expect(world.callsOf("b")).toHaveLength(0);
	});

	it("stops key rotation when cancelled during the retry pause", async () => {
		const { clock, world } = setup();
		world.add(
			"a",
			() => {
				throw failure("server", { keyVerdict: "retry-same-key" });
			},
			{ keys: keys("key1", "key2") },
		);
		const controller = new AbortController();
		const pending = world.executor().search(searchPlan(["a"]), { signal: controller.signal });
		await clock.advance(100);
		controller.abort();
		await cancelled(clock.run(pending));
		expect(world.calls).toHaveLength(1);
	});

	it("aborts both racers of a hedge", async () => {
		const { clock, world } = setup();
		world.add("a", (_r, call) => answerAfter(clock, call, 10_000, results(1)));
		world.add("b", (_r, call) => answerAfter(clock, call, 10_000, results(1)));
		world.add("c", () => results(1));
		const controller = new AbortController();
		const pending = world
			.executor()
			.search(searchPlan(["a", "b", "c"], { hedgeAfterMs: 1000 }), { signal: controller.signal });
		await clock.advance(1500);
		controller.abort();
		const error = await cancelled(clock.run(pending));
		expect(world.calls.map((c) => [c.provider, c.signal.aborted])).toEqual([
			["a", true],
			["b", true],
		]);
		expect(error.attempts?.map((a) => a.reason)).toEqual(["cancelled: by the caller", "cancelled: by the caller"]);
	});
});
