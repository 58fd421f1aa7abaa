// Scenario "hedge": a primary backend with heavy-tailed latency (seeded) in front of a healthy secondary; the same
// call stream through the executor with hedgeAfterMs at the primary's p90 versus without hedging.

import type { Config, Policy, ProviderConfig } from "../engine/config-types.ts";
import { plan } from "../engine/plan.ts";
import type { PlanContext } from "../engine/request-types.ts";
import { compile } from "../engine/route.ts";
import { createExecutor, type ProviderBinding } from "../executor/index.ts";
import type { ProviderDefinition } from "../providers/contract.ts";
import { providerType } from "../providers/registry.ts";
import { type Backend, startBackend } from "./backend.ts";
import {
	type Comparison,
	createRandom,
	type Goal,
	percentile,
	round,
	runConcurrent,
	type ScenarioReport,
	summarize,
} from "./stats.ts";

export interface HedgeOptions {
	/** Calls per side. */
	requests?: number;
	concurrency?: number;
	/** Scales every latency (the smoke test uses a small factor to stay fast). */
	timeScale?: number;
	seed?: number;
}

// Few callers: the executor's own CPU per call times the calls in flight would otherwise add queueing to every
// latency and move calls past hedgeAfterMs that the backend answered in time.
const DEFAULTS = { requests: 1200, concurrency: 12, timeScale: 1, seed: 20240601 };

export interface HedgeNumbers {
	/** Hedged p99 / unhedged p99. */
	p99Ratio: number;
	/** Secondary requests per call with hedging (0.1 = 10 % more requests). */
	extraRequestRate: number;
	p50Ratio: number;
	/** The primary backend's p90 (of its drawn delays), used as hedgeAfterMs. */
	hedgeAfterMs: number;
	/** p90 of the unhedged calls as callers saw them (primary delay + client work + event-loop lag). */
	unhedgedP90Ms: number;
	unhedgedP50Ms: number;
	unhedgedP99Ms: number;
	hedgedP50Ms: number;
	hedgedP99Ms: number;
	/** Primary answers cut off because the secondary won. */
	primaryAbortedRate: number;
	requests: number;
}

function gaussian(random: () => number): number {
	return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** Mostly ~20 ms (lognormal), a slow shoulder of 40–150 ms, and 2.5 % at 400–1000 ms. */
export function heavyTailedLatencies(count: number, seed: number): number[] {
	const random = createRandom(seed);
	return Array.from({ length: count }, () => {
		const u = random();
		if (u < 0.88) return 20 * Math.exp(0.25 * gaussian(random));
		if (u < 0.975) return 40 + random() * 110;
		return 400 + random() * 600;
	});
}

export function healthyLatencies(count: number, seed: number): number[] {
	const random = createRandom(seed);
	return Array.from({ length: count }, () => 20 * Math.exp(0.25 * gaussian(random)));
}

export async function benchHedge(options: HedgeOptions = {}): Promise<ScenarioReport<HedgeNumbers>> {
	const { requests, concurrency, timeScale, seed } = { ...DEFAULTS, ...options };
	const slow = heavyTailedLatencies(4096, seed).map((ms) => ms * timeScale);
	const fast = healthyLatencies(4096, seed + 1).map((ms) => ms * timeScale);
	// The primary backend's own p90; callers see a little more (client work, event-loop lag on a busy machine).
	const sortedSlow = [...slow].sort((a, b) => a - b);
	const hedgeAfterMs = Math.max(1, Math.round(percentile(sortedSlow, 0.9)));
	const primary = await startBackend({ delayMs: (n) => slow[n % slow.length]! });
	const secondary = await startBackend({ delayMs: (n) => fast[n % fast.length]! });
	const definition = await providerType("exa")!.load();
	const runtimeFor = (name: string, backend: Backend, def: ProviderDefinition): ProviderBinding => ({
		config: { name, type: "exa", baseUrl: backend.url, options: {} },
		definition: def,
		resolveKeys: async () => [{ secret: `bench-${name}-not-a-key`, label: "key1" }],
	});
	const bindings = new Map([
		["primary", runtimeFor("primary", primary, definition)],
		["secondary", runtimeFor("secondary", secondary, definition)],
	]);
	const context: PlanContext = { canServe: () => true, readiness: () => ({ status: "ready" }) };
	const run = async (policy: Policy) => {
		const providers: ProviderConfig[] = [...bindings.values()].map((r) => r.config);
		const config: Config = { providers, search: ["primary", "secondary"], rules: [], policy };
		const table = compile(config);
		// A fresh executor per side: no cooldown or key state carries over.
		const executor = createExecutor({ binding: (name) => bindings.get(name) });
		primary.resetCounts();
		secondary.resetCounts();
		const latencies = await runConcurrent(requests, concurrency, async (i) => {
			const request = {
				kind: "search" as const,
				query: `hedge ${i}`,
				domains: [],
				excludeDomains: [],
				maxResults: 5,
				includeContent: false,
			};
			const result = await executor.search(plan(table, request, context));
			if (result.results.length === 0) throw new Error(`hedge: no results (${result.attempts.map((a) => a.reason)})`);
		});
		return { latencies, secondary: secondary.requests, aborted: primary.aborted };
	};
	let without: Awaited<ReturnType<typeof run>>;
	let hedged: Awaited<ReturnType<typeof run>>;
	try {
		const base: Policy = { cacheTtlMs: 0, cooldown: false, maxAttempts: 2 };
		without = await run(base);
		hedged = await run({ ...base, hedgeAfterMs });
	} finally {
		await primary.close();
		await secondary.close();
	}
	const b = summarize(without.latencies);
	const h = summarize(hedged.latencies);
	const numbers: HedgeNumbers = {
		p99Ratio: round(h.p99 / b.p99),
		extraRequestRate: round(hedged.secondary / requests),
		p50Ratio: round(h.p50 / b.p50),
		hedgeAfterMs,
		unhedgedP90Ms: round(b.p90),
		unhedgedP50Ms: round(b.p50),
		unhedgedP99Ms: round(b.p99),
		hedgedP50Ms: round(h.p50),
		hedgedP99Ms: round(h.p99),
		primaryAbortedRate: round(hedged.aborted / requests),
		requests,
	};
	const rows: Comparison[] = [
		{ label: `hedge at p90=${hedgeAfterMs}ms`, unit: "ms", oursName: "hedged", ours: h, baseName: "unhedged", base: b },
	];
	const goals: Goal[] = [
		{ goal: "hedge: p99 ≤ 0.5× of unhedged", measured: `${numbers.p99Ratio}×`, met: numbers.p99Ratio <= 0.5 },
		{
			goal: "hedge: ≤ 15 % extra requests",
			measured: `${round(numbers.extraRequestRate * 100)} %`,
			met: numbers.extraRequestRate <= 0.15,
		},
	];
	const notes = [
		`hedge: extra-request rate ${round(numbers.extraRequestRate * 100)} % (secondary calls per call); ` +
			`${round(numbers.primaryAbortedRate * 100)} % of primary answers were cut off; unhedged run sent ` +
			`${without.secondary} secondary requests`,
	];
	return { numbers, rows, goals, notes };
}
