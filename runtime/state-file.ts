// The state file (health, key states and spend; fingerprints and amounts, never keys) in pi's agent dir, for the
// shells: the extension persists to it, the CLI's search and fetch add their spend, `status` reads it and says when
// it could not be read or written.

import { accessSync, constants, statSync } from "node:fs";
import { dirname } from "node:path";
import { createStateFile, type StateFileHealth, stateFilePath } from "../executor/persist.ts";
import type { ExecutorStateSnapshot } from "../executor/types.ts";
import { agentDir } from "../schema/paths.ts";

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
