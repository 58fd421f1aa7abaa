// The team's result cache in Redis: entries under a hash of the executor's cache key (never the key's text, never a
// secret), each with its policy's TTL, indexed by expiry and trimmed to a count and a byte cap; a call's pending mark
// (SET NX PX in the pull) lets the other machines wait for its answer instead of asking the backend again.

import { createHash, randomBytes } from "node:crypto";
import type { SharedAnswer, SharedCacheSize, SharedLookup, SharedPut } from "../contract.ts";
import type { PullReply, TeamClient } from "./client.ts";
import { teamKeys } from "./scripts.ts";
import type { TeamPipeline, WriteQueue } from "./writes.ts";

export const TEAM_CACHE_DEFAULTS = {
	/** The team's cache holds at most this many entries… */
	maxEntries: 2_000,
	/** …and this many bytes of results (the soonest to expire go first). */
	maxBytes: 64 * 1024 * 1024,
	/** A result larger than this is kept by its own machine only. */
	entryMaxBytes: 512 * 1024,
	/** A waiting call asks again after this, doubled each time up to `pollMaxMs`. */
	pollFirstMs: 5,
	pollMaxMs: 100,
};

export type TeamCacheCaps = Pick<typeof TEAM_CACHE_DEFAULTS, "maxEntries" | "maxBytes" | "entryMaxBytes">;

export interface TeamCacheDeps {
	/** The client while Redis is up, else undefined (nothing is sent). */
	client(): TeamClient | undefined;
	prefix: string;
	now(): number;
	/** The store's writes, sent behind the call. */
	queue: Pick<WriteQueue, "also">;
	caps?: Partial<TeamCacheCaps>;
}

export interface TeamCache {
	/** The pull's extra keys and its two lookup arguments (pending ms, token; "" without a lookup). */
	pullArgs(lookup: SharedLookup | undefined): { keys: string[]; argv: string[] };
	/** What a pull with those keys answered. */
	answer(reply: PullReply): SharedAnswer | undefined;
	awaitShared(lookup: SharedLookup, waitMs: number, signal: { readonly aborted: boolean }): Promise<SharedAnswer>;
	share(put: SharedPut): void;
	size(): Promise<SharedCacheSize | undefined>;
}

const hashOf = (key: string) => createHash("sha256").update(key).digest("hex").slice(0, 32);
const RUN: SharedAnswer = { kind: "run" };

export function createTeamCache(deps: TeamCacheDeps): TeamCache {
	const caps: TeamCacheCaps = { ...TEAM_CACHE_DEFAULTS, ...deps.caps };
	const keys = teamKeys(deps.prefix, "");
	// This process's own pending marks: another process of the same machine waits for them too.
	const token = randomBytes(8).toString("hex");
	/** A lookup's entry names, then its first key's pending mark: each key hashed once. */
	const lookupKeys = (callKeys: readonly string[]) => {
		const hashes = callKeys.map(hashOf);
		return [...hashes.map((hash) => keys.entryPrefix + hash), keys.pendingPrefix + hashes[0]!];
	};
	const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
	const send = (pipe: TeamPipeline, put: SharedPut) => {
		let text: string | undefined;
		try {
			text = put.ttlMs > 0 ? put.encode() : undefined;
		} catch {
			text = undefined;
		}
		if (text !== undefined && Buffer.byteLength(text) > caps.entryMaxBytes) text = undefined;
		// The entry's and the pending mark's names come from one hash when they name one call (a search's always do).
		const member = hashOf(put.key);
		const pending = put.pendingKey === put.key ? member : hashOf(put.pendingKey);
		pipe.share(
			[keys.entryPrefix + member, keys.pendingPrefix + pending, keys.cacheIndex, keys.cacheSizes, keys.cacheBytes],
			member,
			text ?? "",
			String(Math.max(1, Math.round(put.ttlMs))),
			String(deps.now()),
			String(caps.maxEntries),
			String(caps.maxBytes),
			keys.entryPrefix,
			token,
		);
	};

	return {
		pullArgs(lookup) {
			if (lookup === undefined || lookup.keys.length === 0) return { keys: [], argv: ["", ""] };
			return {
				keys: lookupKeys(lookup.keys),
				argv: [String(Math.max(1, Math.round(lookup.pendingMs))), token],
			};
		},
		answer(reply) {
			if (reply.length < 5) return undefined;
			const [, , , text, code] = reply;
			if (text === undefined || code === undefined) return undefined;
			if (text !== "") return { kind: "hit", text, ttlMs: code };
			return code === 1 ? RUN : { kind: "pending" };
		},
		async awaitShared(lookup, waitMs, signal) {
			const end = deps.now() + waitMs;
			const asked = lookupKeys(lookup.keys);
			for (let pause = TEAM_CACHE_DEFAULTS.pollFirstMs; ; pause = Math.min(pause * 2, TEAM_CACHE_DEFAULTS.pollMaxMs)) {
				const left = end - deps.now();
				if (left <= 0 || signal.aborted) return RUN;
				await sleep(Math.min(pause, left));
				const client = deps.client();
				if (client === undefined || signal.aborted) return RUN;
				let values: Array<string | null>;
				try {
					values = await client.mget(asked);
				} catch {
					return RUN;
				}
				const found = values.findIndex((value, i) => i < lookup.keys.length && value !== null);
				if (found >= 0) return { kind: "hit", text: values[found]!, ttlMs: -1 };
				// No answer and no mark: the other call ended without one to share (or its process died).
				if (values[values.length - 1] === null) return RUN;
			}
		},
		share(put) {
			// Encoded and sent with the store's writes, after the answer is handed back: never on the call's path.
			if (deps.client() !== undefined) deps.queue.also((pipe) => send(pipe, put));
		},
		async size() {
			const client = deps.client();
			if (client === undefined) return undefined;
			try {
				const [entries, bytes] = await client.cacheSize([keys.cacheIndex, keys.cacheSizes], String(deps.now()));
				return { entries, bytes, ...caps };
			} catch {
				return undefined;
			}
		},
	};
}
