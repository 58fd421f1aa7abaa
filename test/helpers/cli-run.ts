// Runs the CLI's `main` in-process with a given environment and collects what it printed, for CLI tests.

import { main } from "../../cli/main.ts";

/** `cwd`: the working directory whose `.pi/pi-web-access.json` may be layered (default this process's). */
export async function runCli(argv: string[], env: Record<string, string>, cwd?: string) {
	let stdout = "";
	let stderr = "";
	const code = await main(argv, {
		stdout: (t) => {
			stdout += t;
		},
		stderr: (t) => {
			stderr += t;
		},
		env,
		...(cwd !== undefined ? { cwd } : {}),
	});
	return { code, stdout, stderr };
}
