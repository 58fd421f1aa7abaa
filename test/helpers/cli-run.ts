// Runs the CLI's `main` in-process with a given environment and collects what it printed, for CLI tests.

import { main } from "../../cli/main.ts";

export async function runCli(argv: string[], env: Record<string, string>) {
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
	});
	return { code, stdout, stderr };
}
