// Where the config file lives, kept apart from the loader so the extension's factory can find the file (for
// tool names) without loading Ajv, momoa or the site-pattern engine at pi start-up.

import { homedir } from "node:os";
import { join } from "node:path";

export const CONFIG_FILE_NAME = "pi-web-access.json";

export interface ConfigLocation {
	/** `--config`. */
	explicit?: string;
	env?: Record<string, string | undefined>;
}

/** `agentDir` = PI_CODING_AGENT_DIR or ~/.pi/agent, as pi itself resolves it. */
export function agentDir(env: Record<string, string | undefined> = process.env): string {
	const dir = env.PI_CODING_AGENT_DIR;
	if (dir) return dir.startsWith("~/") ? join(homedir(), dir.slice(2)) : dir;
	return join(env.HOME || homedir(), ".pi", "agent");
}

/** `--config`, then PI_WEB_ACCESS_CONFIG, then `<agentDir>/pi-web-access.json`. */
export function configPath(location: ConfigLocation = {}): string {
	const env = location.env ?? process.env;
	return location.explicit || env.PI_WEB_ACCESS_CONFIG || join(agentDir(env), CONFIG_FILE_NAME);
}
