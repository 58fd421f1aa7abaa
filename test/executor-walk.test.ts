// The executor's walk over a chain: skips, every error class through decide(), timeouts, empty answers,
// fetches without text, the bounds (one attempt per provider, maxAttempts, overall deadline) and its messages.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ErrorClass } from "../engine/error-classes.ts";
import { WebAccessError } from "../engine/errors.ts";
import { createFakeClock } from "./helpers/fake-clock.ts";
import {
	answerAfter,
	createWorld,
	failure,
	fetchPlan,
	hang,
	page,
	results,
	searchPlan,
} from "./helpers/fake-providers.ts";

const FAILING: ErrorClass[] = ["transport", "timeout", "rate-limit", "quota", "auth", "server", "bad-request", "parse"];

function setup() {
	const clock = createFakeClock();
	const world = createWorld(clock);
	return { clock, world };
}

async function rejection(promise: Promise<unknown>): Promise<WebAccessError> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(WebAccessError);
	return error as WebAccessError;
}

describe("walk: accept, skip and fall back", () => {
	it("returns the first provider's results with one ok attempt and no fallback warning", async () => {
		const { clock, world } = setup();
		world.add("a", (_r, call) => answerAfter(clock, call, 300, results(2)));
		world.add("b", () => results(1));
		const result = await clock.run(world.executor().search(searchPlan(["a", "b"])));
		expect(result.provider).toBe("a");
		expect(result.results.map((r) => r.url)).toEqual(["https://example.com/0", "https://example.com/1"]);
		expect(result.attempts).toEqual([{ provider: "a", outcome: "ok", latencyMs: 300 }]);
		expect(result.warnings).toEqual([]);
		expect(world.callsOf("b")).toHaveLength(0);
	});

	it("records a skipped step with its reason, does not call it, and names the backend that answered", async () => {
		const { clock, world } = setup();
		world.add("a", () => results(1));
		world.add("b", () => ({ ...results(1), costUsd: 0.005 }));
		const lines: string[] = [];
		const plan = searchPlan(["-a:no credentials", "b"]);
		const result = await clock.run(world.executor().search(plan, { onProgress: (line) => lines.push(line) }));
		expect(world.callsOf("a")).toHaveLength(0);
		expect(result.attempts[0]).toEqual({ provider: "a", outcome: "skipped", reason: "no credentials" });
		expect(result.provider).toBe("b");
		expect(result.warnings).toContain("answered by b after a fallback from a; reported cost $0.005");
		expect(lines).toEqual(["a skipped (no credentials); trying b"]);
	});

	it.each(FAILING)("moves on after a %s failure and records the class in the reason", async (errorClass) => {
		const { clock, world } = setup();
		world.add("a", () => {
			throw failure(errorClass, { message: "boom" });
		});
		world.add("b", () => results(1));
		const lines: string[] = [];
		const result = await clock.run(
			world.executor().search(searchPlan(["a", "b"]), { onProgress: (l) => lines.push(l) }),
		);
		expect(result.provider).toBe("b");
		expect(result.attempts[0]).toMatchObject({ provider: "a", outcome: "error", reason: `${errorClass}: boom` });
		expect(lines).toContain(`a failed (${errorClass}); trying b`);
		expect(result.warnings.some((w) => w.includes("answered by b") && w.includes("no cost reported"))).toBe(true);
	});

	it.each(FAILING.filter((c) => c !== "timeout"))(
		"with fallbackOn [timeout], a %s failure stops the chain before b",
		async (errorClass) => {
			const { clock, world } = setup();
			world.add("a", () => {
				throw failure(errorClass, { message: "boom" });
			});
			world.add("b", () => results(1));
			const error = await rejection(
				clock.run(world.executor().search(searchPlan(["a", "b"], { fallbackOn: ["timeout"] }))),
			);
			expect(error.kind).toBe("chain");
			expect(error.code).toBe("stopped");
			expect(error.message).toContain(`does not fall back on ${errorClass}`);
			expect(world.callsOf("b")).toHaveLength(0);
		},
	);

	it("throws all-failed naming every provider and why when nothing answers", async () => {
		const { clock, world } = setup();
		world.add("exa", () => {
			throw failure("rate-limit", { message: "429" });
		});
		const error = await rejection(clock.run(world.executor().search(searchPlan(["exa", "-deepseek:no credentials"]))));
		expect(error.kind).toBe("chain");
		expect(error.code).toBe("all-failed");
		expect(error.message).toBe("no search provider answered: exa (rate-limit: 429), deepseek (no credentials)");
		expect(error.attempts?.map((a) => a.outcome)).toEqual(["error", "skipped"]);
	});

	it("records every skip of a chain with nothing ready, and fails naming them", async () => {
		const { clock, world } = setup();
		const plan = searchPlan(["-a:no credentials", "-b:cannot search"]);
		const error = await rejection(clock.run(world.executor().search(plan)));
		expect(error.message).toBe("no search provider answered: a (no credentials), b (cannot search)");
		expect(error.code).toBe("all-failed");
	});

	it("classifies a thrown non-WebAccessError through the definition's classify", async () => {
		const { clock, world } = setup();
		world.add("a", () => {
			throw new Error("socket hang up");
		});
		world.add("b", () => results(1));
		const result = await clock.run(world.executor().search(searchPlan(["a", "b"])));
		expect(result.attempts[0]?.reason).toBe("transport: unexpected failure");
	});

	it("treats a provider that says cancelled on its own as a transport failure, not the caller's cancellation", async () => {
		const { clock, world } = setup();
		world.add("a", () => {
			throw failure("cancelled", { message: "aborted by the socket" });
		});
		world.add("b", () => results(1));
		const result = await clock.run(world.executor().search(searchPlan(["a", "b"])));
		expect(result.provider).toBe("b");
		expect(result.attempts[0]?.reason).toBe("transport: aborted by the socket");
	});

	it("skips a provider whose keys cannot be resolved, without counting it as an attempt", async () => {
		const { clock, world } = setup();
		world.add("a", () => results(1), {
			resolveKeys: async () => {
				throw new WebAccessError("no credentials: $EXA_API_KEY is not set", { kind: "auth", code: "no-key" });
			},
		});
		world.add("b", () => results(1));
		const result = await clock.run(world.executor().search(searchPlan(["a", "b"], { maxAttempts: 1 })));
		expect(result.attempts[0]).toEqual({
			provider: "a",
			outcome: "skipped",
			reason: "no credentials: $EXA_API_KEY is not set",
		});
		expect(result.provider).toBe("b");
	});

	it("counts an answer in a shape the executor cannot read as a parse failure and moves on", async () => {
		const { clock, world } = setup();
		world.add("a", () => ({ answer: "no results field" }) as never);
		world.add("b", () => results(1));
		const result = await clock.run(world.executor().search(searchPlan(["a", "b"])));
		expect(result.attempts[0]).toMatchObject({ provider: "a", outcome: "error" });
		expect(result.attempts[0]?.reason).toMatch(/^parse: unexpected answer/);
		expect(result.provider).toBe("b");
	});

	it("skips a step whose provider is not configured any more", async () => {
		const { clock, world } = setup();
		world.add("b", () => results(1));
		const result = await clock.run(world.executor().search(searchPlan(["gone", "b"])));
		expect(result.attempts[0]).toEqual({ provider: "gone", outcome: "skipped", reason: "not configured" });
	});

	it("never calls the same provider twice in one call", async () => {
		const { clock, world } = setup();
		world.add("a", () => {
			throw failure("server");
		});
		world.add("b", () => {
			throw failure("server");
		});
		await rejection(clock.run(world.executor().search(searchPlan(["a", "b", "a", "b"]))));
		expect(world.calls.map((c) => c.provider)).toEqual(["a", "b"]);
	});
});

