// The executor's view of a shared state store: before each call it takes in the cooldowns, key states and today's
// spend other processes wrote (newest wins), and after an attempt it writes the marks of its own that changed.

import type { Health } from "./health.ts";
import type { KeyBook } from "./keys.ts";
import type { SpendBook } from "./spend.ts";
import type { StateStore } from "./store/contract.ts";

export interface SharedState {
	/** Takes in what other processes wrote since the last call. */
	sync(): void;
	/** Writes this process's cooldowns and key states that changed since the last call. */
	publish(): void;
}

/**
 * Writes the entries whose text differs from what `known` says the store holds, and a clearing mark for each known
 * one that is gone (then known as ""). `known` maps an entry's id to its JSON as last written or read.
 */
function publishChanged<E, M>(
	entries: readonly E[],
	known: Map<string, string>,
	idOf: (entry: E) => string,
	put: (mark: E | M) => void,
	cleared: (id: string, text: string) => M,
): void {
	const seen = new Set<string>();
	for (const entry of entries) {
		const id = idOf(entry);
		seen.add(id);
		const text = JSON.stringify(entry);
		if (known.get(id) === text) continue;
		known.set(id, text);
		put(entry);
	}
	for (const [id, text] of known) {
		if (seen.has(id) || text === "") continue;
		known.set(id, "");
		put(cleared(id, text));
	}
}

export function createSharedState(store: StateStore, health: Health, keys: KeyBook, spend: SpendBook): SharedState {
	/** What the store holds of each mark as this process last wrote or read it (JSON), to write only changes. */
	const cooldowns = new Map<string, string>();
	const keyMarks = new Map<string, string>();
	return {
		sync() {
			const changes = store.sync();
			if (changes.cooldowns.length > 0) {
				health.load(changes.cooldowns);
				for (const mark of changes.cooldowns)
					cooldowns.set(mark.provider, mark.untilMs === 0 ? "" : JSON.stringify(mark));
			}
			if (changes.keys.length > 0) {
				keys.load(changes.keys);
				for (const mark of changes.keys)
					keyMarks.set(mark.fingerprint, mark.state === "active" ? "" : JSON.stringify(mark));
			}
			spend.load(store.today());
		},
		publish() {
			publishChanged(
				health.entries(),
				cooldowns,
				(entry) => entry.provider,
				store.putCooldown,
				(provider) => ({
					provider,
					untilMs: 0,
					failures: 0,
					reason: "",
				}),
			);
			publishChanged(
				keys.entries(),
				keyMarks,
				(entry) => entry.fingerprint,
				store.putKey,
				(fingerprint, text) => ({
					fingerprint,
					label: (JSON.parse(text) as { label: string }).label,
					state: "active" as const,
				}),
			);
		},
	};
}
