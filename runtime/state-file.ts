// Where the shells keep process state, in pi's agent dir: the state store (executor/store/local/: spend,
// reservations, cooldowns and key states shared by every process of this machine) and the older state file, still
// read by `status` (and said when it could not be read). Fingerprints and amounts, never keys.

import { accessSync, constants, statSync } from "node:fs";
import { dirname } from "node:path";
import { createStateFile, type StateFileHealth, stateFilePath } from "../executor/persist.ts";
import { addSpend, type SpendDay } from "../executor/spend.ts";
import type { StoreHealth } from "../executor/store/contract.ts";
import { createLocalStore } from "../executor/store/local/store.ts";
import type { ExecutorStateSnapshot } from "../executor/types.ts";
import { agentDir } from "../schema/paths.ts";

export type { StoreHealth };

/** The older file's today spend added into the store's: a process of a previous version may still write it. */
function withFileSpend(store: SpendDay, file: SpendDay | undefined): SpendDay {
	if (file === undefined || file.day !== store.day) return store;
	return addSpend(store, file.providers);
}

/** What the store (read, never written) holds now over the older state file's, for status and check. */
export function storedState(
	env: Record<string, string | undefined>,
	file: ExecutorStateSnapshot | undefined,
	nowMs = Date.now(),
): { snapshot: ExecutorStateSnapshot; store: StoreHealth } {
	const store = createLocalStore(agentDir(env), () => nowMs, true);
	const marks = store.sync();
	const cooldowns = new Map((file?.cooldowns ?? []).map((c) => [c.provider, c]));
	for (const mark of marks.cooldowns) {
		if (mark.untilMs === 0) cooldowns.delete(mark.provider);
		else cooldowns.set(mark.provider, mark);
	}
	const keys = new Map((file?.keys ?? []).map((k) => [k.fingerprint, k]));
	for (const { state, ...mark } of marks.keys) {
		if (state === "active" || (state === "rate-limited" && (mark.untilMs ?? 0) <= nowMs)) keys.delete(mark.fingerprint);
		else keys.set(mark.fingerprint, { ...mark, state });
	}
	const snapshot: ExecutorStateSnapshot = {
		version: 1,
		cooldowns: [...cooldowns.values()],
		keys: [...keys.values()],
		spend: withFileSpend(store.today(), file?.spend),
	};
	const health = store.health();
	store.close();
	return { snapshot, store: health };
}

/** The state file and what status says about it (`--json`: `stateFile`). */
export type StateFileStatus = { file: string } & StateFileHealth;

/** The state file in the agent dir the environment names (`$PI_CODING_AGENT_DIR`, else ~/.pi/agent). */
export function stateFileIn(env: Record<string, string | undefined>): string {
	return stateFilePath(agentDir(env));
}

/** What the state file holds now, for a status display (undefined when there is none or it cannot be read), and its health. */
export function savedState(env: Record<string, string | undefined>): {
	snapshot: ExecutorStateSnapshot | undefined;
	status: StateFileStatus;
} {
	const file = stateFileIn(env);
	const state = createStateFile(file);
	const snapshot = state.load();
	const health = state.health?.() ?? { state: "absent" };
	const blocked = health.state === "ok" || health.state === "absent" ? unwritable(file) : undefined;
	return { snapshot, status: { file, ...health, ...(blocked ? { state: "unwritable", reason: blocked } : {}) } };
}

/**
 * Why a write would fail, found without writing (status is read-only): the state file is replaced by a rename, so
 * the nearest folder that exists on its path must be a writable directory.
 */
function unwritable(file: string): string | undefined {
	let dir = dirname(file);
	for (;;) {
		try {
			if (!statSync(dir).isDirectory()) return `${dir} is not a directory`;
			accessSync(dir, constants.W_OK);
			return undefined;
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code !== "ENOENT" || dirname(dir) === dir) return `${dir} is not writable (${code ?? "error"})`;
			dir = dirname(dir);
		}
	}
}

/** status's line about the state file, only when there is something to say. */
export function stateFileLine(status: StateFileStatus): string | undefined {
	const { file, state, reason, setAside } = status;
	const lost = "the spend it held is not counted";
	if (state === "corrupt" || state === "unreadable") {
		const next = setAside ? `moved to ${setAside}` : "it is moved aside, not overwritten, at the next write";
		return `state file: ${file} (${state}: ${reason}; ${lost}; ${next})`;
	}
	if (state === "unwritable") {
		return `state file: ${file} (unwritable: ${reason}; spend, cooldowns and key marks are not kept past this process)`;
	}
	if (setAside)
		return `state file: ${file} (an unreadable one was set aside as ${setAside}: ${lost}; remove it once read)`;
	return undefined;
}