describe("walk: timeouts", () => {
	it("aborts a hanging provider after its timeout and moves on", async () => {
		const { clock, world } = setup();
		world.add("a", () => hang(), { timeoutMs: 1000 });
		world.add("b", () => results(1));
		const start = clock.now();
		const result = await clock.run(world.executor().search(searchPlan(["a", "b"])));
		expect(result.attempts[0]).toMatchObject({
			outcome: "error",
			reason: "timeout: no answer within 1 s",
			latencyMs: 1000,
		});
		expect(world.callsOf("b")[0]?.at).toBe(start + 1000);
		const aSignal = world.callsOf("a")[0]!.signal;
		expect(aSignal.aborted).toBe(true);
		expect((aSignal.reason as WebAccessError).kind).toBe("timeout");
	});

	it.each([
		{ description: "60 s by default", options: {}, expected: 60_000 },
		{ description: "the type's default", options: { defaultTimeoutMs: 180_000 }, expected: 180_000 },
		{
			description: "config.timeoutMs over the type's default",
			options: { defaultTimeoutMs: 180_000, timeoutMs: 5000 },
			expected: 5000,
		},
	])("uses $description as the step timeout", async ({ options, expected }) => {
		const { clock, world } = setup();
		const seen: number[] = [];
		world.add(
			"a",
			(_r, call) => {
				seen.push(call.timeoutMs);
				return hang();
			},
			options,
		);
		const start = clock.now();
		await rejection(clock.run(world.executor().search(searchPlan(["a"]))));
		expect(seen).toEqual([expected]);
		expect(clock.now() - start).toBe(expected);
	});
});

