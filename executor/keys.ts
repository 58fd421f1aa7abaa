// Key-pool state: which keys are rate-limited or exhausted, billing order and round-robin. State is keyed by a
// sha256 prefix of the secret, so two providers sharing a key share its state; secrets are never stored here.

import { createHash } from "node:crypto";
import type { CallKey, Classification, ProviderDefinition } from "../providers/contract.ts";
import type { KeyState } from "./types.ts";

export const KEY_DEFAULTS = { rateLimitMs: 60_000, retryAfterCapMs: 3_600_000, retrySameKeyDelayMs: 200 };

/** Stable, non-reversible id of a key: the first 16 hex digits of its sha256. */
export function fingerprint(secret: string): string {
	return createHash("sha256").update(secret).digest("hex").slice(0, 16);
}

export interface KeyBook {
	/** Keys the definition may use at all, in billing order (subscription-first, postpaid-only). */
	eligible(keys: readonly CallKey[], keyOrder: ProviderDefinition["keyOrder"]): readonly CallKey[];
	/** Active eligible keys for one attempt, rotated round-robin per provider within each billing group. */
	candidates(provider: string, keys: readonly CallKey[], keyOrder: ProviderDefinition["keyOrder"]): readonly CallKey[];
	isActive(key: CallKey): boolean;
	/** Cools the key for the backend's Retry-After, or about a minute. */
	rateLimit(key: CallKey, retryAfterMs?: number, at?: number): void;
	/** Takes the key out for the life of the process; `refused`: the backend refused it (401/403). */
	exhaust(key: CallKey, refused?: boolean): void;
	/** `key1=exhausted, key2=refused, key3=rate-limited (42 s left), key4=active` */
	describe(keys: readonly CallKey[]): string;
	/** The failure when no key of the pool is usable. */
	/** The pool's state as of `at` (default now): a wait set at `at` is reported whole, not less the time since. */
	allOut(keys: readonly CallKey[], at?: number): Classification;
	entries(): KeyState[];
	/** Takes stored or shared states; "active" clears the key's. */
	load(entries: readonly (Omit<KeyState, "state"> & { state: KeyState["state"] | "active" })[]): void;
	/** Counts one request sent with `key` by `provider` (for status displays; not persisted). */
	used(provider: string, key: CallKey): void;
	/** Requests sent per provider and key label since the process started. */
	uses(): KeyUse[];
}

export interface KeyUse {
	provider: string;
	label: string;
	uses: number;
}

function isSubscription(key: CallKey): boolean {
	return key.billing === "subscription";
}

/** A key order that keeps the pool as one group (groups() below gives the pool itself): the one place that says which. */
function oneGroup(keyOrder: ProviderDefinition["keyOrder"]): boolean {
	return keyOrder !== "postpaid-only" && keyOrder !== "subscription-first";
}

function rotate<T>(items: readonly T[], by: number): readonly T[] {
	if (items.length < 2) return items;
	const start = by % items.length;
	return start === 0 ? items : [...items.slice(start), ...items.slice(0, start)];
}

export function createKeyBook(now: () => number): KeyBook {
	const states = new Map<string, KeyState>();
	const turns = new Map<string, number>();
	/** Requests per provider, then key label (names the config keeps, so no key string is built per request). */
	const counts = new Map<string, Map<string, KeyUse>>();
	/** The same counts in the order each pair was first used. */
	const order: KeyUse[] = [];

	function current(key: CallKey): KeyState | undefined {
		// The usual case, every key active: no sha256 per key and call.
		if (states.size === 0) return undefined;
		const id = fingerprint(key.secret);
		const state = states.get(id);
		if (state?.state === "rate-limited" && (state.untilMs ?? 0) <= now()) {
			states.delete(id);
			return undefined;
		}
		return state;
	}

	function groups(keys: readonly CallKey[], keyOrder: ProviderDefinition["keyOrder"]): (readonly CallKey[])[] {
		// The usual one-group order: the pool itself (read-only everywhere; rotation copies).
		if (oneGroup(keyOrder)) return [keys];
		if (keyOrder === "postpaid-only") return [keys.filter((key) => !isSubscription(key))];
		return [keys.filter(isSubscription), keys.filter((key) => !isSubscription(key))];
	}

	function stateText(key: CallKey): string {
		const state = current(key);
		if (state === undefined) return "active";
		if (state.state === "exhausted") return state.refused ? "refused" : "exhausted";
		return `rate-limited (${Math.ceil(((state.untilMs ?? 0) - now()) / 1000)} s left)`;
	}

	const book: KeyBook = {
		eligible(keys, keyOrder) {
			if (oneGroup(keyOrder)) return keys;
			const found = groups(keys, keyOrder);
			return found.length === 1 ? found[0]! : found.flat();
		},
		candidates(provider, keys, keyOrder) {
			const turn = turns.get(provider) ?? 0;
			turns.set(provider, turn + 1);
			// The usual pool (one group, every key active) is rotated as it is: no list of groups, no filter.
			if (oneGroup(keyOrder) && states.size === 0) return rotate(keys, turn);
			const active = (group: readonly CallKey[]) =>
				rotate(states.size === 0 ? group : group.filter((key) => current(key) === undefined), turn);
			const found = groups(keys, keyOrder);
			return found.length === 1 ? active(found[0]!) : found.flatMap(active);
		},
		isActive(key) {
			return current(key) === undefined;
		},
		rateLimit(key, retryAfterMs, at = now()) {
			const id = fingerprint(key.secret);
			if (states.get(id)?.state === "exhausted") return;
			const coolMs = Math.min(retryAfterMs ?? KEY_DEFAULTS.rateLimitMs, KEY_DEFAULTS.retryAfterCapMs);
			states.set(id, { fingerprint: id, label: key.label, state: "rate-limited", untilMs: at + coolMs });
		},
		exhaust(key, refused) {
			const id = fingerprint(key.secret);
			const state: KeyState = { fingerprint: id, label: key.label, state: "exhausted", sinceMs: now() };
			states.set(id, refused ? { ...state, refused: true } : state);
		},
		describe(keys) {
			return keys.map((key) => `${key.label}=${stateText(key)}`).join(", ");
		},
		allOut(keys, at = now()) {
			const waits = keys
				.map((key) => current(key))
				.filter((state) => state?.state === "rate-limited")
				.map((state) => (state?.untilMs ?? 0) - at);
			const reason = `no usable key: ${book.describe(keys)}`;
			if (waits.length === 0) return { errorClass: "quota", reason };
			return { errorClass: "rate-limit", retryAfterMs: Math.min(...waits), reason };
		},
		used(provider: string, key: CallKey): void {
			let labels = counts.get(provider);
			if (labels === undefined) {
				labels = new Map();
				counts.set(provider, labels);
			}
			let entry = labels.get(key.label);
			if (entry === undefined) {
				entry = { provider, label: key.label, uses: 0 };
				labels.set(key.label, entry);
				order.push(entry);
			}
			entry.uses++;
		},
		uses: (): KeyUse[] => order.map((u) => ({ ...u })),
		entries() {
			return [...states.values()]
				.filter((state) => state.state === "exhausted" || (state.untilMs ?? 0) > now())
				.map((state) => ({ ...state }));
		},
		load(entries) {
			for (const { state, ...entry } of entries) {
				if (state === "active") states.delete(entry.fingerprint);
				else states.set(entry.fingerprint, { ...entry, state });
			}
		},
	};
	return book;
}
