// A real redis-server on loopback for the team-store tests: a free port found by binding port 0 (redis has no
// `--port 0`), no persistence, a temp dir of its own. Missing redis-server: the suite is skipped with a message
// locally and fails in CI, where .ci/run installs it.

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BINARY = "redis-server";

/** Whether a redis-server can be run here; in CI its absence throws (a missing service is a failure there). */
export function redisAvailable(): boolean {
	const found = spawnSync(BINARY, ["--version"], { stdio: "ignore" }).status === 0;
	if (!found && process.env.CI)
		throw new Error(`${BINARY} is not installed: .ci/run installs it (apt-get install redis-server)`);
	if (!found) console.warn(`${BINARY} not installed: the team-store tests are skipped (apt-get install redis-server)`);
	return found;
}

export interface RedisServer {
	port: number;
	url: string;
	/** Stops the server (SIGKILL: nothing is saved); `start` runs it again on the same port. */
	kill(): Promise<void>;
	start(): Promise<void>;
	/** Stops the server answering (SIGSTOP: connections stay open, replies never come) until `resume`. */
	pause(): void;
	resume(): void;
	/** Every key and value the server holds, as text (to show what reached Redis); then empties it. */
	dumpAndFlush(): Promise<string>;
	close(): Promise<void>;
}

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return port;
}

async function waitForPort(port: number, deadlineMs = 5_000): Promise<void> {
	const end = Date.now() + deadlineMs;
	for (;;) {
		const open = await new Promise<boolean>((resolve) => {
			const socket = createConnection({ port, host: "127.0.0.1" }, () => {
				socket.destroy();
				resolve(true);
			});
			socket.on("error", () => resolve(false));
		});
		if (open) return;
		if (Date.now() > end) throw new Error(`redis-server did not listen on ${port}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/** Starts redis-server on a free loopback port; `password` sets requirepass. */
export async function startRedis(options: { password?: string } = {}): Promise<RedisServer> {
	const port = await freePort();
	const dir = mkdtempSync(join(tmpdir(), "pwa-redis-"));
	let child: ChildProcess | undefined;
	const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
	if (options.password !== undefined) args.push("--requirepass", options.password);
	/** Runs the server unless it already runs (a second one could not bind the port, and would be the one killed). */
	const start = async () => {
		if (child !== undefined && child.exitCode === null) return;
		child = spawn(BINARY, args, { stdio: "ignore" });
		// A test process that ends without its afterAll (a timeout, a crash) leaves no server running behind it.
		const running = child;
		process.once("exit", () => running.kill("SIGKILL"));
		await waitForPort(port);
	};
	const kill = async () => {
		const running = child;
		child = undefined;
		if (running === undefined || running.exitCode !== null) return;
		await new Promise((resolve) => {
			running.once("exit", resolve);
			running.kill("SIGKILL");
		});
	};
	await start();
	const auth = options.password === undefined ? "" : `:${encodeURIComponent(options.password)}@`;
	return {
		port,
		url: `redis://${auth}127.0.0.1:${port}`,
		kill,
		start,
		pause: () => void child?.kill("SIGSTOP"),
		resume: () => void child?.kill("SIGCONT"),
		async dumpAndFlush() {
			const { Redis } = await import("ioredis");
			const client = new Redis(port, "127.0.0.1", options.password === undefined ? {} : { password: options.password });
			try {
				const lines: string[] = [];
				for (const key of await client.keys("*")) {
					const type = await client.type(key);
					const value =
						type === "hash"
							? await client.hgetall(key)
							: type === "zset"
								? await client.zrange(key, 0, -1, "WITHSCORES")
								: await client.get(key);
					lines.push(`${key} ${JSON.stringify(value)}`);
				}
				await client.flushall();
				return lines.join("\n");
			} finally {
				client.disconnect();
			}
		},
		async close() {
			await kill();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}
