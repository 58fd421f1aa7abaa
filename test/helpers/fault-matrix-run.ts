// The fault matrix runner: registers one test per fault that drives every row (provider type × capability) through
// the real stack (loader → plan → services → executor → provider → shared HTTP) against its own fault server, and
// checks class, decide(), cooldown, key rotation and key secrecy per case, and leftovers (requests, sockets, timers,
// rejections) per fault. Used by test/fault-matrix.test.ts (fast) and test/soak/fault-matrix.soak.test.ts.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Policy } from "../../engine/config-types.ts";
import { decide } from "../../engine/decide.ts";
import type { ErrorClass } from "../../engine/error-classes.ts";
import { isWebAccessError } from "../../engine/errors.ts";
import type { Attempt } from "../../engine/result-types.ts";
import { closeSharedBrowser } from "../../providers/browser/shared.ts";
import { fixture } from "../contract/provider-contract.ts";
import {
	type Expected,
	expectationFor,
	type Fault,
	FETCH_URL,
	OVER_CAP_BYTES,
	PAGE_FETCHERS,
	type Row,
	replyFor,
	rows,
} from "./fault-rows.ts";
import {
	activeResources,
	closedPort,
	type FaultServer,
	gzipBomb,
	leftoverResources,
	startFaultServer,
} from "./fault-server.ts";
import { fakePi, piKey, wire } from "./wired.ts";

/** Everything but bad-request falls back, so both decisions of decide() occur across the matrix. */
const POLICY: Policy = {
	fallbackOn: ["transport", "timeout", "rate-limit", "quota", "auth", "server", "parse"],
};
/** Failures that say something about the whole backend cool the provider (executor/health.ts). */
const COOLING: ReadonlySet<ErrorClass> = new Set(["transport", "timeout", "rate-limit", "quota", "auth", "server"]);
/** A rate-limited key without Retry-After rests about a minute (executor/keys.ts). */
const DEFAULT_KEY_REST_MS = 60_000;
/** Stalls must outlast the step timeout; every other fault gets time to spare on a busy machine. */
const STALL_TIMEOUT_MS = 1000;
const ROOMY_TIMEOUT_MS = 15_000;

/** Every registered provider type × each capability it has. */
export const ROWS: Row[] = rows();
/** Faults whose bodies inflate to megabytes on the client: a few rows at a time, and in `npm test` only one row per
 * body reader (shared send, shared SSE stream, gemini's buffered stream, direct's own reader); all rows in the soak. */
export const HEAVY_FAULTS: ReadonlySet<Fault> = new Set(["over-cap-streamed", "gzip-bomb"]);
export const HEAVY_SAMPLE_ROWS: ReadonlySet<string> = new Set([
	"exa-search",
	"openai-search",
	"gemini-search",
	"direct-fetch",
]);
const PI = fakePi({ provider: "openai", id: "gpt-5", api: "openai-responses" });

/** The servers and bookkeeping of one registered matrix. */
interface World {
	servers: Map<string, FaultServer>;
	backup: FaultServer;
	refused: string;
	bomb: Buffer;
}

function poolKeys(row: Row): string[] {
	return [`fm-${row.id}-key-ONE-7731`, `fm-${row.id}-key-TWO-7732`];
}

function secretsOf(row: Row): string[] {
	if (row.keys === "pool") return poolKeys(row);
	if (row.keys === "pi") return [piKey(row.type === "model" ? "openai" : "gw")];
	return [];
}

function configFor(world: World, row: Row, fault: Fault): Record<string, unknown> {
	const { backup, refused } = world;
	const server = world.servers.get(row.id)!;
	const timeoutMs = fault.startsWith("stall") ? (row.spec.stallTimeoutMs ?? STALL_TIMEOUT_MS) : ROOMY_TIMEOUT_MS;
	const p: Record<string, unknown> = { type: row.type, timeoutMs, ...row.config };
	if (!PAGE_FETCHERS.has(row.type)) p.baseUrl = fault === "refused" ? refused : server.url;
	if (row.keys === "pool") p.apiKey = poolKeys(row);
	const backupBase = `${backup.url}/${row.id}`;
	const fallback =
		row.capability === "search"
			? { type: "searxng", baseUrl: backupBase, timeoutMs: ROOMY_TIMEOUT_MS }
			: { type: "jina", baseUrl: backupBase, apiKey: "fm-backup-key-0009", timeoutMs: ROOMY_TIMEOUT_MS };
	return {
		providers: { p, backup: fallback },
		[row.capability]: ["p", "backup"],
		policy: POLICY,
		fetchGuard: { allowedRanges: ["127.0.0.0/8"] },
	};
}

/** How many requests the provider's server must have seen: key rotation multiplies them (no fault row is a
 * documented same-key retry; those are counted in executor-keys.test.ts). */
