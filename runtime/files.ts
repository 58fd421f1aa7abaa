// The files pi-web-access reads and writes, for the shells: pi's agent dir, the config file and the state file
// (health, key states and spend; fingerprints and amounts, never keys). Light on purpose: the extension's factory
// reads the tool names through it at pi start-up, so it loads no loader, executor or provider.

import { createStateFile, stateFilePath } from "../executor/persist.ts";
import type { ExecutorStateSnapshot } from "../executor/types.ts";
import { agentDir } from "../schema/paths.ts";

export { agentDir, CONFIG_FILE_NAMES, chooseConfigFile, configPath } from "../schema/paths.ts";

/** The state file in the agent dir the environment names (`$PI_CODING_AGENT_DIR`, else ~/.pi/agent). */
export function stateFileIn(env: Record<string, string | undefined>): string {
	return stateFilePath(agentDir(env));
}

/** What the state file holds now, for a status display; undefined when there is none or it cannot be read. */
export function savedState(env: Record<string, string | undefined>): ExecutorStateSnapshot | undefined {
	return createStateFile(stateFileIn(env)).load();
}
