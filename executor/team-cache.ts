// A call's trip through a result cache shared past this process (a team store's, executor/store/contract.ts): looked
// up in the store's pull before the walk, waited for a bounded time while another machine runs the same call, and
// shared after the answer. Without such a cache (or with the policy's TTL at 0) a call only awaits the pull.

import { redactDeep, redactorFor } from "../engine/redact.ts";
import type { Attempt, SearchResult } from "../engine/result-types.ts";
import type { ProviderFetchResult } from "../providers/contract.ts";
import type { StateStore } from "./store/contract.ts";
import type { ProviderBinding } from "./types.ts";
import type { WalkWin } from "./walk-types.ts";

export const TEAM_WAIT_DEFAULTS = {
	/** A call another machine is running is waited for this share of the call's overall deadline… */
	fraction: 0.1,
	/** …and at most this long; then the call goes on by itself. */
	capMs: 10_000,
	/**
	 * A call's pending mark lasts its deadline, at most this long: a machine that dies mid-call (a CLI stopped with
	 * Ctrl-C) leaves a mark the others would each wait for, until it expires.
	 */
	pendingCapMs: 15_000,
	/** Entries written by another version of this format are not read. */
	format: 1,
};

export interface TeamCall<T> {
	/** The executor's cache keys for the call, tried in order; the first is the call's own (its pending mark). */
	keys: string[];
	ttlMs: number;
	/** The walk's overall deadline: how long the call may hold its pending mark. */
	deadlineMs: number;
	signal: { readonly aborted: boolean };
	/** A shared entry's value made into this call's answer (local cache filled), or undefined when it cannot be. */
	decode(value: unknown, ttlMs: number): T | undefined;
	run(): Promise<T>;
	/** Once run: what to share (the key and the value, encoded later), or undefined for nothing. */
	shared(): { key: string; value: () => unknown } | undefined;
	/** The keys that may hide in the value (masked away before it leaves, and nothing shared if any was found). */
	secrets(): string[];
}

/** What the executor hands in for one call: the rest of a TeamCall comes from the plan and the bindings. */
export type TeamParts<T> = Pick<TeamCall<T>, "decode" | "run" | "shared"> & { attempts(): readonly Attempt[] };

/** The answer, from the team's cache, another machine's run of the same call, or the walk. */
export async function throughTeam<T>(store: StateStore, call: TeamCall<T>): Promise<T> {
	if (store.refresh === undefined) return call.run();
	if (!(call.ttlMs > 0) || store.share === undefined || call.keys.length === 0) {
		await store.refresh();
		return call.run();
	}
	const lookup = { keys: call.keys, pendingMs: Math.min(call.deadlineMs, TEAM_WAIT_DEFAULTS.pendingCapMs) };
	let answer = await store.refresh(lookup);
	if (answer?.kind === "pending" && store.awaitShared !== undefined) {
		const waitMs = Math.min(TEAM_WAIT_DEFAULTS.capMs, call.deadlineMs * TEAM_WAIT_DEFAULTS.fraction);
		answer = await store.awaitShared(lookup, waitMs, call.signal);
	}
	if (answer?.kind === "hit") {
		const value = readEntry(answer.text);
		const made = value === undefined ? undefined : call.decode(value, answer.ttlMs > 0 ? answer.ttlMs : call.ttlMs);
		if (made !== undefined) return made;
	}
	const owner = answer?.kind === "run";
	let value: T;
	try {
		value = await call.run();
	} catch (error) {
		// Nothing to share: the machines waiting for this call go on at once.
		if (owner) store.share({ key: call.keys[0]!, pendingKey: call.keys[0]!, ttlMs: 0, encode: () => undefined });
		throw error;
	}
	const shared = call.shared();
	if (shared !== undefined || owner) {
		store.share({
			key: shared?.key ?? call.keys[0]!,
			pendingKey: call.keys[0]!,
			ttlMs: shared === undefined ? 0 : call.ttlMs,
			encode: () => (shared === undefined ? undefined : writeEntry(shared.value(), call.secrets())),
		});
	}
	return value;
}

/** An entry's text: the value in a versioned envelope; undefined when a key was found in it (it is not shared). */
function writeEntry(value: unknown, secrets: string[]): string | undefined {
	const { masked } = redactDeep(value, redactorFor(secrets));
	return masked ? undefined : JSON.stringify({ v: TEAM_WAIT_DEFAULTS.format, value });
}

function readEntry(text: string): unknown {
	try {
		const entry = JSON.parse(text) as { v?: unknown; value?: unknown };
		return entry.v === TEAM_WAIT_DEFAULTS.format ? entry.value : undefined;
	} catch {
		return undefined;
	}
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** A shared search result as the executor keeps one (another version's or a broken entry is not used). */
export function isSearchResult(value: unknown): value is SearchResult {
	return (
		isObject(value) &&
		typeof value.provider === "string" &&
		typeof value.query === "string" &&
		Array.isArray(value.results) &&
		Array.isArray(value.attempts) &&
		Array.isArray(value.warnings)
	);
}

/** A shared fetch answer (a walk's win) as the executor keeps one. */
export function isFetchWin(value: unknown): value is WalkWin<ProviderFetchResult> {
	return (
		isObject(value) &&
		typeof value.provider === "string" &&
		Array.isArray(value.attempts) &&
		isObject(value.value) &&
		typeof value.value.content === "string"
	);
}

/** The keys of the providers a call's attempts used, as far as they are known without waiting. */
export function attemptSecrets(attempts: readonly Attempt[], bindings: ReadonlyMap<string, ProviderBinding>): string[] {
	const secrets: string[] = [];
	for (const provider of new Set(attempts.map((attempt) => attempt.provider))) {
		const binding = bindings.get(provider);
		try {
			const keys = binding?.resolveKeys();
			if (Array.isArray(keys)) for (const key of keys) secrets.push(key.secret);
			else void keys?.catch(() => undefined);
			const auth = binding?.piAuth?.();
			if (auth instanceof Promise) void auth.catch(() => undefined);
			else if (auth?.apiKey) secrets.push(auth.apiKey);
		} catch {
			// A pool that cannot be resolved now was not what answered.
		}
	}
	return secrets;
}
