// The team's result cache and in-flight dedupe on a real redis-server: "machines" (each its own executor, local store
// folder and Redis connection) asking the same search reach the backend once, a later machine reads the answer from
// Redis without a backend call, entries expire with the policy's TTL and are held to the count and byte caps, a result
// over the entry cap stays on its machine, and Redis killed mid-run never fails a call.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SearchResult } from "../engine/result-types.ts";
import { createLocalStore } from "../executor/store/local/store.ts";
import type { TeamCacheCaps } from "../executor/store/redis/cache.ts";
import { createRedisStore, type RedisStore } from "../executor/store/redis/store.ts";
import { type TeamCall, throughTeam } from "../executor/team-cache.ts";
import { storeIn } from "../runtime/team-store.ts";
import { type FakeServer, startFakeServer } from "./helpers/fake-server.ts";
import { type RedisServer, redisAvailable, startRedis } from "./helpers/redis-server.ts";
import { type Wired, wire } from "./helpers/wired.ts";

const root = join(import.meta.dirname, "..");
const success = readFileSync(join(root, "test", "fixtures", "providers", "exa", "search_success.json"), "utf8");
const contents = readFileSync(
	join(root, "test", "fixtures", "providers", "exa", "contents_success_partial.json"),
	"utf8",
);
const KEY = "sk-cache-5f4e3d2c-secret";
const available = redisAvailable();
let redis: RedisServer;
let exa: FakeServer;
const dirs: string[] = [];
const stores: RedisStore[] = [];
let team = 0;

