// A CLI "machine" for tests with real processes: a temp HOME of its own (pi's agent dir and TMPDIR inside it), a
// config file, and the CLI (`cli/bin.js`) run there with only PATH and what the test adds to its environment.

import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");

export type CliRun = { code: number; stdout: string; stderr: string };

export interface CliWorld {
	home: string;
	agent: string;
	cli(args: string[]): Promise<CliRun>;
	/** `status --json`, parsed. */
	status(): Promise<ReturnType<typeof JSON.parse>>;
}

/** A world whose HOME is pushed to `homes` (the test removes them); `config` is written as the config file. */
export function cliWorld(
	homes: string[],
	config: Record<string, unknown>,
	env: Record<string, string> = {},
	prefix = "pwa-world-",
): CliWorld {
	const home = mkdtempSync(join(tmpdir(), prefix));
	homes.push(home);
	const file = join(home, "cfg.json5");
	writeFileSync(file, JSON.stringify(config));
	const agent = join(home, "agent");
	const full = { PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: agent, TMPDIR: home, ...env };
	const cli = (args: string[]): Promise<CliRun> =>
		new Promise((resolve) => {
			execFile(
				process.execPath,
				[join(root, "cli", "bin.js"), ...args, "--config", file],
				{ env: full },
				(error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
			);
		});
	const status = async () => JSON.parse((await cli(["status", "--json"])).stdout);
	return { home, agent, cli, status };
}
