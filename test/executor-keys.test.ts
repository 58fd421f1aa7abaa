// Key pools: round-robin, the classifier's verdicts (rate-limited, exhausted, retry-same-key, fatal), billing
// order, state shared by fingerprint across providers, the "every key is out" reason, and keys never shown.

import { describe, expect, it } from "vitest";
import type { Policy } from "../engine/config-types.ts";
import type { KeyVerdict } from "../engine/error-classes.ts";
import type { WebAccessError } from "../engine/errors.ts";
import type { SearchResult } from "../engine/result-types.ts";
import { fingerprint } from "../executor/keys.ts";
import type { Executor } from "../executor/types.ts";
import type { CallKey } from "../providers/contract.ts";
import { createFakeClock, type FakeClock } from "./helpers/fake-clock.ts";
import { createWorld, type FakeOptions, failure, keys, results, searchPlan } from "./helpers/fake-providers.ts";

const NO_CACHE: Policy = { cacheTtlMs: 0 };

function setup() {
	const clock = createFakeClock();
	const world = createWorld(clock);
	return { clock, world };
}

/** A provider whose answer depends on the key label: `verdicts[label]` fails with that verdict, else ok. */
function byKey(verdicts: Record<string, KeyVerdict | undefined>, retryAfterMs?: number) {
	return (_request: unknown, call: { key?: CallKey }) => {
		const verdict = verdicts[call.key?.label ?? ""];
		if (verdict === undefined) return results(1);
		const kind = verdict === "rate-limited" ? "rate-limit" : verdict === "exhausted" ? "quota" : "server";
		throw failure(kind, { keyVerdict: verdict, retryAfterMs, message: `${kind} on ${call.key?.label}` });
	};
}

function search(clock: FakeClock, executor: Executor, names = ["a"], policy = NO_CACHE): Promise<SearchResult> {
	return clock.run(executor.search(searchPlan(names, policy)));
}

