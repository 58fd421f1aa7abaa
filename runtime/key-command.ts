// Runs a `!command` key expression in its own process group, so that a timeout, an abort or the exit of our
// process kills the command and everything it started (a `sleep` in a pipeline would otherwise outlive us).
// stdout never goes into an error (it may be the key); a failed command's stderr does, as one bounded line with
// anything token-like masked, because it usually says why ("not signed in").

import { type ChildProcess, spawn } from "node:child_process";

export const KEY_COMMAND_DEFAULTS = {
	maxOutputBytes: 1024 * 1024,
	/** The end of stderr that is kept (its last lines say why the command failed). */
	stderrKeptBytes: 4096,
	/** Characters of stderr that go into the error. */
	stderrShownChars: 300,
};

/** A run of 16+ key-like characters with a digit in it: masked in what a failed command printed on stderr. */
const TOKEN_LIKE = /[A-Za-z0-9_+/=.~-]{16,}/g;

/** What a failed command printed on stderr, as one line: control characters out, token-like words masked, bounded. */
export function stderrSummary(stderr: string): string {
	const line = stderr
		.split(/\r?\n/)
		.map((part) => part.trim())
		.filter(Boolean)
		.join(" · ")
		// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
		.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")
		.replace(TOKEN_LIKE, (word) => (/\d/.test(word) && /[A-Za-z]/.test(word) ? "[hidden]" : word));
	const { stderrShownChars } = KEY_COMMAND_DEFAULTS;
	return line.length > stderrShownChars ? `…${line.slice(-stderrShownChars)}` : line;
}

/** Groups still running, killed when this process exits (one listener for all of them). */
const running = new Set<ChildProcess>();
let exitHook = false;

/** Kills the command's group; also after the shell itself exited, since what it started may still run. */
function killGroup(child: ChildProcess): void {
	running.delete(child);
	if (child.pid === undefined) return;
	try {
		// A negative pid signals the whole group (POSIX); Windows has no groups, so the child alone there.
		if (process.platform === "win32") child.kill("SIGKILL");
		else process.kill(-child.pid, "SIGKILL");
	} catch {
		// Already gone.
	}
}

function watchExit(): void {
	if (exitHook) return;
	exitHook = true;
	process.on("exit", () => {
		for (const child of [...running]) killGroup(child);
	});
}

/** Runs `command` with sh; resolves to its stdout. The group is killed on timeout, abort and process exit. */
export function runKeyCommand(command: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) {
			reject(new Error("key command aborted"));
			return;
		}
		const shell = process.platform === "win32" ? "cmd.exe" : "/bin/sh";
		const args = process.platform === "win32" ? ["/d", "/s", "/c", command] : ["-c", command];
		const child = spawn(shell, args, { detached: true, stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
		running.add(child);
		watchExit();
		const chunks: Buffer[] = [];
		let bytes = 0;
		let settled = false;
		const finish = (error: Error | undefined, stdout?: string) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			signal?.removeEventListener("abort", onAbort);
			// Even after a clean exit, background jobs the command left behind go with its group.
			killGroup(child);
			if (error) reject(error);
			else resolve(stdout ?? "");
		};
		const onAbort = () => finish(new Error("key command aborted"));
		const timer = setTimeout(() => finish(new Error(`key command timed out after ${timeoutMs} ms`)), timeoutMs);
		signal?.addEventListener("abort", onAbort, { once: true });
		child.stdout?.on("data", (chunk: Buffer) => {
			bytes += chunk.length;
			if (bytes > KEY_COMMAND_DEFAULTS.maxOutputBytes) finish(new Error("key command printed more than 1 MB"));
			else chunks.push(chunk);
		});
		let stderr = Buffer.alloc(0);
		child.stderr?.on("data", (chunk: Buffer) => {
			const { stderrKeptBytes } = KEY_COMMAND_DEFAULTS;
			stderr = Buffer.concat([stderr, chunk]);
			if (stderr.length > stderrKeptBytes) stderr = stderr.subarray(stderr.length - stderrKeptBytes);
		});
		child.on("error", (error) =>
			finish(new Error(`key command could not start (${(error as { code?: string }).code ?? "error"})`)),
		);
		let exit: string | undefined;
		// A background job left holding stdout would keep the pipe open: when the shell exits, its group goes too,
		// and "close" (all output read) settles the call.
		child.on("exit", (code, killedBy) => {
			exit = String(code ?? killedBy ?? "?");
			killGroup(child);
		});
		child.on("close", (code, killedBy) => {
			const status = exit ?? String(code ?? killedBy ?? "?");
			if (status === "0") finish(undefined, Buffer.concat(chunks).toString("utf8"));
			else {
				const said = stderrSummary(stderr.toString("utf8"));
				finish(new Error(`key command failed (exit ${status})${said ? `: ${said}` : ""}`));
			}
		});
	});
}
