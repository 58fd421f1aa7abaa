// Cancellation lanes for test/cancellation.test.ts and its soak variant: a chain of three real provider types (an exa
// key pool, an openai SSE stream, searxng) on their own fault servers, and a fast-check property that aborts one call
// at a random moment. Requests are observed through undici's `undici:request:create` diagnostics channel (read-only),
// so "no new request after the abort" is checked at the client, not guessed from server arrival times.

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import fc from "fast-check";
import { expect } from "vitest";
import { isWebAccessError } from "../../engine/errors.ts";
import type { Attempt } from "../../engine/result-types.ts";
import { fixture } from "../contract/provider-contract.ts";
import { type FaultServer, type Reply, startFaultServer } from "./fault-server.ts";
import { wire } from "./wired.ts";

const CREATE_CHANNEL = "undici:request:create";
/** Liveness bound per call (not a speed assertion): a stalled first step (1 s) and two slow ones. */
const SETTLE_WITHIN_MS = 15_000;

const BODIES = {
	exa: fixture("exa/search_success.json"),
	searx: fixture("searxng/search_success.json"),
	openaiEvents: fixture("openai/stream.sse")
		.split(/\n\n/)
		.filter((event) => event.trim() !== "")
		.map((event) => `${event}\n\n`),
};

/** Requests created by undici so far, per origin. */
const created = new Map<string, number>();
const onCreate = (message: unknown) => {
	const origin = String((message as { request?: { origin?: unknown } }).request?.origin ?? "");
	created.set(origin, (created.get(origin) ?? 0) + 1);
};

export function observeRequests(): () => void {
	subscribe(CREATE_CHANNEL, onCreate);
	return () => unsubscribe(CREATE_CHANNEL, onCreate);
}

export interface LaneCase {
	a: "fail" | "stall" | "ok";
	aDelayMs: number;
	b: "fail" | "stream";
	bEveryMs: number;
	c: "fail" | "ok";
	cDelayMs: number;
	/**
	 * When to abort: `afterMs` after the call started, or after the named backend received its first request (so
	 * every step is reached often); undefined: never (the call must still end cleanly).
	 */
	abort: { from: "start" | "a" | "b" | "c"; afterMs: number } | undefined;
}

export const laneCase: fc.Arbitrary<LaneCase> = fc.record({
	// Failing steps are likelier, so the later steps are reached (and aborted) often.
	a: fc.constantFrom("fail", "fail", "stall", "ok"),
	aDelayMs: fc.integer({ min: 0, max: 250 }),
	b: fc.constantFrom("fail", "fail", "stream"),
	bEveryMs: fc.integer({ min: 5, max: 60 }),
	c: fc.constantFrom("fail", "ok"),
	cDelayMs: fc.integer({ min: 0, max: 250 }),
	abort: fc.oneof(
		{
			weight: 4,
			arbitrary: fc.record({ from: fc.constant("start" as const), afterMs: fc.integer({ min: 0, max: 1800 }) }),
		},
		{
			weight: 4,
			arbitrary: fc.record({
				from: fc.constantFrom("a" as const, "b" as const, "c" as const),
				afterMs: fc.integer({ min: 0, max: 300 }),
			}),
		},
		{ weight: 1, arbitrary: fc.constant(undefined) },
	),
});

const json = (body: string, status = 200): Reply => ({
	kind: "answer",
	status,
	headers: { "content-type": "application/json" },
	body,
});
const failure = json(JSON.stringify({ error: "down" }), 500);

export interface Lane {
	servers: { a: FaultServer; b: FaultServer; c: FaultServer };
	/** Where each abort landed ("while b ran", "after the call settled", …), counted. */
	landed: Map<string, number>;
	cases: number;
	close(): Promise<void>;
}

export async function startLane(): Promise<Lane> {
	const servers = { a: await startFaultServer(), b: await startFaultServer(), c: await startFaultServer() };
	return {
		servers,
		landed: new Map(),
		cases: 0,
		close: () => Promise.all(Object.values(servers).map((server) => server.close())).then(() => {}),
	};
}

function createdFor(lane: Lane): number {
	return Object.values(lane.servers).reduce((sum, server) => sum + (created.get(server.url) ?? 0), 0);
}

function landing(attempts: Attempt[]): string {
	const running = attempts.find((attempt) => attempt.reason === "cancelled: by the caller");
	return running ? `while ${running.provider} ran` : "between or before steps";
}

