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
				for (const mark of changes.keys) keyMarks.set(mark.fingerprint, JSON.stringify(mark));
			}
			spend.load(store.today());
		},
		publish() {
			const seen = new Set<string>();
			for (const entry of health.entries()) {
				seen.add(entry.provider);
				const text = JSON.stringify(entry);
				if (cooldowns.get(entry.provider) === text) continue;
				cooldowns.set(entry.provider, text);
				store.putCooldown(entry);
			}
			for (const [provider, text] of cooldowns) {
				if (seen.has(provider) || text === "") continue;
				cooldowns.set(provider, "");
				store.putCooldown({ provider, untilMs: 0, failures: 0, reason: "" });
			}
			seen.clear();
			for (const entry of keys.entries()) {
				seen.add(entry.fingerprint);
				const text = JSON.stringify(entry);
				if (keyMarks.get(entry.fingerprint) === text) continue;
				keyMarks.set(entry.fingerprint, text);
				store.putKey(entry);
			}
			for (const [fingerprint, text] of keyMarks) {
				if (seen.has(fingerprint)) continue;
				const mark = JSON.parse(text) as { label: string; state: string };
				if (mark.state === "active") continue;
				keyMarks.set(fingerprint, JSON.stringify({ fingerprint, label: mark.label, state: "active" }));
				store.putKey({ fingerprint, label: mark.label, state: "active" });
			}
		},
	};
}
