// The concurrency scenario shared by test/concurrency.test.ts (200 calls) and its soak variant (thousands): many
// concurrent calls through the real stack against fake backends that are healthy, slow, stalling or failing per key,
// then checks that every call settled, results and attempts are coherent, and health and key-pool state agree with
// what the backends did. Memory is compared after a forced GC (see `collectGarbage`).

import { createHash } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect } from "vitest";
import { isWebAccessError } from "../../engine/errors.ts";
import type { Attempt, FetchResult, SearchResult } from "../../engine/result-types.ts";
import { fixture } from "../contract/provider-contract.ts";
import {
	activeResources,
	type FaultServer,
	leftoverResources,
	type Reply,
	type SeenRequest,
	startFaultServer,
} from "./fault-server.ts";
import { type Wired, wire } from "./wired.ts";

/** The keys and what their backend does with them. */
const KEYS = {
	tavily: ["cc-tavily-A-1111", "cc-tavily-B-2222"],
	exa: ["cc-exa-good-3333", "cc-exa-revoked-4444", "cc-exa-limited-5555"],
	brave: ["cc-brave-A-6666", "cc-brave-B-7777"],
	jina: ["cc-jina-good-8888", "cc-jina-broke-9999"],
};
const REVOKED = new Set([KEYS.exa[1]!, KEYS.jina[1]!]);
const LIMITED = new Set([KEYS.exa[2]!]);
const ALL_KEYS = Object.values(KEYS).flat();
const FETCH_URL = "https://docs.example.org/guides/isr-cache";
/** Of brave's answers, this share never comes (the step timeout ends them). */
const BRAVE_STALL_SHARE = 0.03;

/** Step timeouts: long enough that a healthy backend answers in time even when the CPU is the queue. */
export interface ScenarioTimeouts {
	timeoutMs: number;
	/** brave's, short so its stalls end soon. */
	braveTimeoutMs: number;
}

/**
 * A real GC without `--expose-gc` on the command line: V8 accepts the flag at run time and a fresh context then
 * exposes `gc`. Undefined when that is not possible; callers then compare after idle turns with a wider margin.
 */
export function collectGarbage(): (() => void) | undefined {
	try {
		setFlagsFromString("--expose-gc");
		const gc = runInNewContext("gc") as unknown;
		return typeof gc === "function" ? () => (gc as () => void)() : undefined;
	} catch {
		return undefined;
	}
}

function keyOf(request: SeenRequest): string | undefined {
	const seen = JSON.stringify(request.headers);
	return ALL_KEYS.find((key) => seen.includes(key));
}

function fingerprint(secret: string): string {
	return createHash("sha256").update(secret).digest("hex").slice(0, 16);
}

const jsonAnswer = (body: string, status = 200, headers: Record<string, string> = {}): Reply => ({
	kind: "answer",
	status,
	headers: { "content-type": "application/json", ...headers },
	body,
});
const errorBody = (text: string) => JSON.stringify({ error: text });
const delayed = (ms: number, reply: Reply): Reply => ({ kind: "delay", ms, reply });
/** Read once: the backends answer thousands of times. */
const BODIES = {
	exaSearch: fixture("exa/search_success.json"),
	exaContents: fixture("exa/contents_success_partial.json"),
	brave: fixture("brave/search_success.json"),
	searx: fixture("searxng/search_success.json"),
	jina: fixture("jina/reader_success.json"),
};

export interface Scenario {
	/** The stack the calls go through; `rewire()` replaces it with a fresh one (new executor, same backends). */
	wired: Wired;
	rewire(): void;
	servers: Record<"tavily" | "exa" | "brave" | "searx" | "jina", FaultServer>;
	close(): Promise<void>;
}

