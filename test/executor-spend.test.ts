// Spend and budgets in the executor, on a fake clock: reported cost wins over the declared price, sums roll over at
// midnight UTC, today's sums survive a restart through the state file, and budgets skip paid providers with a reason.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Budget } from "../engine/config-types.ts";
import { STATE_DEFAULTS } from "../executor/create.ts";
import { createStateFile, spendOnly, stateFilePath } from "../executor/persist.ts";
import { chargeOf, formatUsd } from "../executor/spend.ts";
import type { ExecutorStateSnapshot } from "../executor/types.ts";
import type { CostModel } from "../providers/contract.ts";
import { createFakeClock } from "./helpers/fake-clock.ts";
import { createWorld, failure, type Handler, keys, results, searchPlan } from "./helpers/fake-providers.ts";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** 2026-12-01 23:59:00 UTC. */
const LATE = Date.UTC(2026, 11, 1, 23, 59);

const REPORTED: CostModel = { basis: "reported", usd: 0.005, source: "docs/providers/exa.md" };
const PER_REQUEST: CostModel = { basis: "per-request", usd: 0.01, source: "estimated" };

function world(start = LATE) {
	const clock = createFakeClock(start);
	const w = createWorld(clock);
	const add = (name: string, handler: Handler, cost?: CostModel, budget?: Budget) => {
		w.add(name, handler);
		const binding = w.bindings.get(name)!;
		if (cost) binding.definition.cost = cost;
		if (budget) binding.config.budget = budget;
	};
	return { clock, w, add };
}

describe("spend", () => {
	it("charges the reported cost when there is one and the declared price otherwise", () => {
		expect(chargeOf(REPORTED, { results: [], costUsd: 0.012 })).toEqual({ usd: 0.012, estimated: false });
		expect(chargeOf(REPORTED, { results: [] })).toEqual({ usd: 0.005, estimated: true });
		expect(chargeOf({ basis: "per-result", usd: 0.001 }, results(3))).toEqual({ usd: 0.003, estimated: true });
		const deepseek: CostModel = { basis: "per-request", usd: 0.00075, emptyFree: true };
		expect(chargeOf(deepseek, { results: [] })).toEqual({ usd: 0, estimated: false });
		expect(chargeOf({ basis: "free" }, results(3))).toEqual({ usd: 0, estimated: false });
		expect(chargeOf(undefined, { costUsd: 0.2, results: [] }).usd).toBe(0.2);
		expect([0.5, 0, 0.00075, 1.234, 0.035, 0.1].map(formatUsd)).toEqual([
			"$0.50",
			"$0.00",
			"$0.00075",
			"$1.23",
			"$0.035",
			"$0.10",
		]);
	});

	it("sums per provider per UTC day and per session; a new day starts today's sums from zero", async () => {
		const { clock, w, add } = world();
		add("exa", () => ({ ...results(2), costUsd: 0.012 }), REPORTED);
		add("tavily", () => results(2), PER_REQUEST);
		add("direct", () => results(1), { basis: "free" });
		const executor = w.executor();
		const plan = (name: string) => searchPlan([name], { cacheTtlMs: 0 });
		await clock.run(executor.search(plan("exa")));
		await clock.run(executor.search(plan("tavily")));
		await clock.run(executor.search(plan("tavily")));
		await clock.run(executor.search(plan("direct")));
		const before = executor.spend();
		expect(before.day).toBe("2026-12-01");
		expect(before.todayUsd).toBeCloseTo(0.032, 10);
		expect(before.today.find((e) => e.provider === "exa")).toEqual({ provider: "exa", usd: 0.012, calls: 1 });
		expect(before.today.find((e) => e.provider === "tavily")).toMatchObject({ calls: 2, estimated: true });
		expect(before.today.find((e) => e.provider === "tavily")?.usd).toBeCloseTo(0.02, 10);

		await clock.advance(120_000); // past midnight UTC
		await clock.run(executor.search(plan("tavily")));
		const after = executor.spend();
		expect(after.day).toBe("2026-12-02");
		expect(after.today).toEqual([{ provider: "tavily", usd: 0.01, calls: 1, estimated: true }]);
		expect(after.sessionUsd).toBeCloseTo(0.042, 10);
		expect(executor.snapshot().spend).toEqual({ day: "2026-12-02", providers: after.today });
	});

	it("keeps today's spend across a restart through the state file (amounts only, never a key), and forgets it the next day", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-web-access-spend-"));
		dirs.push(dir);
		const path = stateFilePath(dir);
		const start = Date.UTC(2026, 11, 1, 10);
		const { clock, w, add } = world(start);
		const pool = keys("key1");
		add("exa", () => ({ ...results(1), costUsd: 0.25 }), REPORTED);
		w.bindings.get("exa")!.resolveKeys = async () => pool;
		const first = w.executor({ state: createStateFile(path, clock.now) });
		await clock.run(first.search(searchPlan(["exa"])));
		first.flush(); // as the end of a process does
		const text = readFileSync(path, "utf8");
		expect(JSON.parse(text).spend).toEqual({
			day: "2026-12-01",
			providers: [{ provider: "exa", usd: 0.25, calls: 1 }],
		});
		expect(text).not.toContain(pool[0]!.secret);

		const restarted = w.executor({ state: createStateFile(path, clock.now) });
		expect(restarted.spend().todayUsd).toBe(0.25);
		expect(restarted.spend().sessionUsd).toBe(0);

		const tomorrow = createFakeClock(start + 86_400_000);
		const w2 = createWorld(tomorrow);
		const next = w2.executor({ state: createStateFile(path, tomorrow.now) });
		expect(next.spend()).toMatchObject({ day: "2026-12-02", todayUsd: 0, today: [] });
	});
});