describe("key pools", () => {
	it("rotates round-robin over the pool's keys across calls", async () => {
		const { clock, world } = setup();
		world.add("a", byKey({}), { keys: keys("key1", "key2", "key3") });
		const executor = world.executor();
		for (let i = 0; i < 4; i++) await search(clock, executor);
		expect(world.calls.map((c) => c.key)).toEqual(["key1", "key2", "key3", "key1"]);
		// Status displays show how often each key was used (labels only).
		expect(executor.keyUses()).toEqual([
			{ provider: "a", label: "key1", uses: 2 },
			{ provider: "a", label: "key2", uses: 1 },
			{ provider: "a", label: "key3", uses: 1 },
		]);
	});

	it("cools a rate-limited key for about a minute and tries the next key inside the same attempt", async () => {
		const { clock, world } = setup();
		let limited = true;
		world.add("a", (r, call) => byKey(limited ? { key1: "rate-limited" } : {})(r, call), {
			keys: keys("key1", "key2"),
		});
		const executor = world.executor();
		const lines: string[] = [];
		const first = await clock.run(executor.search(searchPlan(["a"], NO_CACHE), { onProgress: (l) => lines.push(l) }));
		expect(first.attempts).toEqual([
			{ provider: "a", outcome: "error", reason: "rate-limit: rate-limit on key1", key: "key1", latencyMs: 0 },
			{ provider: "a", outcome: "ok", key: "key2", latencyMs: 0 },
		]);
		expect(lines).toContain("a: key1 failed (rate-limit, rate-limited); trying key2");
		limited = false;
		await search(clock, executor);
		await search(clock, executor);
		expect(world.calls.map((c) => c.key)).toEqual(["key1", "key2", "key2", "key2"]);
		await clock.advance(60_000);
		await search(clock, executor);
		await search(clock, executor);
		expect(
			world.calls
				.slice(4)
				.map((c) => c.key)
				.sort(),
		).toEqual(["key1", "key2"]);
	});

	it("takes an exhausted key out for the life of the process", async () => {
		const { clock, world } = setup();
		world.add("a", byKey({ key1: "exhausted" }), { keys: keys("key1", "key2") });
		const executor = world.executor();
		await search(clock, executor);
		await clock.advance(24 * 3_600_000);
		for (let i = 0; i < 3; i++) await search(clock, executor);
		expect(world.calls.map((c) => c.key)).toEqual(["key1", "key2", "key2", "key2", "key2"]);
		expect(executor.snapshot().keys).toMatchObject([{ label: "key1", state: "exhausted" }]);
	});

	it("retries the same key once after 200 ms, then moves to the next key", async () => {
		const { clock, world } = setup();
		world.add("a", byKey({ key1: "retry-same-key" }), { keys: keys("key1", "key2") });
		const executor = world.executor();
		const start = clock.now();
		const result = await search(clock, executor);
		expect(world.calls.map((c) => [c.key, c.at - start])).toEqual([
			["key1", 0],
			["key1", 200],
			["key2", 200],
		]);
		// Each request is an attempt of its own: key1, its retry, then key2.
		expect(result.attempts.map((a) => [a.provider, a.outcome, a.key])).toEqual([
			["a", "error", "key1"],
			["a", "error", "key1"],
			["a", "ok", "key2"],
		]);
	});

	it("succeeds on the retry of the same key", async () => {
		const { clock, world } = setup();
		world.add(
			"a",
			(_r, _call, n) => {
				if (n === 0) throw failure("server", { keyVerdict: "retry-same-key" });
				return results(1);
			},
			{ keys: keys("key1", "key2") },
		);
		const result = await search(clock, world.executor());
		expect(world.calls.map((c) => c.key)).toEqual(["key1", "key1"]);
		expect(result.attempts.map((a) => [a.outcome, a.key])).toEqual([
			["error", "key1"],
			["ok", "key1"],
		]);
	});

	it("stops the provider on a fatal verdict and moves on in the chain", async () => {
		const { clock, world } = setup();
		world.add("a", byKey({ key1: "fatal", key2: "fatal" }), { keys: keys("key1", "key2") });
		world.add("b", () => results(1));
		const result = await search(clock, world.executor(), ["a", "b"]);
		expect(world.calls.map((c) => [c.provider, c.key])).toEqual([
			["a", "key1"],
			["b", undefined],
		]);
		expect(result.attempts[0]).toMatchObject({ provider: "a", outcome: "error", key: "key1" });
	});

	it.each<{ description: string; keyOrder: FakeOptions["keyOrder"]; expected: string[] }>([
		{
			description: "subscription keys first (Doubao Custom)",
			keyOrder: "subscription-first",
			expected: ["sub1", "sub2", "pay1", "pay2"],
		},
		{ description: "never subscription keys (Doubao Global)", keyOrder: "postpaid-only", expected: ["pay1", "pay2"] },
		{ description: "pool order otherwise", keyOrder: "any", expected: ["pay1", "sub1", "pay2", "sub2"] },
	])("billing order: $description", async ({ keyOrder, expected }) => {
		const { clock, world } = setup();
		const pool = keys(["pay1", "postpaid"], ["sub1", "subscription"], "pay2", ["sub2", "subscription"]);
		world.add("a", byKey({ pay1: "exhausted", pay2: "exhausted", sub1: "exhausted", sub2: "exhausted" }), {
			keys: pool,
			keyOrder,
		});
		await search(clock, world.executor()).catch(() => {});
		expect(world.calls.map((c) => c.key)).toEqual(expected);
	});

	it("skips a postpaid-only provider whose pool holds only subscription keys", async () => {
		const { clock, world } = setup();
		world.add("a", byKey({}), { keys: keys(["sub1", "subscription"]), keyOrder: "postpaid-only" });
		world.add("b", () => results(1));
		const result = await search(clock, world.executor(), ["a", "b"]);
		expect(result.attempts[0]).toMatchObject({ provider: "a", outcome: "skipped" });
		expect(world.callsOf("a")).toHaveLength(0);
	});

	it("lists every key's label and state when no key is left", async () => {
		const { clock, world } = setup();
		world.add("a", byKey({ key1: "exhausted", key2: "rate-limited" }, 60_000), { keys: keys("key1", "key2") });
		const executor = world.executor();
		const first = await search(clock, executor).catch((e: WebAccessError) => e);
		expect((first as WebAccessError).attempts?.map((a) => a.reason)).toEqual([
			"quota: quota on key1",
			"rate-limit: rate-limit on key2; no usable key: key1=exhausted, key2=rate-limited (60 s left)",
		]);
		await clock.advance(18_000);
		const second = (await search(clock, executor).catch((e: WebAccessError) => e)) as WebAccessError;
		expect(world.calls).toHaveLength(2);
		expect(second.attempts?.[0]?.reason).toBe(
			"rate-limit: no usable key: key1=exhausted, key2=rate-limited (42 s left)",
		);
		expect(second.message).toContain("key1=exhausted, key2=rate-limited (42 s left)");
	});

	it("shares key state between providers that use the same key", async () => {
		const { clock, world } = setup();
		const [shared, own] = keys("shared", "own");
		world.add("a", byKey({ shared: "exhausted" }), { keys: [shared!] });
		world.add("b", byKey({}), { keys: [{ ...shared!, label: "same-key" }, own!] });
		const executor = world.executor();
		await search(clock, executor, ["a"]).catch(() => {});
		for (let i = 0; i < 2; i++) await search(clock, executor, ["b"]);
		expect(world.callsOf("b").map((c) => c.key)).toEqual(["own", "own"]);
		expect(executor.snapshot().keys).toEqual([
			{ fingerprint: fingerprint(shared!.secret), label: "shared", state: "exhausted", sinceMs: expect.any(Number) },
		]);
	});

	it("never shows a key: not in results, attempts, errors, progress or the snapshot", async () => {
		const { clock, world } = setup();
		const pool = keys("key1", "key2");
		world.add(
			"a",
			(_r, call) => {
				// A careless backend echoing the key in its error message.
				throw failure("rate-limit", { keyVerdict: "rate-limited", message: `bad key ${call.key?.secret}` });
			},
			{ keys: pool },
		);
		const executor = world.executor();
		const lines: string[] = [];
		const error = await clock
			.run(executor.search(searchPlan(["a"], NO_CACHE), { onProgress: (l) => lines.push(l) }))
			.catch((e: WebAccessError) => e);
		const shown = JSON.stringify([error, (error as WebAccessError).message, lines, executor.snapshot()]);
		for (const key of pool) expect(shown).not.toContain(key.secret);
		expect((error as WebAccessError).attempts?.[0]?.reason).toContain("bad key [key]");
	});
});