describe("walk: empty answers", () => {
	it("moves on when a domain-restricted search is left empty by filtering", async () => {
		const { clock, world } = setup();
		world.add("a", () => results(3, "example.com"));
		world.add("b", () => results(2, "github.com"));
		const plan = searchPlan(["a", "b"], {}, { domains: ["github.com"] });
		const result = await clock.run(world.executor().search(plan));
		expect(result.attempts[0]).toMatchObject({
			provider: "a",
			outcome: "empty",
			reason: "no results (3 removed by filters)",
		});
		expect(result.provider).toBe("b");
		expect(result.results).toHaveLength(2);
	});

	it("accepts an empty answer to an open search by default", async () => {
		const { clock, world } = setup();
		world.add("a", () => results(0));
		world.add("b", () => results(2));
		const result = await clock.run(world.executor().search(searchPlan(["a", "b"])));
		expect(result.provider).toBe("a");
		expect(result.results).toEqual([]);
		expect(world.callsOf("b")).toHaveLength(0);
	});

	it("moves on after any empty answer with onEmpty next, and never with onEmpty stop", async () => {
		const next = setup();
		next.world.add("a", () => results(0));
		next.world.add("b", () => results(2));
		expect(
			(await next.clock.run(next.world.executor().search(searchPlan(["a", "b"], { onEmpty: "next" })))).provider,
		).toBe("b");

		const stop = setup();
		stop.world.add("a", () => results(0));
		stop.world.add("b", () => results(2));
		const plan = searchPlan(["a", "b"], { onEmpty: "stop" }, { domains: ["example.com"] });
		const result = await stop.clock.run(stop.world.executor().search(plan));
		expect(result.provider).toBe("a");
		expect(stop.world.callsOf("b")).toHaveLength(0);
	});

	it("returns no results with the full trace when every step comes back empty", async () => {
		const { clock, world } = setup();
		world.add("a", () => results(0));
		world.add("b", () => results(1, "example.org"));
		const plan = searchPlan(["a", "b"], {}, { domains: ["github.com"] });
		const result = await clock.run(world.executor().search(plan));
		expect(result.results).toEqual([]);
		expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
			["a", "empty"],
			["b", "empty"],
		]);
	});

	it("counts a fetch without text as a failure and tries the next provider", async () => {
		const { clock, world } = setup();
		world.add("a", () => page("   \n"));
		world.add("b", () => page("# Title\n\nbody"));
		const result = await clock.run(world.executor().fetch(fetchPlan(["a", "b"])));
		expect(result.attempts[0]).toMatchObject({ provider: "a", outcome: "error", reason: "parse: no text returned" });
		expect(result.provider).toBe("b");
		expect(result.content).toBe("# Title\n\nbody");
	});
});