/** One case: set the backends, start the call, abort it when the case says, and check what it left behind. */
export async function runLaneCase(lane: Lane, c: LaneCase): Promise<void> {
	const { a, b, c: third } = lane.servers;
	for (const server of Object.values(lane.servers)) server.clear();
	const controller = new AbortController();
	let abortedAt: number | undefined;
	let settled = false;
	let timer: NodeJS.Timeout | undefined;
	const armAbort = (ms: number) => {
		timer ??= setTimeout(() => {
			if (settled) return;
			abortedAt = createdFor(lane);
			controller.abort();
		}, ms);
	};
	/** The reply, arming the abort when this backend is the one the case waits for. */
	const replying = (name: "a" | "b" | "c", reply: Reply) => () => {
		if (c.abort?.from === name) armAbort(c.abort.afterMs);
		return reply;
	};
	a.reply(
		replying(
			"a",
			c.a === "stall"
				? { kind: "stall-headers" }
				: { kind: "delay", ms: c.aDelayMs, reply: c.a === "ok" ? json(BODIES.exa) : failure },
		),
	);
	b.reply(
		replying(
			"b",
			c.b === "fail"
				? { kind: "delay", ms: c.bEveryMs, reply: failure }
				: { kind: "trickle", contentType: "text/event-stream", pieces: BODIES.openaiEvents, everyMs: c.bEveryMs },
		),
	);
	third.reply(replying("c", { kind: "delay", ms: c.cDelayMs, reply: c.c === "ok" ? json(BODIES.searx) : failure }));
	const wired = wire({
		providers: {
			a: { type: "exa", baseUrl: a.url, apiKey: ["cx-a-one-1212", "cx-a-two-3434"], timeoutMs: 1000 },
			b: { type: "openai", baseUrl: b.url, apiKey: "cx-b-5656", timeoutMs: 5000 },
			c: { type: "searxng", baseUrl: third.url, timeoutMs: 5000 },
		},
		search: ["a", "b", "c"],
		policy: { cacheTtlMs: 0 },
	});

	if (c.abort?.from === "start") armAbort(c.abort.afterMs);
	let watchdog: NodeJS.Timeout | undefined;
	const outcome = await Promise.race([
		wired.search({ query: `cancel case ${lane.cases++}` }, { signal: controller.signal }).then(
			(result) => ({ ok: true as const, result }),
			(error: unknown) => ({ ok: false as const, error }),
		),
		new Promise<"unsettled">((done) => {
			watchdog = setTimeout(() => done("unsettled"), SETTLE_WITHIN_MS);
		}),
	]);
	settled = true;
	clearTimeout(timer);
	clearTimeout(watchdog);
	expect(outcome, "the call settles").not.toBe("unsettled");
	if (outcome === "unsettled") return;

	const attempts = outcome.ok ? outcome.result.attempts : isWebAccessError(outcome.error) ? outcome.error.attempts : [];
	for (const attempt of attempts ?? []) expect(attempt.reason).not.toBe("running");
	if (abortedAt !== undefined) {
		// Aborted before the call settled: it ends as cancelled, whatever was running.
		expect(outcome.ok, "an aborted call does not answer").toBe(false);
		expect(outcome.ok ? undefined : outcome.error).toMatchObject({ kind: "cancelled" });
	}
	const where =
		abortedAt !== undefined
			? landing(attempts ?? [])
			: timer === undefined
				? "never aborted"
				: "after the call settled";
	lane.landed.set(where, (lane.landed.get(where) ?? 0) + 1);
	// Every connection the call opened is closed: the servers saw each request end, stalls included.
	for (const [name, server] of Object.entries(lane.servers)) {
		expect(await server.settled(), `server ${name} still has a request open`).toBe(true);
	}
	if (abortedAt !== undefined) {
		// Nothing started after the abort: no new provider, no further key, no retry.
		expect(createdFor(lane) - abortedAt, "requests started after the abort").toBe(0);
	}
	const received = Object.values(lane.servers).reduce((sum, server) => sum + server.requests.length, 0);
	expect(received).toBeLessThanOrEqual(createdFor(lane));
}

/** Cases that land the abort in each place for certain (the random ones land there by chance). */
export const LANDING_EXAMPLES: LaneCase[] = [
	{ a: "stall", aDelayMs: 0, b: "stream", bEveryMs: 20, c: "ok", cDelayMs: 0, abort: { from: "start", afterMs: 0 } },
	{ a: "stall", aDelayMs: 0, b: "stream", bEveryMs: 20, c: "ok", cDelayMs: 0, abort: { from: "a", afterMs: 100 } },
	// Between a's same-key retries: the 500s come at once, the pause before the retry is 200 ms.
	{ a: "fail", aDelayMs: 0, b: "stream", bEveryMs: 20, c: "ok", cDelayMs: 0, abort: { from: "a", afterMs: 50 } },
	{ a: "fail", aDelayMs: 0, b: "stream", bEveryMs: 30, c: "ok", cDelayMs: 0, abort: { from: "b", afterMs: 100 } },
	{ a: "fail", aDelayMs: 0, b: "fail", bEveryMs: 5, c: "ok", cDelayMs: 250, abort: { from: "c", afterMs: 50 } },
];

/** Runs `numRuns` random cases on a lane, plus `examples` (fast-check shrinks a failing case). */
export async function runLane(lane: Lane, numRuns: number, seed: number, examples: LaneCase[] = []): Promise<void> {
	await fc.assert(
		fc.asyncProperty(laneCase, (c) => runLaneCase(lane, c)),
		{ numRuns, seed, endOnFailure: true, examples: examples.map((example) => [example]) },
	);
}