function expectedRequests(row: Row, expected: Expected): number {
	if (expected.outcome === "timeout" || expected.outcome === "ok") return 1;
	const pool = row.keys === "pool" ? 2 : row.keys === "pi" ? 1 : 0;
	if (pool === 0) return 1;
	if (expected.verdict === "rate-limited" || expected.verdict === "exhausted") return pool;
	if (expected.verdict === "retry-same-key") return pool * 2;
	return 1;
}

function keyUsed(row: Row, headers: Record<string, string>, path: string): string | undefined {
	const seen = JSON.stringify(headers) + path;
	return secretsOf(row).find((secret) => seen.includes(secret));
}

async function runCase(world: World, row: Row, fault: Fault, expected: Expected): Promise<void> {
	const { backup, refused } = world;
	const server = world.servers.get(row.id)!;
	server.clear();
	const backupSeen = () => backup.requests.filter((r) => r.path.startsWith(`/${row.id}/`)).length;
	const backupBefore = backupSeen();
	const reply = replyFor(row, fault, world.bomb);
	if (reply) server.reply(reply);
	const wired = wire(configFor(world, row, fault), { pi: PI });
	const progress: string[] = [];
	const startedAt = Date.now();
	const url = PAGE_FETCHERS.has(row.type) ? `${fault === "refused" ? refused : server.url}/page` : FETCH_URL;
	const call =
		row.capability === "search"
			? wired.search({ query: "fault matrix probe", maxResults: 5 }, { onProgress: (line) => progress.push(line) })
			: wired.fetch({ url }, { onProgress: (line) => progress.push(line) });
	const settled = await call.then(
		(result) => ({ result, error: undefined }),
		(error: unknown) => ({ result: undefined, error }),
	);
	const endedAt = Date.now();
	const { result, error } = settled;
	const attempts: Attempt[] = result?.attempts ?? (isWebAccessError(error) ? (error.attempts ?? []) : []);
	const first = attempts[0];
	const backupHits = backupSeen() - backupBefore;
	const decision =
		expected.outcome === "ok" ? "accept" : decide({ outcome: "error", errorClass: expected.outcome }, POLICY);

	if (expected.outcome === "ok") {
		expect(first, `the provider answers: ${JSON.stringify(first)}`).toMatchObject({ provider: "p", outcome: "ok" });
		expect(result?.warnings.join(" "), "and says the page was cut").toMatch(/cut at the cap/);
	} else {
		expect(first?.provider).toBe("p");
		expect(first?.reason, "the attempt carries the documented class").toMatch(new RegExp(`^${expected.outcome}: `));
	}
	if (decision === "next") {
		expect(result?.provider, `decide() says next: the backup answers (${String(error)})`).toBe("backup");
		expect(backupHits, "the backup is asked once").toBe(1);
	} else {
		expect(backupHits, "no further provider is contacted").toBe(0);
		if (decision === "stop") expect(error).toMatchObject({ kind: "chain", code: "stopped" });
	}

	const snapshot = wired.services.executor.snapshot();
	const cooled = snapshot.cooldowns.some((c) => c.provider === "p");
	// direct talks to a different site per call, so it is never cooled (definition.perSite).
	expect(cooled, "cooled exactly when the class is provider-wide (and the provider is not per-site)").toBe(
		!PAGE_FETCHERS.has(row.type) && expected.outcome !== "ok" && COOLING.has(expected.outcome),
	);
	if (fault !== "refused") {
		// A browser also asks for the site's icon on its own, and direct for a host's llms.txt once an hour beside a
		// page (providers/direct/markdown-twins.ts): neither is a request of the fetch.
		const aside = (path: string) =>
			(row.type === "browser" && path === "/favicon.ico") || (row.type === "direct" && path === "/llms.txt");
		const sent = server.requests.filter((r) => !aside(r.path));
		expect(sent.length, "requests the provider's server saw").toBe(expectedRequests(row, expected));
		const own = attempts.filter((a) => a.provider === "p");
		expect(own.length, "attempts show each request the provider was sent").toBe(sent.length);
	}
	const used = server.requests.map((r) => keyUsed(row, r.headers, r.path));
	if (row.keys !== "none") expect(used.includes(undefined), "a request went out without its key").toBe(false);
	const marks = snapshot.keys.filter((k) => k.state === "rate-limited" || k.state === "exhausted");
	expect(new Set(snapshot.keys.map((k) => k.fingerprint)).size, "one state per key").toBe(snapshot.keys.length);
	const rests = expected.verdict === "rate-limited" || expected.verdict === "exhausted";
	if (row.keys !== "none" && rests && expected.outcome !== "timeout") {
		const state = expected.verdict === "rate-limited" ? "rate-limited" : "exhausted";
		expect(marks.map((k) => k.state)).toEqual(row.keys === "pool" ? [state, state] : [state]);
		if (row.keys === "pool") expect(new Set(used).size, "the second key was tried").toBe(2);
		if (state === "rate-limited") {
			const restMs = expected.retryAfterMs ?? DEFAULT_KEY_REST_MS;
			for (const mark of marks) {
				expect(mark.untilMs).toBeGreaterThanOrEqual(startedAt + restMs);
				expect(mark.untilMs).toBeLessThanOrEqual(endedAt + restMs);
			}
		}
	} else {
		expect(marks, "no key is marked").toEqual([]);
		if (row.keys === "pool" && expected.verdict === "retry-same-key" && fault !== "refused") {
			expect(used[0], "the same key is retried once").toBe(used[1]);
			expect(used[2]).toBe(used[3]);
			expect(used[0], "then the next key").not.toBe(used[2]);
		}
	}
	const visible = JSON.stringify({ result, message: (error as Error | undefined)?.message, attempts, progress });
	for (const secret of secretsOf(row)) expect(visible.includes(secret), "a key leaked").toBe(false);
}

