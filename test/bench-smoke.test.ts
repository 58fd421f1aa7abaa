// Smoke test of `npm run bench`: every scenario function runs end to end with tiny sizes and returns well-formed
// numbers, so a broken benchmark shows up in `npm test`. Never asserts a timing.

import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { benchBrowser } from "../bench/browser.ts";
import { benchFetchScenario, FETCH_BENCH_FILE } from "../bench/fetch-scenario.ts";
import { generateConfig, generateRequests } from "../bench/generate.ts";
import { benchHedge } from "../bench/hedge.ts";
import { benchLoad } from "../bench/load.ts";
import { benchOverhead, undisturbed } from "../bench/overhead.ts";
import { benchPiStartup } from "../bench/pi-startup.ts";
import { benchRoute } from "../bench/route.ts";
import { formatTable } from "../bench/run.ts";
import { benchSources, loadCorpus } from "../bench/sources.ts";
import { generateCorpus } from "../bench/sources-corpus.ts";
import { benchStartup, forbiddenModules } from "../bench/startup.ts";
import { percentile, type ScenarioReport, summarize, timeBatches } from "../bench/stats.ts";
import { benchStore } from "../bench/store.ts";
import { redisAvailable } from "./helpers/redis-server.ts";

function wellFormed(report: ScenarioReport<object>): void {
	for (const row of report.rows) {
		for (const side of [row.ours, row.base]) {
			expect(side.n).toBeGreaterThan(0);
			expect(Number.isFinite(side.p50) && side.p50 >= 0).toBe(true);
			expect(side.p99).toBeGreaterThanOrEqual(side.p50);
		}
	}
	for (const goal of report.goals) expect(typeof goal.met).toBe("boolean");
	expect(formatTable(report.rows).split("\n")).toHaveLength(report.rows.length + 2);
}

