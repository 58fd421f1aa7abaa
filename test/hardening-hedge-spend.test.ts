// Every request sent is charged, a hedged loser's too (the backend bills it whether or not its answer is read), and a
// hedge is not sent when the attempt already in flight plus the hedge's price would pass a per-call or daily limit.
// Two paid backends at $0.005 a request (brave's declared price), real servers on 127.0.0.1, the first one slow.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Budget } from "../engine/config-types.ts";
import { type FakeServer, startFakeServer } from "./helpers/fake-server.ts";
import { wire } from "./helpers/wired.ts";

const PRICE = 0.005;
const FIXTURE = readFileSync(join(import.meta.dirname, "fixtures/providers/brave/search_success.json"));

let slow: FakeServer;
let fast: FakeServer;
beforeAll(async () => {
	[slow, fast] = await Promise.all([startFakeServer(), startFakeServer()]);
});
afterEach(() => {
	slow.reset();
	fast.reset();
});
afterAll(async () => {
	await Promise.all([slow.close(), fast.close()]);
});

/** A hedged chain slow → fast under `budget`; the slow backend answers after 400 ms, the fast one at once. */
function hedged(budget: Budget, extra: Record<string, unknown> = {}) {
	slow.respond({ body: FIXTURE, delayMs: 400 });
	fast.respond({ body: FIXTURE });
	return wire({
		providers: {
			slow: { type: "brave", apiKey: "slow-test-key", baseUrl: slow.url, ...extra },
			fast: { type: "brave", apiKey: "fast-test-key", baseUrl: fast.url },
		},
		search: ["slow", "fast"],
		policy: { hedgeAfterMs: 1, budget, cacheTtlMs: 0 },
	});
}

const sent = () => slow.requests.length + fast.requests.length;

describe("hedged requests and spend", () => {
	it("does not send a hedge that would pass the per-call limit: $0.006 a call, one $0.005 request", async () => {
		const w = hedged({ usdPerCall: 0.006 });
		const result = await w.search({ query: "hedge under a per-call limit" });
		expect(result.provider).toBe("slow");
		expect(sent()).toBe(1);
		expect(w.services.executor.spend().todayUsd).toBeCloseTo(PRICE * sent(), 10);
		expect(result.attempts.find((a) => a.provider === "fast")?.reason).toContain("would exceed");
	});

	it("does not send a hedge that would pass the daily limit", async () => {
		const w = hedged({ usdPerDay: 0.008 });
		await w.search({ query: "hedge under a daily limit" });
		expect(sent()).toBe(1);
		expect(w.services.executor.spend().todayUsd).toBeCloseTo(PRICE, 10);
	});

	it("charges the stopped loser of a hedge: two requests sent, $0.010 spent", async () => {
		const w = hedged({ usdPerCall: 0.02 });
		const result = await w.search({ query: "hedge with room for two" });
		expect(result.provider).toBe("fast");
		expect(sent()).toBe(2);
		const spend = w.services.executor.spend();
		expect(spend.todayUsd).toBeCloseTo(PRICE * 2, 10);
		expect(spend.today.map((e) => [e.provider, e.calls]).sort()).toEqual([
			["fast", 1],
			["slow", 1],
		]);
	});

	it("charges a request that timed out unanswered: the backend may have billed it", async () => {
		slow.respond({ hang: true });
		fast.respond({ body: FIXTURE });
		const w = wire({
			providers: {
				slow: { type: "brave", apiKey: "slow-test-key", baseUrl: slow.url, timeoutMs: 1000 },
				fast: { type: "brave", apiKey: "fast-test-key", baseUrl: fast.url },
			},
			search: ["slow", "fast"],
			policy: { cacheTtlMs: 0 },
		});
		const result = await w.search({ query: "a backend that never answers" });
		expect(result.provider).toBe("fast");
		expect(sent()).toBe(2);
		expect(w.services.executor.spend().todayUsd).toBeCloseTo(PRICE * 2, 10);
	});
});
