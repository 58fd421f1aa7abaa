// Runs cli/bin.js in a child process on this Node, killed after a deadline: a command that would block (a FIFO
// opened for reading or writing) shows as `code: "killed"` instead of hanging the suite. It can be sent Ctrl-C
// (SIGINT) once a condition holds, as a person would press it.

import { execFile } from "node:child_process";
import { join } from "node:path";

const bin = join(import.meta.dirname, "..", "..", "cli", "bin.js");

export interface Spawned {
	/** The exit code, or "killed" when the deadline ended it. */
	code: number | "killed";
	stdout: string;
	stderr: string;
}

export function spawnCli(
	args: string[],
	env: Record<string, string>,
	options: { timeoutMs?: number; cwd?: string; interruptWhen?: () => boolean } = {},
): Promise<Spawned> {
	const { timeoutMs = 20_000, cwd, interruptWhen } = options;
	return new Promise((resolve) => {
		let poll: NodeJS.Timeout | undefined;
		const child = execFile(
			process.execPath,
			[bin, ...args],
			{
				env: { PATH: process.env.PATH ?? "", ...env },
				timeout: timeoutMs,
				killSignal: "SIGKILL",
				...(cwd ? { cwd } : {}),
			},
			(error, stdout, stderr) => {
				clearInterval(poll);
				// The deadline kills with SIGKILL; after Ctrl-C the command's own exit code is what counts.
				const killed = error?.signal === "SIGKILL";
				resolve({ code: error ? (killed ? "killed" : Number(error.code ?? 1)) : 0, stdout, stderr });
			},
		);
		if (interruptWhen) {
			poll = setInterval(() => {
				if (!interruptWhen()) return;
				clearInterval(poll);
				child.kill("SIGINT");
			}, 20);
		}
	});
}
