// The state file (health, key states and spend; fingerprints and amounts, never keys) in pi's agent dir, for the
// shells: the extension persists to it, the CLI's search and fetch add their spend, `status` reads it.

import { createStateFile, stateFilePath } from "../executor/persist.ts";
import type { ExecutorStateSnapshot } from "../executor/types.ts";
import { agentDir } from "../schema/paths.ts";

/** The state file in the agent dir the environment names (`$PI_CODING_AGENT_DIR`, else ~/.pi/agent). */
export function stateFileIn(env: Record<string, string | undefined>): string {
	return stateFilePath(agentDir(env));
}

/** What the state file holds now, for a status display; undefined when there is none or it cannot be read. */
export function savedState(env: Record<string, string | undefined>): ExecutorStateSnapshot | undefined {
	return createStateFile(stateFileIn(env)).load();
}