describe("bench stats", () => {
	it("takes nearest-rank percentiles and summaries", () => {
		const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
		expect(percentile(sorted, 0.5)).toBe(50);
		expect(percentile(sorted, 0.99)).toBe(99);
		expect(summarize([3, 1, 2])).toMatchObject({ n: 3, p50: 2, min: 1, max: 3, mean: 2 });
	});

	it("times batches by calling the operation with a running counter", () => {
		const seen: number[] = [];
		const samples = timeBatches((i) => seen.push(i), { budgetMs: 1, warmupCalls: 3, maxBatches: 2 });
		expect(samples.length).toBeGreaterThan(0);
		expect(seen.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
	});
});

describe("bench scenarios with tiny sizes", () => {
	it("sources: the kept corpus is the generator's, and the scenario keeps every fact of the pages it reads", async () => {
		expect(loadCorpus()).toEqual(generateCorpus().sort((a, b) => (a.name < b.name ? -1 : 1)));
		const report = await benchSources({ pages: 3, delayMs: 1 });
		wellFormed(report);
		expect(report.numbers.pages).toBe(3);
		expect(report.numbers.factsSource.found).toBe(report.numbers.factsSource.of);
		expect(report.numbers.ratio).toBeGreaterThan(0);
	});

	it("route: generates 5 sites per rule, and plan() agrees with the oracle on the stream", async () => {
		const generated = generateConfig(20, 3);
		expect(generated.config.rules.filter((r) => r.sites).every((r) => r.sites?.length === 5)).toBe(true);
		expect(generateRequests(generated, 50).map((r) => r.kind)).toContain("fetch");
		const report = await benchRoute({ sizes: [10, 40], requests: 60, budgetMs: 5, warmupMs: 5, agreementChecks: 60 });
		wellFormed(report);
		expect(Object.keys(report.numbers.sizes)).toEqual(["10", "40"]);
		expect(report.numbers.sizes["40"]?.disagreements).toBe(0);
		expect(report.rows).toHaveLength(4);
	});

	it("load: loads the examples and a generated file without diagnostics, and once in a fresh process", async () => {
		const report = await benchLoad({ rules: 15, runs: 2, freshRuns: 1 });
		wellFormed(report);
		expect(report.numbers.diagnostics).toBe(0);
		expect(report.numbers.firstMs1000).toBeGreaterThan(0);
		expect(report.numbers.firstCpuMs1000).toBeGreaterThan(0);
		expect(report.numbers.firstNoOptMs1000).toBeGreaterThan(0);
		expect(report.notes.join("\n")).toMatch(/with V8's optimising compiler off \(--no-opt, median of 1,/);
		expect(report.numbers.firstPhasesMs?.imports).toBeGreaterThan(0);
		expect(report.notes.join("\n")).toMatch(/the first load of 15 rules in a fresh process \(median of 1\)/);
		expect(Object.keys(report.numbers.examplesMs)).toContain("minimal.json5");
		expect(report.goals).toEqual([]); // the goal is stated for 1,000 rules only
	}, 60_000);

	it("startup: the factory registers both tools and the command, and loads no HTML/PDF/provider module", async () => {
		const report = await benchStartup({ runs: 0, minRuns: 0, hostImports: false, piRuns: 0 });
		wellFormed(report);
		expect(report.numbers.modulesLoaded).toBeGreaterThan(0);
		expect(report.notes.join("\n")).toContain("registerTool(web_search, web_fetch)");
		expect(report.numbers.forbiddenLoaded).toBe(0);
		// The modules pi's own jiti reads for us at start-up (test/startup-modules.test.ts lists them).
		expect(report.numbers.piModules).toBe(2);
		// What loading it and running the factory as pi does allocates, jiti's cache warm (the same bytes each time).
		expect(report.numbers.piLoadKb).toBeGreaterThan(50);
		expect(report.notes.join("\n")).toMatch(/startup: loading it as pi does allocates \d+ KB \(jiti's cache warm\)/);
		expect(report.notes.join("\n")).toMatch(
			/startup: pi reads 2 of our files at start-up \(its jiti's modules and the data they read\): pi-web-access\/index\.ts, /,
		);
	}, 60_000);

	it("startup: whole pi runs, bare and with the extension and a realistic config, both finish and are compared", async () => {
		const { numbers, rows } = await benchPiStartup({ runs: 1 });
		expect(numbers.runs).toBe(1);
		expect(numbers.bareMs).toBeGreaterThan(0);
		expect(numbers.oursCpuMs).toBeGreaterThan(0);
		expect(numbers.ratio).toBeGreaterThan(0);
		// Runs in which V8 made a full (mark-compact) collection, read from --trace-gc: 0 or 1 of 1 run each.
		expect([0, 1]).toContain(numbers.bareFullGcRuns);
		expect([0, 1]).toContain(numbers.oursFullGcRuns);
		// The bytes a whole run allocates (one run a side, the same work every time): loading an extension and
		// registering its tools is more than bare pi allocates.
		expect(numbers.bareAllocatedKb).toBeGreaterThan(1000);
		expect(numbers.oursAllocatedKb).toBeGreaterThan(numbers.bareAllocatedKb);
		expect(rows.map((r) => r.label)).toEqual([
			"startup: whole pi run, wall (pi + pi-web-access)",
			"startup: whole pi run, CPU (pi + pi-web-access)",
		]);
	}, 120_000);

	it("startup: whole pi runs are set beside runs with an empty extension, which the scenario writes and removes", async () => {
		const before = readdirSync(tmpdir()).filter((name) => name.startsWith("pwa-bench-empty-ext-"));
		const report = await benchStartup({ runs: 0, minRuns: 0, hostImports: false, piRuns: 1 });
		wellFormed(report);
		expect(report.rows.map((r) => r.label)).toEqual([
			"startup: whole pi run, wall (pi + pi-web-access)",
			"startup: whole pi run, CPU (pi + pi-web-access)",
			"startup: whole pi run, wall (pi + an empty extension)",
			"startup: whole pi run, CPU (pi + an empty extension)",
		]);
		const idle = report.numbers.pi?.alternatives?.[0];
		expect(idle?.name).toBe("pi + an empty extension");
		expect(idle?.cpuMs).toBeGreaterThan(0);
		expect([0, 1]).toContain(idle?.fullGcRuns);
		expect(idle?.allocatedKb).toBeGreaterThan(report.numbers.pi?.bareAllocatedKb ?? Number.POSITIVE_INFINITY);
		expect(report.notes.join("\n")).toMatch(
			/startup: KB a whole run allocates \(one run a side, --predictable\): bare pi \d+, pi-web-access \+\d+, pi \+ an empty extension \+\d+/,
		);
		expect(report.notes[0]).toMatch(/^startup: pi \+ an empty extension alone runs [\d.]+× wall/);
		expect(report.notes[1]).toMatch(
			/^startup: runs with a full garbage collection: bare pi [01] of 1, pi-web-access [01] of 1, pi \+ an empty extension [01] of 1$/,
		);
		expect(readdirSync(tmpdir()).filter((name) => name.startsWith("pwa-bench-empty-ext-"))).toEqual(before);
	}, 120_000);

	it("startup: the module check names heavy packages and provider files, not the registry", () => {
		expect(
			forbiddenModules([
				"file:///r/node_modules/linkedom/esm/index.js",
				"file:///r/node_modules/@mozilla/readability/index.js",
				"file:///r/providers/registry.ts",
				"file:///r/providers/exa/provider.ts",
				"file:///r/engine/plan.ts",
			]),
		).toEqual(["@mozilla/readability", "linkedom", "providers/exa/provider.ts"]);
	});

	it("overhead: runs calls through the executor and raw undici against the loopback backend", async () => {
		const report = await benchOverhead({ requests: 32, concurrency: 8, rounds: 2, warmup: 4, serial: 8 });
		wellFormed(report);
		expect(report.numbers.requests).toBe(32);
		// Each round's paired p99 ratio and p50 difference, and their medians beside the pooled figures.
		expect(report.numbers.p99RatiosPerRound).toHaveLength(2);
		expect(report.numbers.p99RatioRounds).toBeGreaterThan(0);
		expect(report.numbers.addedP50MsPerRound).toHaveLength(2);
		expect(report.numbers.roundsCounted).toBeGreaterThanOrEqual(1);
		expect(report.numbers.roundsCounted).toBeLessThanOrEqual(2);
		expect(Number.isFinite(report.numbers.addedP50MsRounds)).toBe(true);
		expect(report.goals.find((goal) => goal.goal.includes("≤ 1 ms added at p50"))?.measured).toContain("rounds");
	});

	it("overhead: leaves out of the latency medians the rounds another process took the CPU from, unless most were", () => {
		// CPU share per round: process CPU time / wall time of its busier-waiting side.
		expect(undisturbed([1.02, 0.98, 0.5, 1, 0.99, 0.6, 1.01, 1])).toEqual([0, 1, 3, 4, 6, 7]);
		expect(undisturbed([0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 1])).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
	});

	it("hedge: runs both sides against the two backends; without hedging the secondary gets no request", async () => {
		const report = await benchHedge({ requests: 60, concurrency: 10, timeScale: 0.1 });
		wellFormed(report);
		expect(report.numbers.hedgeAfterMs).toBeGreaterThanOrEqual(1);
		expect(report.numbers.extraRequestRate).toBeGreaterThanOrEqual(0);
		expect(report.numbers.extraRequestRate).toBeLessThanOrEqual(1);
		expect(report.notes.join("\n")).toContain("unhedged run sent 0 secondary requests");
	});

	it("fetch: a missing bench/fetch.ts is reported as not available, not thrown", async () => {
		const report = await benchFetchScenario(join(FETCH_BENCH_FILE, "..", "absent-fetch.ts"));
		expect(report.numbers).toEqual({ available: false });
		expect(report.notes[0]).toContain("not available");
	});
	it("browser: renders the local SPA cold and warm beside bare playwright, and reads the pool's memory", async () => {
		const report = await benchBrowser({ coldRuns: 1, warmRuns: 2 });
		wellFormed(report);
		expect(report.rows).toHaveLength(2);
		expect(report.numbers.coldMs).toBeGreaterThan(0);
	}, 60_000);

	it("store: times a paid call's store operations, local against memory, with and without a reservation, and on Redis", async () => {
		const report = await benchStore({ calls: 200, processes: 3, callsEach: 50 });
		const redis = redisAvailable();
		expect(report.rows.map((row) => row.ours.n)).toEqual(redis ? [200, 200, 200] : [200, 200]);
		expect(report.numbers.localReserveP50Us).toBeGreaterThan(0);
		expect(report.goals).toHaveLength(redis ? 3 : 2);
		if (redis) {
			expect(report.numbers.redisPingP50Us).toBeGreaterThan(0);
			// One command a paid call, counted by Redis itself (the last call's reservation and settle follow it alone).
			expect(report.numbers.redisCommandsPerCall).toBeGreaterThanOrEqual(1);
			expect(report.numbers.redisCommandsPerCall).toBeLessThanOrEqual(1.01);
		} else expect(report.notes.join(" ")).toMatch(/redis-server is not installed/);
	}, 60_000);

	it("store: real processes make their paid calls at once on one store, and its ledger counts every call exactly", async () => {
		const report = await benchStore({ calls: 10, processes: 4, callsEach: 100 });
		expect(report.numbers).toMatchObject({ ledgerCalls: 400, ledgerExact: true });
		expect(report.numbers.throughputCallsPerS).toBeGreaterThan(0);
		expect(report.goals[1]).toMatchObject({ met: true });
	}, 60_000);
});