describe("writing spend", () => {
	it("writes spend at most once per spendWriteMs and at flush, and cooldowns as soon as they change", async () => {
		const start = Date.UTC(2026, 11, 1, 10);
		const { clock, w, add } = world(start);
		add("exa", () => ({ ...results(1), costUsd: 0.1 }), REPORTED);
		let broken = false;
		add("tavily", () => {
			if (broken) throw failure("server");
			return results(1);
		});
		const saved: ExecutorStateSnapshot[] = [];
		const executor = w.executor({ state: { load: () => undefined, save: (s) => saved.push(structuredClone(s)) } });
		await clock.run(executor.search(searchPlan(["exa"], { cacheTtlMs: 0 })));
		await clock.run(executor.search(searchPlan(["exa"], { cacheTtlMs: 0 }, { query: "second" })));
		expect(saved).toEqual([]); // two paid answers, no write yet
		await clock.advance(STATE_DEFAULTS.spendWriteMs);
		expect(saved.map((s) => s.spend?.providers)).toEqual([[{ provider: "exa", usd: 0.2, calls: 2 }]]);

		await clock.run(executor.search(searchPlan(["exa"], { cacheTtlMs: 0 }, { query: "third" })));
		expect(saved).toHaveLength(1);
		executor.flush();
		expect(saved.map((s) => s.spend?.providers[0]?.calls)).toEqual([2, 3]);
		executor.flush(); // nothing new: no write
		expect(saved).toHaveLength(2);

		// A cooldown is written as soon as the failure is settled, with the spend of that moment; the answer that
		// follows (exa's, paid) waits for the next write.
		await clock.run(executor.search(searchPlan(["exa"], { cacheTtlMs: 0 }, { query: "fourth" })));
		broken = true;
		await clock.run(executor.search(searchPlan(["tavily", "exa"], { cacheTtlMs: 0 }, { query: "fifth" })));
		expect(saved).toHaveLength(3);
		expect(saved[2]!.cooldowns.map((c) => c.provider)).toEqual(["tavily"]);
		expect(saved[2]!.spend?.providers[0]?.calls).toBe(4);
		await clock.advance(STATE_DEFAULTS.spendWriteMs);
		expect(saved.map((s) => s.spend?.providers[0]?.calls)).toEqual([2, 3, 4, 5]);
		expect(saved[3]!.cooldowns.map((c) => c.provider)).toEqual(["tavily"]);
	});
});

