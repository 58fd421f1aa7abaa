// Provider cooldowns through the executor: cooling providers go last (not away), expire, double per failed probe
// up to the cap, honour a long Retry-After, count concurrent failures once, and clear on success.

import { describe, expect, it } from "vitest";
import type { Policy } from "../engine/config-types.ts";
import type { ErrorClass } from "../engine/error-classes.ts";
import { createFakeClock } from "./helpers/fake-clock.ts";
import { answerAfter, createWorld, failure, results, searchPlan } from "./helpers/fake-providers.ts";

const NO_CACHE: Policy = { cacheTtlMs: 0 };

function setup() {
	const clock = createFakeClock();
	const world = createWorld(clock);
	return { clock, world };
}

/** Cooldown left for `provider` in the executor's snapshot. */
function left(executor: ReturnType<ReturnType<typeof createWorld>["executor"]>, provider: string, now: number) {
	const entry = executor.snapshot().cooldowns.find((c) => c.provider === provider);
	return entry === undefined ? 0 : Math.max(0, entry.untilMs - now);
}

describe("cooldowns", () => {
	it("puts a failed provider behind healthy ones on the next call, and first again after expiry", async () => {
		const { clock, world } = setup();
		let aFails = true;
		world.add("a", () => {
			if (aFails) throw failure("server");
			return results(1, "a.example");
		});
		world.add("b", () => results(1, "b.example"));
		const executor = world.executor();
		const plan = searchPlan(["a", "b"], NO_CACHE);
		await clock.run(executor.search(plan));
		expect(world.calls.map((c) => c.provider)).toEqual(["a", "b"]);

		const lines: string[] = [];
		await clock.run(executor.search(plan, { onProgress: (l) => lines.push(l) }));
		expect(world.calls.map((c) => c.provider)).toEqual(["a", "b", "b"]);
		// The progress line names the provider that runs, after why the cooling one waits.
		expect(lines).toEqual(["a is cooling down (60 s left), so it goes last; trying b"]);

		aFails = false;
		await clock.advance(60_000);
		const result = await clock.run(executor.search(plan));
		expect(result.provider).toBe("a");
		expect(world.calls.map((c) => c.provider)).toEqual(["a", "b", "b", "a"]);
	});

	it("never cools a per-site provider (direct): one dead site says nothing about the next", async () => {
		const { clock, world } = setup();
		world.add(
			"direct",
			() => {
				throw failure("transport");
			},
			{ perSite: true },
		);
		world.add("b", () => results(1, "b.example"));
		const executor = world.executor();
		await clock.run(executor.search(searchPlan(["direct", "b"], NO_CACHE)));
		expect(executor.snapshot().cooldowns).toEqual([]);
		await clock.run(executor.search(searchPlan(["direct", "b"], NO_CACHE)));
		expect(world.calls.map((c) => c.provider)).toEqual(["direct", "b", "direct", "b"]);
	});

	it("still tries cooling providers, in plan order, when every step is cooling", async () => {
		const { clock, world } = setup();
		world.add("a", () => {
			throw failure("transport");
		});
		world.add("b", () => {
			throw failure("timeout");
		});
		const executor = world.executor();
		const plan = searchPlan(["a", "b"], NO_CACHE);
		await clock.run(executor.search(plan)).catch(() => {});
		await clock.run(executor.search(plan)).catch(() => {});
		expect(world.calls.map((c) => c.provider)).toEqual(["a", "b", "a", "b"]);
	});

	it("doubles the cooldown per consecutive failed probe, up to 10 minutes", async () => {
		const { clock, world } = setup();
		world.add("a", () => {
			throw failure("server");
		});
		const executor = world.executor();
		const seen: number[] = [];
		for (let i = 0; i < 6; i++) {
			await clock.run(executor.search(searchPlan(["a"], NO_CACHE))).catch(() => {});
			const ms = left(executor, "a", clock.now());
			seen.push(ms);
			await clock.advance(ms);
		}
		expect(seen).toEqual([60_000, 120_000, 240_000, 480_000, 600_000, 600_000]);
	});

	it.each([
		{ retryAfterMs: 30 * 60_000, expected: 30 * 60_000 },
		{ retryAfterMs: 5 * 3_600_000, expected: 3_600_000 },
		{ retryAfterMs: 10_000, expected: 60_000 },
	])("honours a Retry-After of $retryAfterMs ms as $expected ms", async ({ retryAfterMs, expected }) => {
		const { clock, world } = setup();
		world.add("a", () => {
			throw failure("rate-limit", { retryAfterMs });
		});
		const executor = world.executor();
		await clock.run(executor.search(searchPlan(["a"], NO_CACHE))).catch(() => {});
		expect(left(executor, "a", clock.now())).toBe(expected);
	});

	it("counts failures of concurrent calls during one cooldown once", async () => {
		const { clock, world } = setup();
		world.add("a", (_r, call, n) =>
			answerAfter(clock, call, 100 * (n + 1), null).then(() => Promise.reject(failure("server"))),
		);
		const executor = world.executor();
		const calls = ["q1", "q2", "q3"].map((query) =>
			executor.search(searchPlan(["a"], NO_CACHE, { query })).catch(() => {}),
		);
		await clock.run(Promise.all(calls));
		expect(executor.snapshot().cooldowns).toMatchObject([{ provider: "a", failures: 1 }]);
		// The first failure at +100 ms started it; the ones at +200 and +300 ms did not extend it.
		expect(left(executor, "a", clock.now())).toBe(60_000 - 200);

		await clock.advance(60_000);
		await clock.run(executor.search(searchPlan(["a"], NO_CACHE, { query: "q4" }))).catch(() => {});
		expect(left(executor, "a", clock.now())).toBe(120_000);
	});

	it.each<ErrorClass>(["bad-request", "parse"])("does not cool a provider for %s", async (errorClass) => {
		const { clock, world } = setup();
		world.add("a", () => {
			throw failure(errorClass);
		});
		const executor = world.executor();
		await clock.run(executor.search(searchPlan(["a"], NO_CACHE))).catch(() => {});
		expect(executor.snapshot().cooldowns).toEqual([]);
	});

	it("does not cool a provider for an empty answer", async () => {
		const { clock, world } = setup();
		world.add("a", () => results(0));
		const executor = world.executor();
		await clock.run(executor.search(searchPlan(["a"], NO_CACHE, { domains: ["github.com"] })));
		expect(executor.snapshot().cooldowns).toEqual([]);
	});

	it("clears the cooldown on success, so the next failure starts at 60 s again", async () => {
		const { clock, world } = setup();
		const script = ["fail", "fail", "ok", "fail"];
		world.add("a", (_r, _c, n) => {
			if (script[n] === "fail") throw failure("server");
			return results(1);
		});
		const executor = world.executor();
		for (let i = 0; i < 4; i++) {
			await clock.run(executor.search(searchPlan(["a"], NO_CACHE))).catch(() => {});
			if (i === 2) expect(executor.snapshot().cooldowns).toEqual([]);
			await clock.advance(left(executor, "a", clock.now()));
		}
		expect(world.calls).toHaveLength(4);
		await clock.flush();
		expect(executor.snapshot().cooldowns).toMatchObject([{ provider: "a", failures: 1 }]);
	});

	it("policy.cooldown false neither records cooldowns nor reorders", async () => {
		const { clock, world } = setup();
		world.add("a", () => {
			throw failure("server");
		});
		world.add("b", () => results(1));
		const executor = world.executor();
		const plan = searchPlan(["a", "b"], { cacheTtlMs: 0, cooldown: false });
		await clock.run(executor.search(plan));
		await clock.run(executor.search(plan));
		expect(world.calls.map((c) => c.provider)).toEqual(["a", "b", "a", "b"]);
		expect(executor.snapshot().cooldowns).toEqual([]);
	});

	it("policy.cooldown sets base and cap", async () => {
		const { clock, world } = setup();
		world.add("a", () => {
			throw failure("auth");
		});
		const executor = world.executor();
		const seen: number[] = [];
		for (let i = 0; i < 4; i++) {
			await clock
				.run(executor.search(searchPlan(["a"], { cacheTtlMs: 0, cooldown: { baseMs: 1000, maxMs: 4000 } })))
				.catch(() => {});
			const ms = left(executor, "a", clock.now());
			seen.push(ms);
			await clock.advance(ms);
		}
		expect(seen).toEqual([1000, 2000, 4000, 4000]);
	});
});
