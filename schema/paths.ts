// Where the config file lives, for the loader, the host and the CLI. pi's start-up module repeats chooseConfigFile's
// answer on its own (pi-web-access/index.ts startupConfigFile, to read no second module of ours while pi starts):
// test/startup-modules.test.ts holds the two equal, so a change here shows there.

import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const CONFIG_FILE_NAME = "pi-web-access.json";

/** The names looked for in the agent dir, in order of preference: the first that exists is read. */
export const CONFIG_FILE_NAMES = [CONFIG_FILE_NAME, "pi-web-access.jsonc", "pi-web-access.json5"] as const;

export interface ConfigLocation {
	/** `--config`. */
	explicit?: string;
	env?: Record<string, string | undefined>;
}

export interface ConfigFileChoice {
	/** The file read, or the one that would be read (and that `init` writes). */
	file: string;
	/** Every candidate name that exists, `file` first; two or more deserve a warning (only `file` is read). */
	present: string[];
}

/** `agentDir` = PI_CODING_AGENT_DIR or ~/.pi/agent, as pi itself resolves it. */
export function agentDir(env: Record<string, string | undefined> = process.env): string {
	const dir = env.PI_CODING_AGENT_DIR;
	if (dir) return dir.startsWith("~/") ? join(homedir(), dir.slice(2)) : dir;
	return join(env.HOME || homedir(), ".pi", "agent");
}

/**
 * `--config`, then PI_WEB_ACCESS_CONFIG (both used as given), then the first of CONFIG_FILE_NAMES present in the
 * agent dir, else `<agentDir>/pi-web-access.json`. The fixed order makes the choice deterministic.
 */
export function chooseConfigFile(location: ConfigLocation = {}): ConfigFileChoice {
	const env = location.env ?? process.env;
	const given = location.explicit || env.PI_WEB_ACCESS_CONFIG;
	if (given) return { file: given, present: [] };
	const dir = agentDir(env);
	const present = CONFIG_FILE_NAMES.map((name) => join(dir, name)).filter((file) => existsSync(file));
	return { file: present[0] ?? join(dir, CONFIG_FILE_NAME), present };
}

export function configPath(location: ConfigLocation = {}): string {
	return chooseConfigFile(location).file;
}
