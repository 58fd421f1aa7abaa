// Scenario "browser": the browser fetcher on a local single-page app (text written by script, more loaded by a
// fetch), against bare playwright-core on the same browser in the same run (launch, page, goto, serialise: no guard
// proxy, no settle, no extraction). Cold = launch + first render; warm = a render in a running browser; and the
// browser's memory with the page pool full.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium } from "playwright-core";
import { SharedBrowser } from "../providers/browser/driver.ts";
import { findBrowser } from "../providers/browser/find.ts";
import { treeMemoryMb } from "../providers/browser/memory.ts";
import { createBrowserProvider } from "../providers/browser/provider.ts";
import type { CallContext } from "../providers/contract.ts";
import { closeSharedConverter } from "../providers/direct/worker-pool.ts";
import { type Comparison, type Goal, nowMs, round, type ScenarioReport, summarize } from "./stats.ts";

export interface BrowserBenchOptions {
	coldRuns?: number;
	warmRuns?: number;
}

export interface BrowserBenchNumbers {
	coldMs: number;
	bareColdMs: number;
	warmP50Ms: number;
	warmP99Ms: number;
	bareWarmP50Ms: number;
	/** The browser's processes with maxPages renders at once (Linux /proc; NaN elsewhere). */
	poolFullMb: number;
	maxPages: number;
}

const GOALS = { warmP50Ms: 500, coldMs: 2500 };

const SPA = `<!doctype html><html><head><title>Release notes</title></head><body><div id="app"></div><script>
const app = document.getElementById("app");
app.innerHTML = "<main><h1>Release notes</h1>" + Array.from({ length: 12 }, (_, i) =>
	"<section><h2>Version 2." + i + "</h2><p>This release fixes the cache invalidation of incremental builds and " +
	"speeds up cold starts of the language server by reusing the module graph between runs.</p></section>").join("") +
	"</main>";
fetch("/api/latest").then((r) => r.json()).then((d) => {
	const p = document.createElement("p"); p.textContent = d.text; app.querySelector("main").appendChild(p);
});
</script></body></html>`;

function serve(): Promise<Server> {
	const server = createServer((req, res) => {
		if (req.url === "/api/latest") {
			res.setHeader("content-type", "application/json");
			res.end(JSON.stringify({ text: "Version 2.12 is the latest release, published today with its changelog." }));
			return;
		}
		res.setHeader("content-type", "text/html; charset=utf-8");
		res.end(SPA);
	});
	return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function call(): CallContext {
	const config = { name: "browser", type: "browser", options: {} };
	return {
		config,
		signal: new AbortController().signal,
		timeoutMs: 30_000,
		fetchGuard: { allowRanges: ["127.0.0.1/32"] },
	} as unknown as CallContext;
}

export async function benchBrowser(options: BrowserBenchOptions = {}): Promise<ScenarioReport<BrowserBenchNumbers>> {
	const executablePath = findBrowser(undefined).path;
	if (!executablePath) throw new Error("no Chrome or Chromium found: apt-get install -y chromium");
	const coldRuns = options.coldRuns ?? 5;
	const warmRuns = options.warmRuns ?? 40;
	const server = await serve();
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
	const request = { kind: "fetch" as const, url, offset: 0, maxChars: 20_000 };
	const cold: number[] = [];
	const bareCold: number[] = [];
	const warm: number[] = [];
	const bareWarm: number[] = [];
	let poolFullMb = Number.NaN;
	const maxPages = 4;
	try {
		for (let run = 0; run < coldRuns; run++) {
			const browser = new SharedBrowser();
			const provider = createBrowserProvider({ browser });
			let started = nowMs();
			const result = await provider.fetch!(request, call());
			cold.push(nowMs() - started);
			if (!result.content.includes("latest release")) throw new Error("the SPA rendered without its fetched text");
			if (run === 0) {
				for (let i = 0; i < warmRuns; i++) {
					started = nowMs();
					await provider.fetch!(request, call());
					warm.push(nowMs() - started);
				}
				browser.maxPages = maxPages;
				const samples: number[] = [];
				const pid = browser.state().pid;
				const renders = Array.from({ length: maxPages * 2 }, () => provider.fetch!(request, call()));
				const timer = setInterval(() => {
					if (pid !== undefined) samples.push(treeMemoryMb(pid, 0) ?? Number.NaN);
				}, 50);
				await Promise.all(renders);
				clearInterval(timer);
				poolFullMb = samples.length > 0 ? Math.max(...samples) : Number.NaN;
			}
			await browser.close();
			started = nowMs();
			const bare = await chromium.launch({ executablePath, args: process.getuid?.() === 0 ? ["--no-sandbox"] : [] });
			const context = await bare.newContext();
			const page = await context.newPage();
			await page.goto(url, { waitUntil: "networkidle" });
			await page.content();
			bareCold.push(nowMs() - started);
			if (run === 0) {
				for (let i = 0; i < warmRuns; i++) {
					started = nowMs();
					const fresh = await bare.newContext();
					const tab = await fresh.newPage();
					await tab.goto(url, { waitUntil: "networkidle" });
					await tab.content();
					await fresh.close();
					bareWarm.push(nowMs() - started);
				}
			}
			await bare.close();
		}
	} finally {
		server.close();
		await closeSharedConverter();
	}
	const coldSummary = summarize(cold);
	const warmSummary = summarize(warm);
	const numbers: BrowserBenchNumbers = {
		coldMs: coldSummary.p50,
		bareColdMs: summarize(bareCold).p50,
		warmP50Ms: warmSummary.p50,
		warmP99Ms: warmSummary.p99,
		bareWarmP50Ms: summarize(bareWarm).p50,
		poolFullMb,
		maxPages,
	};
	const rows: Comparison[] = [
		{
			label: "browser: cold launch + first render",
			unit: "ms",
			oursName: "ours",
			ours: coldSummary,
			baseName: "bare playwright",
			base: summarize(bareCold),
		},
		{
			label: "browser: warm render",
			unit: "ms",
			oursName: "ours",
			ours: warmSummary,
			baseName: "bare playwright (new context, networkidle)",
			base: summarize(bareWarm),
		},
	];
	const goals: Goal[] = [
		{
			goal: `browser: warm render of a small SPA ≤ ${GOALS.warmP50Ms} ms p50`,
			measured: `${round(numbers.warmP50Ms)} ms p50, ${round(numbers.warmP99Ms)} ms p99 (bare playwright ${round(numbers.bareWarmP50Ms)} ms)`,
			met: numbers.warmP50Ms <= GOALS.warmP50Ms,
		},
		{
			goal: `browser: cold launch + first render ≤ ${GOALS.coldMs} ms`,
			measured: `${round(numbers.coldMs)} ms median of ${cold.length} (bare playwright ${round(numbers.bareColdMs)} ms)`,
			met: numbers.coldMs <= GOALS.coldMs,
		},
	];
	const notes = [
		`browser ${executablePath}; the browser's processes with ${maxPages * 2} renders on a pool of ${maxPages}: ${round(poolFullMb)} MB (proportional set size, shared pages split)`,
		"ours includes the guard proxy, a fresh context per call, settling (network idle or DOM stable) and extraction in the worker; bare playwright waits for networkidle (500 ms of quiet)",
	];
	return { numbers, rows, goals, notes };
}