/** Starts the backends and wires a config over them. `random` drives delays and stalls (seeded by the caller). */
export async function startScenario(
	random: () => number,
	timeouts: ScenarioTimeouts = { timeoutMs: 10_000, braveTimeoutMs: 1500 },
): Promise<Scenario> {
	const { timeoutMs, braveTimeoutMs } = timeouts;
	const servers = {
		tavily: await startFaultServer(),
		exa: await startFaultServer(),
		brave: await startFaultServer(),
		searx: await startFaultServer(),
		jina: await startFaultServer(),
	};
	// Always down: every key fails with 500 (retried once per key), then the provider cools down.
	servers.tavily.reply(jsonAnswer(errorBody("upstream down"), 500));
	servers.exa.reply((request) => {
		const key = keyOf(request);
		if (key !== undefined && REVOKED.has(key)) return jsonAnswer(errorBody("invalid api key"), 401);
		if (key !== undefined && LIMITED.has(key)) return jsonAnswer(errorBody("slow down"), 429, { "retry-after": "1" });
		const body = request.path.endsWith("/contents") ? BODIES.exaContents : BODIES.exaSearch;
		return delayed(Math.floor(random() * 80), jsonAnswer(body));
	});
	servers.brave.reply(() =>
		random() < BRAVE_STALL_SHARE
			? { kind: "stall-headers" }
			: delayed(100 + Math.floor(random() * 500), jsonAnswer(BODIES.brave)),
	);
	servers.searx.reply(() => delayed(Math.floor(random() * 50), jsonAnswer(BODIES.searx)));
	servers.jina.reply((request) => {
		const key = keyOf(request);
		if (key !== undefined && REVOKED.has(key)) return jsonAnswer(errorBody("insufficient balance"), 402);
		return delayed(Math.floor(random() * 80), jsonAnswer(BODIES.jina));
	});
	const config = {
		providers: {
			tavily: { type: "tavily", baseUrl: servers.tavily.url, apiKey: KEYS.tavily, timeoutMs },
			exa: { type: "exa", baseUrl: servers.exa.url, apiKey: KEYS.exa, timeoutMs },
			brave: { type: "brave", baseUrl: servers.brave.url, apiKey: KEYS.brave, timeoutMs: braveTimeoutMs },
			searx: { type: "searxng", baseUrl: servers.searx.url, timeoutMs },
			jina: { type: "jina", baseUrl: servers.jina.url, apiKey: KEYS.jina, timeoutMs },
		},
		search: ["tavily", "exa", "brave", "searx"],
		fetch: ["jina", "exa"],
		// No result cache: every call reaches the backends, so state and memory are exercised per call.
		policy: { cacheTtlMs: 0 },
	};
	const scenario: Scenario = {
		wired: wire(config),
		rewire() {
			scenario.wired = wire(config);
		},
		servers,
		close: () => Promise.all(Object.values(servers).map((server) => server.close())).then(() => {}),
	};
	return scenario;
}

type Settled = { ok: true; result: SearchResult | FetchResult } | { ok: false; error: unknown } | { ok: "timeout" };

/** One call of the mix: the default search chain, a single named provider, or a fetch. Every 7th repeats a query. */
function call(scenario: Scenario, i: number): { promise: Promise<SearchResult | FetchResult>; mustSucceed: boolean } {
	const { wired } = scenario;
	const query = `concurrency probe ${i % 7 === 6 ? i - 1 : i}`;
	switch (i % 5) {
		case 3:
			// brave alone may stall into its timeout; searx alone always answers.
			return i % 2 === 0
				? { promise: wired.search({ query, provider: "brave" }), mustSucceed: false }
				: { promise: wired.search({ query, provider: "searx" }), mustSucceed: true };
		case 4:
			return { promise: wired.fetch({ url: `${FETCH_URL}?n=${i % 7 === 6 ? i - 1 : i}` }), mustSucceed: true };
		default:
			return { promise: wired.search({ query }), mustSucceed: true };
	}
}