beforeAll(async () => {
	exa = await startFakeServer();
	if (available) redis = await startRedis();
});
afterAll(async () => Promise.all([exa.close(), redis?.close()]));
afterEach(async () => {
	await Promise.all(stores.splice(0).map((store) => store.drain()));
	exa.reset();
	if (available) await redis.start();
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Machine extends Wired {
	store: RedisStore;
	ask(query: string): Promise<SearchResult>;
}

/** `n` machines of one team: each its own executor, local store folder and Redis store (the caps it is given). */
function machines(
	n: number,
	options: { caps?: Partial<TeamCacheCaps>; policy?: Record<string, unknown>; exa?: Record<string, unknown> } = {},
) {
	const prefix = `c${++team}:`;
	return Array.from({ length: n }, (): Machine => {
		const dir = mkdtempSync(join(tmpdir(), "pwa-team-cache-"));
		dirs.push(dir);
		const store = createRedisStore({
			url: redis.url,
			dir,
			local: createLocalStore(dir),
			prefix,
			...(options.caps ? { cache: options.caps } : {}),
		});
		stores.push(store);
		const config = {
			providers: { exa: { type: "exa", apiKey: KEY, baseUrl: exa.url, ...options.exa } },
			search: ["exa"],
			fetch: ["exa"],
			...(options.policy ? { policy: options.policy } : {}),
		};
		const wired = wire(config, { store });
		return { ...wired, store, ask: (query) => wired.search({ query }) };
	});
}

const answer = (delayMs = 0) => ({ body: success, headers: { "content-type": "application/json" }, delayMs });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** B asks what A asked `afterMs` before (A's call still running): B's answer and how long B took. */
async function askWhileRunning(a: Machine, b: Machine, query: string, afterMs: number) {
	const first = a.ask(query).catch((error: Error) => error);
	await sleep(afterMs);
	const started = Date.now();
	const second = await b.ask(query);
	const tookMs = Date.now() - started;
	return { first: await first, second, tookMs };
}

/** A call through the team cache as the executor makes one, answering `value` without a backend. */
function teamCall(key: string, value: unknown, secrets: string[]): TeamCall<unknown> {
	return {
		keys: [key],
		ttlMs: 60_000,
		deadlineMs: 60_000,
		signal: { aborted: false },
		decode: () => undefined,
		run: async () => value,
		shared: () => ({ key, value: () => value }),
		secrets: () => secrets,
	};
}

/** Waits until the machine's shared writes reached Redis (they are sent after the answer). */
async function settled(machine: Machine): Promise<void> {
	for (let i = 0; i < 50; i++) {
		const size = await machine.store.cacheSize();
		if (size !== undefined && size.entries > 0) return;
		await sleep(10);
	}
}

describe.skipIf(!available)("team result cache on a real Redis", () => {
	it("sends one backend call for a search two machines ask at once, and both get its answer", async () => {
		const [a, b] = machines(2);
		await Promise.all([a!.store.refresh(), b!.store.refresh()]);
		exa.respond(answer(300), answer(300));
		const [first, second] = await Promise.all([a!.ask("shared at once"), b!.ask("shared at once")]);
		expect(exa.requests).toHaveLength(1);
		expect(second.results).toEqual(first.results);
		expect([first.cached, second.cached].filter(Boolean)).toHaveLength(1);
	});

	it("answers a later machine's call from Redis, marked cached, and fills that machine's own cache", async () => {
		const [a, b] = machines(2);
		exa.respond(answer());
		const first = await a!.ask("asked later");
		await settled(a!);
		const later = await b!.ask("asked later");
		expect(exa.requests).toHaveLength(1);
		expect(later).toMatchObject({ cached: true, provider: "exa", results: first.results });
		await redis.kill();
		const again = await b!.ask("asked later");
		expect(again).toMatchObject({ cached: true, results: first.results });
		expect(exa.requests).toHaveLength(1);
	});

	it("shares a fetched page the same way: one backend call for two machines, the other's result cached", async () => {
		const [a, b] = machines(2);
		await Promise.all([a!.store.refresh(), b!.store.refresh()]);
		const page = { body: contents, headers: { "content-type": "application/json" }, delayMs: 300 };
		exa.respond(page, page);
		const url = "https://docs.example.org/guides/isr-cache";
		const [first, second] = await Promise.all([a!.fetch({ url }), b!.fetch({ url })]);
		expect(exa.requests).toHaveLength(1);
		expect(second.content).toBe(first.content);
		expect([first.cached, second.cached].filter(Boolean)).toHaveLength(1);
	});

	it("shares an answer whose process ends right after it (drain sends the queued share before closing)", async () => {
		const [a, b] = machines(2);
		await a!.store.refresh();
		const value = { provider: "exa", query: "q", results: [], attempts: [], warnings: [] };
		await throughTeam(a!.store, teamCall("last words", value, []));
		await a!.store.drain();
		await b!.store.refresh();
		expect(await b!.store.cacheSize()).toMatchObject({ entries: 1 });
	});

	it("lets a shared entry expire with the policy's cache TTL", async () => {
		const [a, b] = machines(2, { policy: { cacheTtlMs: 300 } });
		exa.respond(answer(), answer());
		await a!.ask("short lived");
		await settled(a!);
		await sleep(450);
		const late = await b!.ask("short lived");
		expect(late.cached).toBeUndefined();
		expect(exa.requests).toHaveLength(2);
	});

	it("holds the team's cache to its entry cap, dropping the soonest to expire first", async () => {
		const [a, b] = machines(2, { caps: { maxEntries: 3 } });
		exa.respond(...Array.from({ length: 6 }, () => answer()));
		for (let i = 0; i < 5; i++) await a!.ask(`capped ${i}`);
		await sleep(50);
		expect(await a!.store.cacheSize()).toMatchObject({ entries: 3, maxEntries: 3 });
		expect((await b!.ask("capped 4")).cached).toBe(true);
		expect((await b!.ask("capped 0")).cached).toBeUndefined();
		expect(exa.requests).toHaveLength(6);
	});

	it("holds the team's cache to its byte cap", async () => {
		const [a] = machines(1);
		exa.respond(answer());
		await a!.ask("one entry");
		await settled(a!);
		const one = (await a!.store.cacheSize())!.bytes;
		expect(one).toBeGreaterThan(100);
		const [c] = machines(1, { caps: { maxBytes: Math.floor(one * 2.5) } });
		exa.respond(...Array.from({ length: 4 }, () => answer()));
		for (let i = 0; i < 4; i++) await c!.ask(`by bytes ${i}`);
		await sleep(50);
		const size = (await c!.store.cacheSize())!;
		expect(size.entries).toBe(2);
		expect(size.bytes).toBeLessThanOrEqual(one * 2.5);
	});

	it("keeps a result larger than the entry cap on its own machine, and the other machine does not wait for it", async () => {
		const [a, b] = machines(2, { caps: { entryMaxBytes: 200 } });
		exa.respond(answer(200), answer());
		const { second, tookMs } = await askWhileRunning(a!, b!, "too big to share", 50);
		expect(second.cached).toBeUndefined();
		expect(exa.requests).toHaveLength(2);
		// B waited for A's answer, then went on at once when nothing was shared (its bound is seconds).
		expect(tookMs).toBeLessThan(1_500);
		expect(await a!.store.cacheSize()).toMatchObject({ entries: 0 });
		expect((await a!.ask("too big to share")).cached).toBe(true);
	});

	it("waits for another machine's run a tenth of the call's deadline at most, then asks the backend itself", async () => {
		// A 2 s deadline (the only step's timeout): B waits 200 ms for A's answer, which takes 1.2 s.
		const [a, b] = machines(2, { exa: { timeoutMs: 2_000 } });
		exa.respond(answer(1_200), answer());
		const { first, second, tookMs } = await askWhileRunning(a!, b!, "slow elsewhere", 100);
		expect(second.cached).toBeUndefined();
		expect(tookMs).toBeGreaterThanOrEqual(180);
		expect(tookMs).toBeLessThan(900);
		expect(first).toMatchObject({ provider: "exa" });
		expect(exa.requests).toHaveLength(2);
	});

	it("lets a waiting machine go on at once when the machine it waits for fails", async () => {
		const [a, b] = machines(2);
		exa.respond({ status: 400, body: "bad request", delayMs: 300 }, answer());
		const { first, second, tookMs } = await askWhileRunning(a!, b!, "fails elsewhere", 100);
		expect(first).toBeInstanceOf(Error);
		expect(second.provider).toBe("exa");
		expect(exa.requests).toHaveLength(2);
		// Its wait bound is 6 s (a tenth of exa's 60 s): it ended with A's failure, not with the bound.
		expect(tookMs).toBeLessThan(1_500);
	});

	it("shares no result when the config says store: { cache: false }, and still shares the day's spend", async () => {
		const config = {
			providers: { exa: { type: "exa", apiKey: KEY, baseUrl: exa.url } },
			search: ["exa"],
			store: { url: redis.url, cache: false },
		};
		const [a, b] = [0, 1].map(() => {
			const dir = mkdtempSync(join(tmpdir(), "pwa-team-nocache-"));
			dirs.push(dir);
			const store = storeIn({ PI_CODING_AGENT_DIR: dir }, config) as RedisStore;
			stores.push(store);
			return { store, wired: wire(config, { store }) };
		});
		exa.respond(answer(200), answer(200), answer(), answer());
		await Promise.all([a!.wired.search({ query: "at once" }), b!.wired.search({ query: "at once" })]);
		await a!.wired.search({ query: "later" });
		await sleep(50);
		const later = await b!.wired.search({ query: "later" });
		expect(exa.requests).toHaveLength(4);
		expect(later.cached).toBeFalsy();
		expect(await a!.store.cacheSize()).toBeUndefined();
		await sleep(50); // b's spend of its last call is sent on the next turn, with no call after it
		await a!.store.refresh();
		const team = a!.store.today().providers.find((entry) => entry.provider === "exa")?.usd ?? 0;
		expect(team).toBeCloseTo(4 * JSON.parse(success).costDollars.total, 10);
	});

	it("looks nothing up and marks nothing pending when the policy's cache TTL is 0", async () => {
		const [a, b] = machines(2, { policy: { cacheTtlMs: 0 } });
		await Promise.all([a!.store.refresh(), b!.store.refresh()]);
		exa.respond(answer(300), answer(300));
		const started = Date.now();
		await Promise.all([a!.ask("uncached"), b!.ask("uncached")]);
		// Side by side: neither waited for the other's answer.
		expect(Date.now() - started).toBeLessThan(550);
		expect(exa.requests).toHaveLength(2);
		expect(await a!.store.cacheSize()).toMatchObject({ entries: 0 });
	});

	it("shares nothing in which a key is found (a result the walk's masking missed)", async () => {
		const [a] = machines(1);
		const leaky = { provider: "exa", query: "q", results: [{ title: `echo ${KEY}` }], attempts: [], warnings: [] };
		const call = (value: unknown, secrets: string[]) =>
			throughTeam(a!.store, teamCall(`leak ${secrets.length}`, value, secrets));
		await call(leaky, [KEY]);
		await call({ ...leaky, results: [] }, []);
		await settled(a!);
		expect(await a!.store.cacheSize()).toMatchObject({ entries: 1 });
		expect(await redis.dumpAndFlush()).not.toContain(KEY);
	});

	it("lets the pending mark of a machine that died mid-call last 15 s at most, whatever the call's deadline", async () => {
		const [a] = machines(1, { exa: { timeoutMs: 120_000 } });
		exa.respond(answer(2_000));
		void a!.ask("dies mid-call").catch(() => undefined);
		for (let i = 0; i < 100 && exa.requests.length === 0; i++) await sleep(20);
		const { Redis } = await import("ioredis");
		const client = new Redis(redis.port, "127.0.0.1");
		try {
			const [mark] = await client.keys("c*:p:*");
			expect(mark).toBeDefined();
			const ttl = await client.pttl(mark!);
			expect(ttl).toBeGreaterThan(14_000);
			expect(ttl).toBeLessThanOrEqual(15_000);
		} finally {
			client.disconnect();
		}
	});

	it("never fails a call while Redis is killed mid-run, and never writes the key to it", async () => {
		const [a, b] = machines(2);
		exa.respond(...Array.from({ length: 12 }, () => answer(20)));
		const run = (m: Machine, i: number) => m.ask(`outage ${i}`);
		const before = await Promise.all([run(a!, 0), run(b!, 1)]);
		const during = Promise.all([run(a!, 2), run(b!, 3), run(a!, 4), run(b!, 5)]);
		await redis.kill();
		const results = [...before, ...(await during), ...(await Promise.all([run(a!, 6), run(b!, 7)]))];
		expect(results.map((r) => r.provider)).toEqual(Array(8).fill("exa"));
		await redis.start();
		await a!.ask("outage 0");
		expect(await redis.dumpAndFlush()).not.toContain(KEY);
	});
});
