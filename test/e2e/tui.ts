// pi's interactive TUI for end-to-end tests: pi runs in a tmux session on a socket of its own in the test's temp
// dir, keys are sent as a person types them, and the screen is read back as text. tmux commands run
// asynchronously (the fakes pi talks to live in the test's process).

import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "./fakes.ts";
import { nodeBinary, PI_CLI, type PiHome } from "./harness.ts";

const TUI_DEFAULTS = { columns: 160, rows: 50, commandMs: 10_000, waitMs: 60_000 };

/** True when tmux is installed (the TUI tests fail without it, naming the fix). */
export const HAS_TMUX = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].some((path) => existsSync(path));

export interface Tui {
	/** The visible screen, one string. */
	screen(): Promise<string>;
	/** Types `text` and presses Enter. */
	enter(text: string): Promise<void>;
	/** Presses one key, in tmux's names (`Escape`, `C-c`). */
	key(name: string): Promise<void>;
	/** Waits until the screen matches; returns it. */
	waitFor(what: string, pattern: RegExp, timeoutMs?: number): Promise<string>;
	stop(): Promise<void>;
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

function tmux(socket: string, args: string[], env: Record<string, string>): Promise<string> {
	return new Promise((resolve, reject) => {
		execFile("tmux", ["-S", socket, ...args], { env, timeout: TUI_DEFAULTS.commandMs }, (error, stdout) =>
			error ? reject(error) : resolve(stdout),
		);
	});
}

/** Starts `pi <args>` in a fresh tmux session with the home's environment. */
export async function startTui(home: PiHome, args: string[]): Promise<Tui> {
	const socket = join(home.root, "tmux.sock");
	const env = { ...home.env, TERM: "xterm-256color" };
	const command = [nodeBinary(), PI_CLI, ...args].map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(" ");
	const size = ["-x", String(TUI_DEFAULTS.columns), "-y", String(TUI_DEFAULTS.rows)];
	await tmux(socket, ["new-session", "-d", "-s", "pi", ...size, "-c", home.env.HOME ?? home.root, command], env);
	let last = "";
	const tui: Tui = {
		async screen() {
			last = await tmux(socket, ["capture-pane", "-p", "-t", "pi"], env);
			return last;
		},
		async enter(text) {
			await tmux(socket, ["send-keys", "-t", "pi", "-l", text], env);
			await tmux(socket, ["send-keys", "-t", "pi", "Enter"], env);
		},
		async key(name) {
			await tmux(socket, ["send-keys", "-t", "pi", name], env);
		},
		async waitFor(what, pattern, timeoutMs = TUI_DEFAULTS.waitMs) {
			/** One screen read at a time: the wait checks every 20 ms, a read may take longer. */
			let reading = false;
			try {
				return await waitFor(
					what,
					() => {
						if (pattern.test(last)) return last;
						if (!reading) {
							reading = true;
							void tui
								.screen()
								.catch(() => "")
								.finally(() => {
									reading = false;
								});
						}
						return undefined;
					},
					timeoutMs,
				);
			} catch (error) {
				throw new Error(`${(error as Error).message}; screen:\n${last}`);
			}
		},
		async stop() {
			// pi is gone before the temp dirs are removed (it writes jiti's cache there while it exits).
			const pid = Number(
				(await tmux(socket, ["display", "-p", "-t", "pi", "#{pane_pid}"], env).catch(() => "")).trim(),
			);
			await tmux(socket, ["kill-server"], env).catch(() => "");
			if (pid > 0) await waitFor("pi to exit", () => (alive(pid) ? undefined : true), TUI_DEFAULTS.commandMs);
		},
	};
	return tui;
}