describe("spendOnly (the CLI's view of the state file)", () => {
	it("loads and saves only today's spend and keeps the file's cooldowns and key states as they are", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-web-access-spend-only-"));
		dirs.push(dir);
		const start = Date.UTC(2026, 11, 1, 10);
		const file = createStateFile(stateFilePath(dir), () => start);
		const cooldown = { provider: "tavily", untilMs: start + 60_000, failures: 1, reason: "server: 500" };
		file.save({ version: 1, cooldowns: [cooldown], keys: [], spend: { day: "2026-12-01", providers: [] } });
		const { clock, w, add } = world(start);
		add("exa", () => ({ ...results(1), costUsd: 0.1 }), REPORTED);
		const executor = w.executor({ state: spendOnly(file) });
		expect(executor.snapshot().cooldowns).toEqual([]);
		await clock.run(executor.search(searchPlan(["exa"])));
		executor.flush(); // as the end of the CLI's command does (cli/run.ts)
		expect(file.load()).toEqual({
			version: 1,
			cooldowns: [cooldown],
			keys: [],
			spend: { day: "2026-12-01", providers: [{ provider: "exa", usd: 0.1, calls: 1 }] },
		});
	});
});

describe("budgets", () => {
	it("skips a paid provider once today's spend reaches policy.budget.usdPerDay, with the amount in the reason", async () => {
		const { clock, w, add } = world(Date.UTC(2026, 11, 1, 10));
		add("exa", () => ({ ...results(1), costUsd: 0.5 }), REPORTED);
		add("searxng", () => results(1), { basis: "free" });
		const executor = w.executor();
		const plan = searchPlan(["exa", "searxng"], { cacheTtlMs: 0, budget: { usdPerDay: 0.5 } });
		expect((await clock.run(executor.search(plan))).provider).toBe("exa");
		const second = await clock.run(executor.search(plan));
		expect(second.provider).toBe("searxng");
		expect(second.attempts[0]).toEqual({
			provider: "exa",
			outcome: "skipped",
			reason: "budget reached: $0.50 of $0.50 today",
		});
		expect(w.callsOf("exa")).toHaveLength(1);
		// A free provider is never held back by a budget.
		expect(second.attempts[1]).toMatchObject({ provider: "searxng", outcome: "ok" });
	});

	it("applies a provider's own daily budget to that provider only", async () => {
		const { clock, w, add } = world(Date.UTC(2026, 11, 1, 10));
		add("exa", () => ({ ...results(1), costUsd: 0.3 }), REPORTED, { usdPerDay: 0.3 });
		add("tavily", () => results(1), PER_REQUEST);
		const executor = w.executor();
		const plan = searchPlan(["exa", "tavily"], { cacheTtlMs: 0 });
		await clock.run(executor.search(plan));
		const second = await clock.run(executor.search(plan));
		expect(second.provider).toBe("tavily");
		expect(second.attempts[0]?.reason).toBe("budget reached: $0.30 of $0.30 today (the provider's own budget)");
	});

	it("stops paid fallbacks once a call's spend reaches usdPerCall, and skips a step whose price alone is over it", async () => {
		const { clock, w, add } = world(Date.UTC(2026, 11, 1, 10));
		// Answers outside the requested domain: filtered to empty, so the walk moves on after paying.
		add("exa", () => ({ ...results(2, "elsewhere.org"), costUsd: 0.03 }), REPORTED);
		add("tavily", () => results(1), PER_REQUEST);
		add("gemini", () => results(1), { basis: "per-request", usd: 0.035, source: "estimated" });
		add("searxng", () => results(1), { basis: "free" });
		const executor = w.executor();
		const restricted = { domains: ["example.com"] };
		const first = await clock.run(
			executor.search(searchPlan(["exa", "tavily", "searxng"], { budget: { usdPerCall: 0.03 } }, restricted)),
		);
		expect(first.attempts.map((a) => [a.provider, a.outcome, a.reason])).toEqual([
			["exa", "empty", "no results (2 removed by filters)"],
			["tavily", "skipped", "budget reached: $0.03 of $0.03 this call"],
			["searxng", "ok", undefined],
		]);
		const second = await clock.run(
			executor.search(searchPlan(["gemini", "searxng"], { budget: { usdPerCall: 0.02 } })),
		);
		expect(second.attempts[0]).toEqual({
			provider: "gemini",
			outcome: "skipped",
			reason: "budget: $0.035 per request would exceed $0.02 per call",
		});
		expect(w.callsOf("gemini")).toHaveLength(0);
	});
});
