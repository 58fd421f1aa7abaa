import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliWorld } from "./helpers/cli-world.ts";
import { type FakeServer, startFakeServer } from "./helpers/fake-server.ts";
import { type RedisServer, redisAvailable, startRedis } from "./helpers/redis-server.ts";

const root = join(import.meta.dirname, "..");
const success = readFileSync(join(root, "test", "fixtures", "providers", "exa", "search_success.json"), "utf8");
const tavilyBody = readFileSync(join(root, "test", "fixtures", "providers", "tavily", "search_success.json"), "utf8");
const PRICE = 0.008; // costDollars.total of the fixture, reported by the backend
const KEY = "sk-team-9a8b7c6d-secret";
const available = redisAvailable();
const homes: string[] = [];
let redis: RedisServer;
let exa: FakeServer;
let tavily: FakeServer;

beforeAll(async () => {
	[exa, tavily] = await Promise.all([startFakeServer(), startFakeServer()]);
	if (available) redis = await startRedis();
});
afterAll(async () => Promise.all([exa.close(), tavily.close(), redis?.close()]));
afterEach(async () => {
	exa.reset();
	tavily.reset();
	if (available) {
		await redis.start(); // after the outage test: running again for the next
		await redis.dumpAndFlush();
	}
	for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** One machine: a HOME of its own; the team store from the config (`url`) or from the environment (`envUrl`). */
function machine(options: { url?: string; envUrl?: string; extra?: Record<string, unknown> } = {}) {
	const providers = {
		exa: { type: "exa", apiKey: KEY, baseUrl: exa.url },
		tavily: { type: "tavily", apiKey: "tvly-team-1a2b3c4d", baseUrl: tavily.url },
	};
	const store = options.url === undefined ? {} : { store: { url: options.url } };
	const env: Record<string, string> = options.envUrl === undefined ? {} : { PI_WEB_ACCESS_STORE_URL: options.envUrl };
	return cliWorld(homes, { providers, search: ["exa"], ...store, ...options.extra }, env, "pwa-team-");
}

const answers = (n: number, usd = PRICE) => {
	const body = JSON.stringify({ ...JSON.parse(success), costDollars: { total: usd } });
	return Array.from({ length: n }, () => ({ body, headers: { "content-type": "application/json" } }));
};
type Entry = { provider: string; usd: number; calls: number };
const exaOf = (entries: Entry[] | undefined) => entries?.find((entry) => entry.provider === "exa");

describe.skipIf(!available)("team store across machines", () => {
	it("keeps every machine's spend: 4 machines × 3 paid searches → the team's ledger holds 12 × the price", async () => {
		// Two machines name the team store in their config, two in the environment.
		const machines = [0, 1, 2, 3].map((k) => machine(k % 2 === 0 ? { url: redis.url } : { envUrl: redis.url }));
		exa.respond(...answers(12));
		await Promise.all(
			machines.map(async (m, k) => {
				for (let i = 0; i < 3; i++) {
					const run = await m.cli(["search", "--json", `team ${k} ${i}`]);
					expect(run.code, run.stderr).toBe(0);
				}
			}),
		);
		expect(exa.requests).toHaveLength(12);
		const report = await machines[1]!.status();
		expect(report.store).toMatchObject({ kind: "redis", state: "ok", location: redis.url });
		expect(exaOf(report.store.spend.team)?.usd).toBeCloseTo(12 * PRICE, 9);
		expect(exaOf(report.store.spend.team)?.calls).toBe(12);
		expect(exaOf(report.store.spend.machine)?.usd).toBeCloseTo(3 * PRICE, 9);
		expect(report.spend.providers.find((p: { provider: string }) => p.provider === "exa")?.todayUsd).toBeCloseTo(
			12 * PRICE,
			9,
		);
		const text = (await machines[0]!.cli(["status"])).stdout;
		expect(text).toMatch(/state store: redis \(redis:\/\/127\.0\.0\.1:\d+\), ok · shared by every machine using it/);
		expect(text).toMatch(/today: this machine \$0\.024 · team \$0\.096/);
		// Only fingerprints and amounts reach Redis: never a key.
		const held = await redis.dumpAndFlush();
		expect(held).toContain("spend:");
		expect(held).not.toContain(KEY);
		expect(held).not.toContain("tvly-team");
	}, 90_000);

	it("shares results: three machines asking one search at once make one backend call, a later one none, status shows the team cache", async () => {
		const machines = [0, 1, 2, 3].map(() => machine({ url: redis.url }));
		const slow = answers(1).map((answer) => ({ ...answer, delayMs: 400 }));
		exa.respond(...slow, ...answers(3));
		const runs = await Promise.all(machines.slice(0, 3).map((m) => m.cli(["search", "--json", "one for all"])));
		for (const run of runs) expect(run.code, run.stderr).toBe(0);
		expect(exa.requests).toHaveLength(1);
		const results = runs.map((run) => JSON.parse(run.stdout) as { cached?: boolean; results: unknown[] });
		expect(results.filter((result) => result.cached === true)).toHaveLength(2);
		for (const result of results) expect(result.results).toEqual(results[0]!.results);
		const later = await machines[3]!.cli(["search", "--json", "one for all"]);
		expect(JSON.parse(later.stdout).cached).toBe(true);
		expect(exa.requests).toHaveLength(1);
		const report = await machines[3]!.status();
		expect(report.store.cache).toMatchObject({ entries: 1, maxEntries: 2_000 });
		expect(report.store.cache.bytes).toBeGreaterThan(100);
		expect((await machines[0]!.cli(["status"])).stdout).toMatch(/team cache: 1 result, \d+ KB of 64 MB/);
		const held = await redis.dumpAndFlush();
		expect(held).not.toContain(KEY);
		// The entry is named by a hash of the call: the query is in the shared result, never in a key's name.
		expect(held).toContain("one for all");
		expect(held.split("\n").map((line) => line.split(" ")[0])).not.toContainEqual(expect.stringContaining("one"));
	}, 90_000);

	it("holds a day budget raced by 6 machines: spent ≤ budget + the calls in flight", async () => {
		const budget = 0.05;
		const price = 0.005;
		const machines = Array.from({ length: 6 }, () =>
			machine({ url: redis.url, extra: { policy: { budget: { usdPerDay: budget } } } }),
		);
		exa.respond(...answers(18, price));
		await Promise.all(
			machines.map(async (m) => {
				for (let i = 0; i < 3; i++) await m.cli(["search", "--json", `budget ${i}`]);
			}),
		);
		const report = await machines[0]!.status();
		const spent = exaOf(report.store.spend.team)?.usd ?? 0;
		// At most one call per machine can be in flight past the budget's last dollar.
		expect(spent).toBeLessThanOrEqual(budget + machines.length * price + 1e-9);
		expect(exa.requests.length).toBeLessThan(18);
		expect(spent).toBeCloseTo(exa.requests.length * price, 9);
	}, 90_000);

	it("honours a cooldown another machine set: its next call goes to the healthy provider", async () => {
		const [a, b] = [
			machine({ url: redis.url, extra: { search: ["exa", "tavily"] } }),
			machine({ url: redis.url, extra: { search: ["exa", "tavily"] } }),
		];
		exa.respond({ status: 503, body: "down" });
		const ok = { body: tavilyBody, headers: { "content-type": "application/json" } };
		tavily.respond(ok, ok);
		expect((await a!.cli(["search", "--json", "first"])).code).toBe(0);
		expect(exa.requests).toHaveLength(1);
		const second = await b!.cli(["search", "--json", "second"]);
		expect(second.code, second.stderr).toBe(0);
		expect(JSON.parse(second.stdout).provider).toBe("tavily");
		expect(exa.requests).toHaveLength(1);
	}, 60_000);

	it("never fails a call while Redis is killed and restarted, and the team's ledger counts every call once", async () => {
		const machines = [0, 1, 2, 3].map(() => machine({ url: redis.url }));
		exa.respond(...answers(12));
		const round = (r: number) =>
			Promise.all(
				machines.map(async (m, k) => {
					const run = await m.cli(["search", "--json", `outage ${r} ${k}`]);
					expect(run.code, run.stderr).toBe(0);
					return JSON.parse(run.stdout) as { warnings: string[] };
				}),
			);
		await round(0);
		await redis.kill();
		const during = await round(1);
		for (const result of during) {
			expect(result.warnings.filter((w) => /unreachable/.test(w))).toHaveLength(1);
		}
		const down = await machines[0]!.status();
		expect(down.store).toMatchObject({ kind: "redis", state: "degraded" });
		await redis.start();
		await round(2);
		const report = await machines[3]!.status();
		expect(report.store.state).toBe("ok");
		expect(exaOf(report.store.spend.team)?.usd).toBeCloseTo(12 * PRICE, 9);
		expect(exaOf(report.store.spend.team)?.calls).toBe(12);
	}, 90_000);

	it("says a refused password without the password, and the search still works on the local store", async () => {
		const locked = await startRedis({ password: "team-s3cret-77" });
		try {
			const m = machine({ url: `redis://:wrong-s3cret-11@127.0.0.1:${locked.port}` });
			exa.respond(...answers(1));
			const run = await m.cli(["search", "--json", "locked"]);
			expect(run.code, run.stderr).toBe(0);
			const warning = JSON.parse(run.stdout).warnings.join(" ");
			expect(warning).toMatch(/team store redis:\/\/\*\*\*@127\.0\.0\.1:\d+ unreachable \(WRONGPASS/);
			const status = await m.cli(["status"]);
			const check = await m.cli(["check", "--json"]);
			expect(status.stdout).toMatch(/WRONGPASS/);
			for (const text of [run.stdout, run.stderr, status.stdout, status.stderr, check.stdout, check.stderr]) {
				expect(text).not.toContain("wrong-s3cret-11");
			}
			expect(JSON.parse(check.stdout).store).toMatchObject({ kind: "redis", state: "degraded" });
		} finally {
			await locked.close();
		}
	}, 60_000);
});

describe.skipIf(!available)("team store settings from the environment", () => {
	it("uses PI_WEB_ACCESS_STORE_URL when the config names no store, and shows it masked", async () => {
		const m = machine({ envUrl: redis.url.replace("redis://", "redis://:env-s3cret-42@") });
		const report = await m.status();
		expect(report.store).toMatchObject({ kind: "redis" });
		expect(report.store.location).toMatch(/^redis:\/\/\*\*\*@127\.0\.0\.1:\d+$/);
		expect(JSON.stringify(report)).not.toContain("env-s3cret-42");
	}, 30_000);

	it("lets the config's store win over the environment's", async () => {
		const m = machine({ url: redis.url, envUrl: "redis://:other-pw@127.0.0.1:1" });
		const report = await m.status();
		expect(report.store).toMatchObject({ kind: "redis", state: "ok", location: redis.url });
	}, 30_000);

	it("says an environment URL of another scheme in check and status, masked, and uses this machine's store", async () => {
		const m = machine({ envUrl: "http://:env-pw-77@cache.example:6379" });
		exa.respond(...answers(1));
		const run = await m.cli(["search", "--json", "still works"]);
		expect(run.code, run.stderr).toBe(0);
		const checked = JSON.parse((await m.cli(["check", "--json"])).stdout);
		expect(checked.store).toMatchObject({ kind: "local", state: "degraded" });
		expect(checked.store.detail).toMatch(
			/\$PI_WEB_ACCESS_STORE_URL \(http:\/\/\*\*\*@cache\.example:6379\): scheme http:/,
		);
		const status = await m.cli(["status"]);
		expect(status.stdout).toMatch(/redis:\/\/ or rediss:\/\//);
		for (const text of [run.stdout, run.stderr, status.stdout, JSON.stringify(checked)]) {
			expect(text).not.toContain("env-pw-77");
		}
	}, 30_000);
});
