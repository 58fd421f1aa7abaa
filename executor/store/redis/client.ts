// The connection to the team's Redis: ioredis, imported only when a Redis URL is configured (start-up never loads
// it). Every command is bounded by REDIS_DEFAULTS.timeoutMs; while the server is away commands fail at once (no
// offline queue) and the client reconnects on its own. Errors are kept as text with the URL's secrets masked.

import type { Redis } from "ioredis";
import { CACHE_SIZE_SCRIPT, HOLD_SCRIPT, MARK_SCRIPT, PULL_SCRIPT, SETTLE_SCRIPT, SHARE_SCRIPT } from "./scripts.ts";
import { scrubSecrets } from "./url.ts";

export const REDIS_DEFAULTS = {
	/** The most a Redis round trip may add to a call; past it the call goes on with this machine's store. */
	timeoutMs: 200,
	/**
	 * A first connection's bound (TCP, TLS, AUTH), paid once per process by its first call at most: a refused
	 * connection ends it at once. The connection starts when the store is made, so a call rarely waits for it.
	 */
	connectTimeoutMs: 1_000,
	/** Longest pause between reconnection attempts. */
	maxRetryMs: 2_000,
};

/** The client with the team store's scripts defined (EVALSHA, loaded again after a server restart). */
export type TeamClient = Redis & {
	/** The number of keys first (3, or more with a cache lookup), then the keys and the arguments. */
	pull(numberOfKeys: number, ...keysAndArgv: string[]): Promise<PullReply>;
	cacheSize(keys: [string, string], now: string): Promise<[number, number]>;
};

/** A pull's answer (executor/store/redis/scripts.ts PULL_SCRIPT): spend, held, marks[, entry or "", PTTL or owner]. */
export type PullReply = [string[], string[], string[]] | [string[], string[], string[], string, number];

export interface Connection {
	/** The client once ioredis is loaded, undefined before (or when it could not be loaded). */
	client(): TeamClient | undefined;
	/** Resolves true once connected, false on an error or when `waitMs` passed first. */
	ready(waitMs: number): Promise<boolean>;
	/** True once a connection was ready (then a call waits at most timeoutMs for the next). */
	everReady(): boolean;
	/** The last error the client reported (secrets masked), cleared when it is ready again. */
	lastError(): string | undefined;
	close(): Promise<void>;
}

/** Starts loading ioredis and connecting at once; `onReady` runs at each (re)connection. */
export function connect(url: string, timeoutMs: number, onReady: () => void): Connection {
	let client: TeamClient | undefined;
	let error: string | undefined;
	let everReady = false;
	let closed = false;
	let loading: Promise<TeamClient | undefined> | undefined;
	const load = () => {
		loading ??= import("ioredis").then(
			({ Redis }) => {
				if (closed) return undefined;
				const made = new Redis(url, {
					lazyConnect: false,
					// No INFO round trip before the first command: ready as soon as connected (and authenticated).
					enableReadyCheck: false,
					enableOfflineQueue: false,
					maxRetriesPerRequest: 0,
					commandTimeout: timeoutMs,
					connectTimeout: REDIS_DEFAULTS.connectTimeoutMs,
					retryStrategy: (times) => Math.min(times * 100, REDIS_DEFAULTS.maxRetryMs),
					// Redis refusing the password (or a user) is final until the config changes: say it, keep retrying slowly.
					reconnectOnError: () => false,
				}) as TeamClient;
				made.defineCommand("pull", { lua: PULL_SCRIPT });
				made.defineCommand("share", { numberOfKeys: 5, lua: SHARE_SCRIPT });
				made.defineCommand("cacheSize", { numberOfKeys: 2, lua: CACHE_SIZE_SCRIPT });
				made.defineCommand("settleSpend", { numberOfKeys: 2, lua: SETTLE_SCRIPT });
				made.defineCommand("mark", { numberOfKeys: 1, lua: MARK_SCRIPT });
				made.defineCommand("hold", { numberOfKeys: 1, lua: HOLD_SCRIPT });
				// A listener, so ioredis never prints an unhandled error event on pi's stderr.
				made.on("error", (cause: Error) => {
					error = scrubSecrets(cause.message, url);
				});
				made.on("ready", () => {
					error = undefined;
					everReady = true;
					onReady();
				});
				client = made;
				return made;
			},
			(cause: Error) => {
				error = `the Redis client could not be loaded (${scrubSecrets(cause.message, url)})`;
				return undefined;
			},
		);
		return loading;
	};
	void load();
	return {
		client: () => client,
		everReady: () => everReady,
		async ready(waitMs) {
			const made = await load();
			if (made === undefined) return false;
			if (made.status === "ready") return true;
			return new Promise<boolean>((resolve) => {
				const done = (value: boolean) => {
					clearTimeout(timer);
					made.off("ready", onUp);
					made.off("error", onError);
					resolve(value);
				};
				const onUp = () => done(true);
				const onError = () => done(false);
				const timer = setTimeout(() => done(false), waitMs);
				made.on("ready", onUp);
				made.on("error", onError);
			});
		},
		lastError: () => error,
		async close() {
			closed = true;
			const made = client;
			client = undefined;
			if (made === undefined) return;
			if (made.status !== "ready") {
				made.disconnect();
				return;
			}
			const bound = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
			await Promise.race([made.quit().catch(() => undefined), bound]);
			made.disconnect();
		},
	};
}