describe("walk: bounds (properties)", () => {
	const behaviour = fc.oneof(
		fc.record({
			kind: fc.constant("fail" as const),
			errorClass: fc.constantFrom(...FAILING),
			delayMs: fc.integer({ min: 0, max: 5000 }),
		}),
		fc.record({ kind: fc.constant("hang" as const) }),
		fc.record({ kind: fc.constant("skip" as const) }),
	);
	const chain = fc.array(fc.tuple(behaviour, fc.option(fc.integer({ min: 1000, max: 120_000 }), { nil: undefined })), {
		minLength: 1,
		maxLength: 9,
	});

	it("never makes more real attempts than maxAttempts, and skips do not count", async () => {
		await fc.assert(
			fc.asyncProperty(chain, fc.integer({ min: 1, max: 8 }), async (providers, maxAttempts) => {
				const { clock, world } = setup();
				const names = providers.map(([b], i) => (b.kind === "skip" ? `-p${i}:no credentials` : `p${i}`));
				providers.forEach(([b, timeoutMs], i) => {
					world.add(
						`p${i}`,
						(_r, call) =>
							b.kind === "fail"
								? answerAfter(clock, call, b.delayMs, null).then(() => Promise.reject(failure(b.errorClass)))
								: hang(),
						{ timeoutMs },
					);
				});
				const error = await rejection(clock.run(world.executor().search(searchPlan(names, { maxAttempts }))));
				const ready = names.filter((n) => !n.startsWith("-")).length;
				expect(world.calls.length).toBeLessThanOrEqual(maxAttempts);
				// Only the overall deadline may end the walk before the cap or the end of the chain.
				if (!error.message.includes("deadline")) expect(world.calls.length).toBe(Math.min(ready, maxAttempts));
				expect(error.attempts?.filter((a) => a.outcome !== "skipped").length).toBe(world.calls.length);
			}),
			{ numRuns: 60 },
		);
	});

	it("never runs past the overall deadline (sum of step timeouts, at most 5 min), hedged or not", async () => {
		await fc.assert(
			fc.asyncProperty(
				chain,
				fc.option(fc.integer({ min: 1, max: 30_000 }), { nil: undefined }),
				async (providers, hedgeAfterMs) => {
					const { clock, world } = setup();
					const names = providers.map(([b], i) => (b.kind === "skip" ? `-p${i}:no credentials` : `p${i}`));
					let deadline = 0;
					providers.forEach(([b, timeoutMs], i) => {
						if (b.kind !== "skip") deadline += timeoutMs ?? 60_000;
						world.add(
							`p${i}`,
							(_r, call) =>
								b.kind === "fail"
									? answerAfter(clock, call, b.delayMs, null).then(() => Promise.reject(failure(b.errorClass)))
									: hang(),
							{ timeoutMs },
						);
					});
					const start = clock.now();
					await rejection(clock.run(world.executor().search(searchPlan(names, { hedgeAfterMs, maxAttempts: 10 }))));
					expect(clock.now() - start).toBeLessThanOrEqual(Math.min(deadline, 300_000));
				},
			),
			{ numRuns: 60 },
		);
	});

	it("stops at the overall deadline and says so", async () => {
		const { clock, world } = setup();
		for (const name of ["a", "b", "c", "d", "e", "f"]) world.add(name, () => hang(), { timeoutMs: 90_000 });
		const start = clock.now();
		const error = await rejection(clock.run(world.executor().search(searchPlan(["a", "b", "c", "d", "e", "f"]))));
		expect(clock.now() - start).toBe(300_000);
		expect(error.message).toContain("overall deadline of 300 s reached");
		expect(error.attempts?.[3]?.reason).toBe("timeout: overall deadline of 300 s reached");
		expect(world.calls).toHaveLength(4);
	});

	it("names the deadline, not the attempt's timeout, when the deadline is what cut the attempt short", async () => {
		// The executor reads whole milliseconds (Date.now) while its waits fall due on a finer clock, and on a busy
		// machine a timer fires late. Virtual time starts 0.9 ms into a millisecond and a's timeout fires 0.5 ms late,
		// at 1,001.4 ms (1,001 as the executor reads it): b is left 999 ms, and a timer armed for that long would fall
		// due at 2,000.4 ms, before the deadline's at 2,000.9.
		const clock = createFakeClock(1_700_000_000_000.9);
		const world = createWorld(clock);
		world.add("a", () => hang(), { timeoutMs: 1000 });
		world.add("b", () => hang(), { timeoutMs: 1000 });
		let late = true;
		const sleep = (ms: number, signal?: AbortSignal) => {
			const delay = late && ms === 1000 ? 1000.5 : ms;
			if (ms === 1000) late = false;
			return clock.sleep(delay, signal);
		};
		const executor = world.executor({ now: () => Math.floor(clock.now()), sleep });
		const error = await rejection(clock.run(executor.search(searchPlan(["a", "b"]))));
		expect(error.attempts?.map((a) => a.reason)).toEqual([
			"timeout: no answer within 1 s",
			"timeout: overall deadline of 2 s reached",
		]);
		expect(error.message.split("overall deadline").length - 1).toBe(1);
	});
});
