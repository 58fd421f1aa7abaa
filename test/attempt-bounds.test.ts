// maxAttempts counts every request a backend receives (key rotations and same-key retries included), a generic
// 5xx moves on to the next provider, a same-key retry happens only where the backend's error table asks for it
// (Doubao 10500/10501), and the attempts in the result show each request.

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeyVerdict } from "../engine/error-classes.ts";
import { isWebAccessError, type WebAccessError } from "../engine/errors.ts";
import type { Attempt } from "../engine/result-types.ts";
import type { CallKey } from "../providers/contract.ts";
import { fixtureJson } from "./contract/provider-contract.ts";
import { createFakeClock } from "./helpers/fake-clock.ts";
import { createWorld, failure, keys, results, searchPlan } from "./helpers/fake-providers.ts";
import { type FaultServer, startFaultServer } from "./helpers/fault-server.ts";
import { wire } from "./helpers/wired.ts";

let server: FaultServer;
beforeAll(async () => {
	server = await startFaultServer();
});
afterAll(async () => {
	await server.close();
});

async function failed(promise: Promise<unknown>): Promise<WebAccessError> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	if (!isWebAccessError(error)) throw new Error(`expected a WebAccessError, got ${String(error)}`);
	return error;
}

/** Attempts that sent a request: not skipped, and not a pool whose every key was already out. */
const sent = (attempts: readonly Attempt[] = []) =>
	attempts.filter((a) => a.outcome !== "skipped" && !/^[a-z-]+: no usable key/.test(a.reason ?? ""));

describe("attempt bounds on the real stack", () => {
	it("sends maxAttempts requests, one per provider, when 8 providers answer 503 (no same-key retry)", async () => {
		server.clear();
		server.reply({ kind: "answer", status: 503, headers: { "content-type": "text/plain" }, body: "busy" });
		const providers = Object.fromEntries(
			Array.from({ length: 8 }, (_, i) => [`s${i}`, { type: "searxng", baseUrl: `${server.url}/s${i}` }]),
		);
		const wired = wire({ providers, search: Object.keys(providers), policy: { maxAttempts: 3, cacheTtlMs: 0 } });
		const error = await failed(wired.search({ query: "bounded" }));
		expect(server.requests).toHaveLength(3);
		expect(new Set(server.requests.map((r) => r.path.split("/")[1])).size, "never the same provider twice").toBe(3);
		expect(sent(error.attempts).map((a) => a.provider)).toEqual(["s0", "s1", "s2"]);
		expect(error.message).toContain("stopped after 3 attempts (maxAttempts)");
	});

	it("retries Doubao's 10500 once on the same key after 200 ms, counts it, and shows each request", async () => {
		server.clear();
		const envelope = fixtureJson("doubao/web_search_error_10400_param.json") as {
			ResponseMetadata: { Error: Record<string, unknown> };
		};
		envelope.ResponseMetadata.Error = { CodeN: 10500, Code: "10500", Message: "internal error" };
		server.reply({ kind: "answer", headers: { "content-type": "application/json" }, body: JSON.stringify(envelope) });
		const config = (maxAttempts: number) => ({
			providers: {
				d: { type: "doubao", baseUrl: `${server.url}/d`, apiKey: ["bounds-key-ONE-1111", "bounds-key-TWO-2222"] },
			},
			search: ["d"],
			policy: { maxAttempts, cacheTtlMs: 0 },
		});
		const roomy = await failed(wire(config(6)).search({ query: "retry" }));
		// key1, key1 again (the documented retry), then key2 and its retry: four requests, four attempts.
		expect(server.requests).toHaveLength(4);
		expect(sent(roomy.attempts).map((a) => a.key)).toEqual(["key1", "key1", "key2", "key2"]);
		expect(sent(roomy.attempts).every((a) => a.reason?.startsWith("server: "))).toBe(true);

		server.clear();
		const tight = await failed(wire(config(3)).search({ query: "retry" }));
		expect(server.requests, "the retry and the rotation count against maxAttempts").toHaveLength(3);
		expect(sent(tight.attempts)).toHaveLength(3);
		expect(tight.message).toContain("stopped after 3 attempts (maxAttempts)");
	});
});

describe("attempt bounds, for any chain of key pools and verdicts", () => {
	const VERDICTS: Array<KeyVerdict | "none"> = ["rate-limited", "exhausted", "retry-same-key", "fatal", "none"];
	const provider = fc.record({
		keyCount: fc.integer({ min: 0, max: 3 }),
		verdicts: fc.array(fc.constantFrom(...VERDICTS), { minLength: 3, maxLength: 3 }),
	});

	it("never sends more than maxAttempts requests, shows each one, and repeats a provider only by rotation or a retry", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(provider, { minLength: 1, maxLength: 6 }),
				fc.integer({ min: 1, max: 8 }),
				async (chain, maxAttempts) => {
					const clock = createFakeClock();
					const world = createWorld(clock);
					const names = chain.map((_, i) => `p${i}`);
					chain.forEach((p, i) => {
						const pool: CallKey[] = keys(...Array.from({ length: p.keyCount }, (_, k) => `k${k}`));
						world.add(
							`p${i}`,
							(_request, call) => {
								const index = Number(call.key?.label.slice(1) ?? 0);
								const verdict = p.verdicts[index] ?? "none";
								throw failure(verdict === "rate-limited" ? "rate-limit" : "server", {
									...(verdict === "none" ? {} : { keyVerdict: verdict }),
								});
							},
							p.keyCount > 0 ? { keys: pool } : {},
						);
					});
					const error = await failed(
						clock.run(world.executor().search(searchPlan(names, { maxAttempts, cacheTtlMs: 0 }))),
					);
					const calls = world.calls;
					expect(calls.length).toBeLessThanOrEqual(maxAttempts);
					expect(sent(error.attempts).map((a) => [a.provider, a.key])).toEqual(calls.map((c) => [c.provider, c.key]));
					// A provider's requests are one run; inside it a key repeats only right after a same-key retry verdict.
					const order = calls.map((c) => c.provider).filter((p, i, all) => p !== all[i - 1]);
					expect(new Set(order).size).toBe(order.length);
					calls.forEach((c, i) => {
						const before = calls[i - 1];
						if (before?.provider !== c.provider || before.key !== c.key) return;
						const p = chain[Number(c.provider.slice(1))]!;
						expect(p.verdicts[Number(c.key?.slice(1) ?? 0)]).toBe("retry-same-key");
						expect(calls[i - 2]?.key === c.key && calls[i - 2]?.provider === c.provider).toBe(false);
					});
				},
			),
			{ numRuns: 80 },
		);
	});

	it("accepts the answer of a rotated key and lists the failed request before it", async () => {
		const clock = createFakeClock();
		const world = createWorld(clock);
		world.add(
			"a",
			(_r, call) => {
				if (call.key?.label === "k0") throw failure("quota", { keyVerdict: "exhausted" });
				return results(1);
			},
			{ keys: keys("k0", "k1") },
		);
		const result = await clock.run(world.executor().search(searchPlan(["a"], { cacheTtlMs: 0 })));
		expect(result.attempts.map((a) => [a.outcome, a.key])).toEqual([
			["error", "k0"],
			["ok", "k1"],
		]);
	});
});
