// The team store (executor/store/redis/) against a real redis-server on loopback: two "machines" (each its own
// local store folder) share spend, budgets and marks through it; Redis killed and restarted costs no call more
// than the store's timeout, is said once, and the spend made meanwhile is counted once on reconnection.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLocalStore } from "../executor/store/local/store.ts";
import { REDIS_DEFAULTS } from "../executor/store/redis/client.ts";
import { createRedisStore, type RedisStore } from "../executor/store/redis/store.ts";
import { redactStoreUrl } from "../executor/store/redis/url.ts";
import { type RedisServer, redisAvailable, startRedis } from "./helpers/redis-server.ts";

const available = redisAvailable();
let redis: RedisServer;
const dirs: string[] = [];
const stores: RedisStore[] = [];
let team = 0;

beforeAll(async () => {
	if (available) redis = await startRedis();
});
afterAll(async () => redis?.close());
afterEach(async () => {
	await Promise.all(stores.splice(0).map((store) => store.drain()));
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** `n` machines sharing one team prefix, each with a local store of its own. */
function machines(n: number, url = redis.url): RedisStore[] {
	const prefix = `t${++team}:`;
	return Array.from({ length: n }, () => {
		const dir = mkdtempSync(join(tmpdir(), "pwa-team-"));
		dirs.push(dir);
		const store = createRedisStore({ url, dir, local: createLocalStore(dir), prefix });
		stores.push(store);
		return store;
	});
}

const usdOf = (store: RedisStore, provider = "exa") =>
	store.today().providers.find((entry) => entry.provider === provider)?.usd ?? 0;

describe.skipIf(!available)("team store on a real Redis", () => {
	it("adds every machine's spend into the team's today, each counted once however often it is pushed", async () => {
		const [a, b] = machines(2);
		await Promise.all([a!.refresh(), b!.refresh()]);
		for (let i = 0; i < 3; i++) a!.settle("exa", 0.01, false);
		b!.settle("exa", 0.005, false);
		await a!.refresh();
		await a!.refresh();
		await b!.refresh();
		expect(usdOf(b!)).toBeCloseTo(0.035, 10);
		expect(b!.health().spend?.machine).toEqual([{ provider: "exa", usd: 0.005, calls: 1 }]);
		expect(b!.health().spend?.team.find((e) => e.provider === "exa")?.calls).toBe(4);
	});

	it("refuses a reservation once the team's spend and held prices reach a day budget, saying it is the team's", async () => {
		const [a, b] = machines(2);
		await Promise.all([a!.refresh(), b!.refresh()]);
		for (let i = 0; i < 2; i++) {
			const held = a!.reserve({ provider: "exa", usd: 0.02, providerDayUsd: 0.05 });
			expect(held.granted).toBe(true);
			a!.settle("exa", 0.02, false, held.granted ? held.id : undefined);
		}
		// $0.04 settled and $0.02 in flight on machine A: B, alone with $0 spent, is over the $0.05 budget.
		const inFlight = a!.reserve({ provider: "exa", usd: 0.02, providerDayUsd: 0.05 });
		expect(inFlight.granted).toBe(true);
		await a!.refresh();
		await b!.refresh();
		const refused = b!.reserve({ provider: "exa", usd: 0.02, providerDayUsd: 0.05 });
		expect(refused).toEqual({ granted: false, reason: expect.stringMatching(/budget reached: .* over the team/) });
		expect(b!.reserve({ provider: "exa", usd: 0.02, totalDayUsd: 1 }).granted).toBe(true);
	});

	it("hands a cooldown and an exhausted key set on one machine to the other at its next refresh", async () => {
		const [a, b] = machines(2);
		await Promise.all([a!.refresh(), b!.refresh()]);
		const untilMs = Date.now() + 60_000;
		a!.putCooldown({ provider: "exa", untilMs, failures: 1, reason: "429" });
		a!.putKey({ fingerprint: "fp-1a2b", label: "key 1", state: "exhausted" });
		// A's pull follows its marks on the same connection, so once it answers they are in Redis.
		await a!.refresh();
		await b!.refresh();
		const changes = b!.sync();
		expect(changes.cooldowns).toEqual([{ provider: "exa", untilMs, failures: 1, reason: "429" }]);
		expect(changes.keys).toEqual([{ fingerprint: "fp-1a2b", label: "key 1", state: "exhausted" }]);
		await b!.refresh();
		expect(b!.sync()).toEqual({ cooldowns: [], keys: [] });
	});

	it("goes on with the local store while Redis is down, says so once, and counts the spend made meanwhile once back", async () => {
		const [a, b] = machines(2);
		await Promise.all([a!.refresh(), b!.refresh()]);
		a!.settle("exa", 0.01, false);
		await redis.kill();
		const started = Date.now();
		await a!.refresh();
		expect(Date.now() - started).toBeLessThan(REDIS_DEFAULTS.timeoutMs + 150);
		expect(a!.notice()).toMatch(/team store redis:\/\/127\.0\.0\.1:\d+ unreachable .*this machine's store/);
		a!.settle("exa", 0.01, false);
		await a!.refresh();
		expect(a!.notice()).toBeUndefined();
		expect(a!.health()).toMatchObject({ kind: "redis", state: "degraded" });
		expect(usdOf(a!)).toBeCloseTo(0.02, 10);
		await redis.start();
		for (let i = 0; i < 50 && a!.health().state !== "ok"; i++) {
			await a!.refresh();
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		expect(a!.notice()).toMatch(/reachable again/);
		await b!.refresh();
		expect(usdOf(b!)).toBeCloseTo(0.02, 10);
	});
});

/** The scripts the server has run so far (EVALSHA and EVAL calls in INFO commandstats). */
async function scriptsRun(): Promise<number> {
	const { Redis } = await import("ioredis");
	const client = new Redis(redis.port, "127.0.0.1");
	try {
		const stats = await client.info("commandstats");
		let calls = 0;
		for (const [, n] of stats.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)) calls += Number(n);
		return calls;
	} finally {
		client.disconnect();
	}
}

describe.skipIf(!available)("team store: Redis on the call path", () => {
	it("sends one command per paid call: its reservation and settle ride in the next call's pull", async () => {
		const [a, b] = machines(2);
		await Promise.all([a!.refresh(), b!.refresh()]);
		const before = await scriptsRun();
		for (let i = 0; i < 50; i++) {
			await a!.refresh();
			const held = a!.reserve({ provider: "exa", usd: 0.01, totalDayUsd: 100 });
			a!.settle("exa", 0.01, false, held.granted ? held.id : undefined);
		}
		await a!.refresh();
		// 51 pulls and nothing else (a hold and a settle of their own each before).
		expect((await scriptsRun()) - before).toBe(51);
		await b!.refresh();
		expect(usdOf(b!)).toBeCloseTo(0.5, 10);
		expect(b!.health().spend?.team.find((e) => e.provider === "exa")?.calls).toBe(50);
	});

	it("sends a settle no call follows on the next turn of the event loop, and a hold while its call is in flight", async () => {
		const [a, b] = machines(2);
		await Promise.all([a!.refresh(), b!.refresh()]);
		const held = a!.reserve({ provider: "exa", usd: 0.05, providerDayUsd: 0.05 });
		await new Promise((resolve) => setTimeout(resolve, 50));
		await b!.refresh();
		expect(b!.reserve({ provider: "exa", usd: 0.01, providerDayUsd: 0.05 }).granted).toBe(false);
		a!.settle("exa", 0.05, false, held.granted ? held.id : undefined);
		await new Promise((resolve) => setTimeout(resolve, 50));
		await b!.refresh();
		expect(usdOf(b!)).toBeCloseTo(0.05, 10);
	});
});

describe.skipIf(!available)("team store: a stalled Redis", () => {
	it("costs a call at most the store's timeout once, none while it stays stalled, and is used again once it answers", async () => {
		const [a] = machines(1);
		await a!.refresh();
		redis.pause();
		try {
			let started = Date.now();
			await a!.refresh();
			expect(Date.now() - started).toBeLessThan(REDIS_DEFAULTS.timeoutMs + 150);
			expect(a!.notice()).toMatch(/unreachable/);
			a!.settle("exa", 0.01, false);
			started = Date.now();
			await a!.refresh();
			// Known stalled: the next call does not wait for it at all.
			expect(Date.now() - started).toBeLessThan(50);
			expect(a!.health().state).toBe("degraded");
		} finally {
			redis.resume();
		}
		for (let i = 0; i < 50 && a!.health().state !== "ok"; i++) {
			await a!.refresh();
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		expect(a!.health().state).toBe("ok");
		expect(a!.notice()).toMatch(/reachable again/);
	});
});

describe.skipIf(!available)("team store secrets", () => {
	it("says a refused password without showing it, and shows the URL with its userinfo masked", async () => {
		const locked = await startRedis({ password: "s3cret-pass-word" });
		try {
			const url = `redis://admin:wrong-pass-9z8y@127.0.0.1:${locked.port}`;
			const [a] = machines(1, url);
			await a!.refresh();
			await a!.refresh();
			const health = a!.health();
			const said = JSON.stringify([health, a!.notice()]);
			expect(health.location).toBe(`redis://***@127.0.0.1:${locked.port}`);
			expect(said).toMatch(/WRONGPASS|NOAUTH|password/i);
			expect(said).not.toContain("wrong-pass-9z8y");
			expect(said).not.toContain("admin");
		} finally {
			await locked.close();
		}
	});

	it("masks userinfo in every URL form it may be given", () => {
		expect(redactStoreUrl("rediss://:pw@cache.example:6380/2")).toBe("rediss://***@cache.example:6380/2");
		expect(redactStoreUrl("redis://user:pw@h")).toBe("redis://***@h");
		expect(redactStoreUrl("redis://h:1")).toBe("redis://h:1");
		expect(redactStoreUrl("redis//user:pw@h")).toBe("(not a URL)");
	});
});