async function inBatches<T>(
	items: T[],
	size: number,
	run: (item: T) => Promise<void>,
): Promise<PromiseSettledResult<void>[]> {
	const out: PromiseSettledResult<void>[] = [];
	for (let i = 0; i < items.length; i += size)
		out.push(...(await Promise.allSettled(items.slice(i, i + size).map(run))));
	return out;
}

export interface MatrixOptions {
	faults: readonly Fault[];
	/** The rows a fault runs on (default: all). */
	rowsFor?: (fault: Fault) => Row[];
}

/** Registers the matrix as one describe block with a test per fault; prints what it covered. */
export function describeFaultMatrix(title: string, options: MatrixOptions): void {
	const rowsFor = options.rowsFor ?? (() => ROWS);
	const used = new Map(options.faults.flatMap((fault) => rowsFor(fault)).map((row) => [row.id, row]));
	const world = { servers: new Map<string, FaultServer>() } as World;
	const unhandled: unknown[] = [];
	const onUnhandled = (reason: unknown) => unhandled.push(reason);
	const covered: string[] = [];
	const skipped: string[] = [];

	describe(title, () => {
		beforeAll(async () => {
			process.on("unhandledRejection", onUnhandled);
			for (const id of used.keys()) world.servers.set(id, await startFaultServer());
			world.backup = await startFaultServer();
			world.backup.reply((request) => ({
				kind: "answer",
				headers: { "content-type": "application/json" },
				body: request.path.includes("/search?")
					? fixture("searxng/search_success.json")
					: fixture("jina/reader_success.json"),
			}));
			world.refused = await closedPort();
			world.bomb = gzipBomb(4 * OVER_CAP_BYTES);
		});

		afterAll(async () => {
			process.off("unhandledRejection", onUnhandled);
			await Promise.all([...world.servers.values(), world.backup].map((server) => server.close()));
			const types = new Set([...used.values()].map((row) => row.type)).size;
			console.log(
				`${title}: ${options.faults.length} faults × ${types} provider types (${used.size} type × capability rows): ` +
					`${covered.length} cases covered, ${skipped.length} combinations that cannot apply skipped`,
			);
			if (skipped.length > 0) console.log(`${title}, skipped:\n  ${skipped.join("\n  ")}`);
		});

		it.each(options.faults)(
			"%s: documented class, decide() followed, cooled and keys rotated as classified, nothing left over",
			async (fault) => {
				const baseline = activeResources();
				const cases: Array<{ row: Row; expected: Expected }> = [];
				for (const row of rowsFor(fault)) {
					const expected = expectationFor(row, fault);
					if ("skip" in expected) skipped.push(`${row.id} × ${fault}: ${expected.skip}`);
					else cases.push({ row, expected });
				}
				const batch = HEAVY_FAULTS.has(fault) ? 4 : cases.length;
				const outcomes = await inBatches(cases, batch, ({ row, expected }) => runCase(world, row, fault, expected));
				const failures = outcomes.flatMap((outcome, i) =>
					outcome.status === "rejected" ? [`${cases[i]!.row.id}: ${(outcome.reason as Error).message}`] : [],
				);
				expect(failures).toEqual([]);
				covered.push(...cases.map(({ row }) => `${row.id} × ${fault}`));

				// Every request the clients started has been closed by them: nothing is still in flight.
				for (const [id, server] of world.servers) {
					expect(await server.settled(), `${id}: a request left open`).toBe(true);
				}
				expect(unhandled).toEqual([]);
				// The shared keep-alive Agent keeps idle sockets for 30 s; closing them from the servers' end lets the
				// resource count return to the baseline, so whatever is left (socket, timer, handle) is a real leak.
				for (const server of [...world.servers.values(), world.backup]) server.dropIdle();
				// The browser fetcher's browser lives until it idles, by design: closed here, what is left is a leak.
				await closeSharedBrowser();
				expect(await leftoverResources(baseline)).toEqual({});
			},
		);
	});
}