/** Runs `calls` calls with at most `inFlight` at a time; each must settle before `settleWithinMs` (a liveness bound). */
export async function runCalls(scenario: Scenario, calls: number, inFlight: number, settleWithinMs: number) {
	const outcomes: Array<{ settled: Settled; mustSucceed: boolean }> = [];
	let next = 0;
	const worker = async () => {
		while (next < calls) {
			const i = next++;
			const { promise, mustSucceed } = call(scenario, i);
			let timer: NodeJS.Timeout | undefined;
			const watchdog = new Promise<Settled>((done) => {
				timer = setTimeout(() => done({ ok: "timeout" }), settleWithinMs);
			});
			const settled = await Promise.race([
				promise.then(
					(result): Settled => ({ ok: true, result }),
					(error: unknown): Settled => ({ ok: false, error }),
				),
				watchdog,
			]);
			clearTimeout(timer);
			outcomes.push({ settled, mustSucceed });
		}
	};
	await Promise.all(Array.from({ length: Math.min(inFlight, calls) }, worker));
	return outcomes;
}

function checkAttempts(attempts: Attempt[]): void {
	// A provider's requests in one call (its key rotations, a documented same-key retry) are one run of entries;
	// it never comes back later in the call, and no key is sent more than twice.
	const providers = attempts.map((attempt) => attempt.provider);
	const runs = providers.filter((provider, i) => provider !== providers[i - 1]);
	expect(new Set(runs).size, `a provider tried twice in one call: ${providers}`).toBe(runs.length);
	const sends = new Map<string, number>();
	for (const a of attempts) sends.set(`${a.provider}/${a.key}`, (sends.get(`${a.provider}/${a.key}`) ?? 0) + 1);
	expect(Math.max(...sends.values()), "a key sent more than twice in one call").toBeLessThanOrEqual(2);
	for (const attempt of attempts) expect(attempt.reason, "a placeholder reason survived").not.toBe("running");
	expect(attempts.filter((attempt) => attempt.outcome === "ok").length).toBeLessThanOrEqual(1);
}

/** Every call settled, results and failures are coherent, and no key shows up anywhere. */
export function checkOutcomes(outcomes: Awaited<ReturnType<typeof runCalls>>, calls: number): void {
	expect(outcomes.length).toBe(calls);
	expect(outcomes.filter((o) => o.settled.ok === "timeout").length, "calls that never settled").toBe(0);
	for (const { settled, mustSucceed } of outcomes) {
		if (settled.ok === true) {
			const { attempts } = settled.result;
			checkAttempts(attempts);
			const winner = attempts.find((attempt) => attempt.outcome === "ok" || attempt.outcome === "empty");
			expect(winner?.provider).toBe(settled.result.provider);
		} else if (settled.ok === false) {
			expect(mustSucceed, `a call that had a healthy provider failed: ${String(settled.error)}`).toBe(false);
			expect(isWebAccessError(settled.error)).toBe(true);
			if (isWebAccessError(settled.error)) checkAttempts(settled.error.attempts ?? []);
		}
		const visible = JSON.stringify(settled.ok === false ? String(settled.error) : settled);
		for (const key of ALL_KEYS) expect(visible.includes(key), "a key leaked").toBe(false);
	}
}

/** Health and key state agree with the backends: only failing keys are marked, only failing providers cooled. */
export function checkState(scenario: Scenario, startedAt: number): void {
	const { cooldowns, keys } = scenario.wired.services.executor.snapshot();
	const now = Date.now();
	expect(new Set(keys.map((k) => k.fingerprint)).size, "one state per key").toBe(keys.length);
	const exhausted = keys.filter((k) => k.state === "exhausted").map((k) => k.fingerprint);
	expect(exhausted.sort()).toEqual([...REVOKED].map(fingerprint).sort());
	const limited = keys.filter((k) => k.state === "rate-limited");
	for (const key of limited) {
		expect([...LIMITED].map(fingerprint)).toContain(key.fingerprint);
		expect(key.untilMs ?? 0).toBeGreaterThan(now - 1);
	}
	for (const entry of cooldowns) {
		expect(["tavily", "brave"]).toContain(entry.provider);
		expect(Number.isInteger(entry.failures) && entry.failures >= 1).toBe(true);
		expect(entry.untilMs).toBeGreaterThan(startedAt);
	}
	expect(cooldowns.map((c) => c.provider)).toContain("tavily");
}

