// The "store" scenario's Redis side: what the team store adds to a paid call with a day budget, against the local
// store it wraps, on a redis-server on loopback. The call path awaits one pull (one command, one round trip); the
// reservation and the settle are queued and ride in the next call's pull (or go on the next turn of the event loop
// when no call follows). A PING's round trip on the same server is the yardstick. Skipped, with a note,
// when redis-server is not installed.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalStore } from "../executor/store/local/store.ts";
import { createRedisStore } from "../executor/store/redis/store.ts";
import { startRedis } from "../test/helpers/redis-server.ts";
import { paidCall } from "./paid-call.ts";
import { type Comparison, type Goal, nowMs, round, summarize } from "./stats.ts";

export interface RedisStoreNumbers {
	redisAddedP50Us: number;
	redisAddedP99Us: number;
	redisPingP50Us: number;
	/** Commands Redis received per paid call (INFO commandstats: the scripts a call sends; their inner calls are not round trips). */
	redisCommandsPerCall: number;
	/** The server's own time per script, µs (commandstats usec_per_call). */
	redisScriptUs: number;
}

/** Top-level commands and their server time since the last CONFIG RESETSTAT, from INFO commandstats. */
function commandStats(info: string): { commands: number; scriptUs: number } {
	let commands = 0;
	let scriptUs = 0;
	for (const line of info.split("\n")) {
		const found = /^cmdstat_([a-z|]+):calls=(\d+),usec=\d+,usec_per_call=([\d.]+)/.exec(line.trim());
		if (!found) continue;
		// A script's redis.call()s are counted under their own names too; only the scripts came over the wire.
		if (found[1] === "evalsha" || found[1] === "eval") {
			commands += Number(found[2]);
			scriptUs = Math.max(scriptUs, Number(found[3]));
		}
	}
	return { commands, scriptUs };
}

async function time(calls: number, call: () => Promise<void> | void): Promise<number[]> {
	const samples: number[] = [];
	for (let i = 0; i < calls; i++) {
		const started = nowMs();
		await call();
		samples.push((nowMs() - started) * 1000);
	}
	return samples;
}

export async function benchRedisStore(calls: number): Promise<{
	numbers?: RedisStoreNumbers;
	rows: Comparison[];
	goals: Goal[];
	notes: string[];
}> {
	if (spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status !== 0) {
		return { rows: [], goals: [], notes: ["store: redis-server is not installed, the Redis side is skipped"] };
	}
	const server = await startRedis();
	const dirs = [mkdtempSync(join(tmpdir(), "pwa-bench-redis-")), mkdtempSync(join(tmpdir(), "pwa-bench-local-"))];
	const redis = createRedisStore({ url: server.url, dir: dirs[0]!, local: createLocalStore(dirs[0]!) });
	const local = createLocalStore(dirs[1]!);
	try {
		await redis.refresh();
		const { Redis } = await import("ioredis");
		const ping = new Redis(server.port, "127.0.0.1");
		await ping.ping();
		const pings = summarize(await time(calls, async () => void (await ping.ping())));
		const base = summarize(await time(calls, () => paidCall(local, true)));
		await ping.config("RESETSTAT");
		const ours = summarize(
			await time(calls, async () => {
				await redis.refresh();
				paidCall(redis, true);
			}),
		);
		const stats = commandStats(await ping.info("commandstats"));
		ping.disconnect();
		const numbers: RedisStoreNumbers = {
			redisAddedP50Us: round(ours.p50 - base.p50),
			redisAddedP99Us: round(ours.p99 - base.p99),
			redisPingP50Us: round(pings.p50),
			redisCommandsPerCall: round(stats.commands / calls),
			redisScriptUs: round(stats.scriptUs),
		};
		const label = "store: a paid call with a day budget";
		return {
			numbers,
			rows: [{ label, unit: "µs", oursName: "redis (loopback)", ours, baseName: "local", base }],
			goals: [
				{
					goal: "store: Redis adds ≤ one round trip to a paid call (commands Redis receives per call)",
					measured: `${numbers.redisCommandsPerCall} a call (INFO commandstats over ${calls} calls)`,
					met: numbers.redisCommandsPerCall <= 1.01,
				},
			],
			notes: [
				`store: ${calls} paid calls on Redis over loopback; one pull awaited a call (one command), the reservation and the settle riding in the next call's pull`,
				`store: Redis's time a paid call: ${numbers.redisAddedP50Us} µs added p50 (p99 ${numbers.redisAddedP99Us} µs), against a PING's round trip of ${numbers.redisPingP50Us} µs p50; the script itself runs ${numbers.redisScriptUs} µs on the server`,
			],
		};
	} finally {
		await redis.drain();
		local.close();
		await server.close();
		for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
	}
}