/** After the run: a few more calls never use an exhausted key (no key is both exhausted and still handed out). */
export async function probeExhaustedKeys(scenario: Scenario, calls: number): Promise<void> {
	for (const server of Object.values(scenario.servers)) server.clear();
	for (let i = 0; i < calls; i++) {
		await scenario.wired.search({ query: `probe ${i}`, provider: "exa" });
		await scenario.wired.fetch({ url: `${FETCH_URL}?probe=${i}` });
	}
	const used = [...scenario.servers.exa.requests, ...scenario.servers.jina.requests].map(keyOf);
	expect(used.filter((key) => key !== undefined && REVOKED.has(key))).toEqual([]);
	expect(used.length).toBeGreaterThanOrEqual(2 * calls);
}

/** Nothing is left in flight and, with the idle keep-alive sockets closed, no resource remains. */
export async function checkNoLeftovers(scenario: Scenario, baseline: Record<string, number>): Promise<void> {
	for (const server of Object.values(scenario.servers)) expect(await server.settled()).toBe(true);
	for (const server of Object.values(scenario.servers)) server.dropIdle();
	expect(await leftoverResources(baseline)).toEqual({});
}

async function heapAfterCollecting(gc: (() => void) | undefined): Promise<number> {
	for (let turn = 0; turn < 3; turn++) {
		gc?.();
		await new Promise((done) => setTimeout(done, 20));
	}
	return process.memoryUsage().heapUsed;
}

/** Heap growth allowed after a forced GC; without a GC, idle turns leave garbage, so the margin is wider. */
const HEAP_MARGIN_BYTES = { gc: 12 * 1024 * 1024, idle: 48 * 1024 * 1024 };

export interface RoundOptions {
	calls: number;
	/** Calls in flight at once (the fast variant starts them all together). */
	inFlight: number;
	/** Liveness bound per call (not a speed assertion): step timeouts and retry pauses, with room for a busy CPU. */
	settleWithinMs: number;
	/** Records the unhandled rejections seen meanwhile. */
	unhandled: unknown[];
}

/**
 * One round: warm up (modules, JIT, keep-alive pools), take the resource and heap baselines with a fresh executor,
 * run the calls, check outcomes, state, exhausted keys, leftovers and heap growth. Returns a summary line.
 */
export async function concurrencyRound(scenario: Scenario, options: RoundOptions): Promise<string> {
	const { calls, inFlight, settleWithinMs } = options;
	const gc = collectGarbage();
	checkOutcomes(await runCalls(scenario, 40, 40, settleWithinMs), 40);
	for (const server of Object.values(scenario.servers)) expect(await server.settled()).toBe(true);
	for (const server of Object.values(scenario.servers)) {
		server.dropIdle();
		server.clear();
	}
	// A fresh executor: the run starts with no cooldown and no marked key, so it sees them happen concurrently.
	scenario.rewire();
	await new Promise((done) => setTimeout(done, 50));
	const resources = activeResources();
	const heapBefore = await heapAfterCollecting(gc);
	const startedAt = Date.now();

	checkOutcomes(await runCalls(scenario, calls, inFlight, settleWithinMs), calls);
	checkState(scenario, startedAt);
	const seen = Object.entries(scenario.servers).map(([name, server]) => `${name} ${server.requests.length}`);
	const { cooldowns, keys } = scenario.wired.services.executor.snapshot();
	await probeExhaustedKeys(scenario, 5);
	expect(options.unhandled).toEqual([]);
	await checkNoLeftovers(scenario, resources);

	const grown = (await heapAfterCollecting(gc)) - heapBefore;
	expect(grown).toBeLessThan(gc ? HEAP_MARGIN_BYTES.gc : HEAP_MARGIN_BYTES.idle);
	const heap = `${grown >= 0 ? "+" : ""}${(grown / 1024 / 1024).toFixed(1)} MB`;
	return (
		`${calls} calls (${inFlight} at once) settled; backends saw ${seen.join(", ")}; cooled ` +
		`${cooldowns.map((c) => c.provider).join(", ") || "none"}; keys ${keys.map((k) => `${k.label} ${k.state}`).join(", ")}; ` +
		`heap ${heap} after ${gc ? "a forced GC" : "idle turns (no GC available)"}`
	);
}
