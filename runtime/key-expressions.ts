// Key expressions as pi's models.json writes them: literal, $NAME, ${NAME}, !command, $$ (literal $), $! (literal
// leading !). pi does not export its resolver, so this follows the same rules. Keys are never logged or cached on disk.

import { exec } from "node:child_process";

export type KeyExpression =
	| { kind: "literal"; value: string }
	| { kind: "env"; name: string }
	| { kind: "command"; command: string };

export function parseKeyExpression(expression: string): KeyExpression {
	if (expression.startsWith("$$")) return { kind: "literal", value: `$${expression.slice(2)}` };
	if (expression.startsWith("$!")) return { kind: "literal", value: `!${expression.slice(2)}` };
	const braced = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(expression);
	if (braced?.[1]) return { kind: "env", name: braced[1] };
	const plain = /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(expression);
	if (plain?.[1]) return { kind: "env", name: plain[1] };
	if (expression.startsWith("!")) return { kind: "command", command: expression.slice(1).trim() };
	return { kind: "literal", value: expression };
}

/** Status without running anything: what /web-access and planning show. */
export type KeyStatus =
	| { state: "ready" }
	| { state: "missing"; reason: string }
	| { state: "not resolved yet" }
	| { state: "error"; reason: string };

export interface KeyResolverOptions {
	env?: Record<string, string | undefined>;
	/** Runs a `!command`; injectable for tests. Resolves to stdout. */
	run?: (command: string, timeoutMs: number, signal?: AbortSignal) => Promise<string>;
}

function runShell(command: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
	return new Promise((resolve, reject) => {
		exec(command, { timeout: timeoutMs, signal, windowsHide: true, maxBuffer: 1024 * 1024 }, (error, stdout) => {
			// The command's own output may contain the key, so neither stdout nor stderr goes into the error.
			if (error) {
				const timedOut = (error as { killed?: boolean }).killed === true;
				reject(
					new Error(
						timedOut ? `key command timed out after ${timeoutMs} ms` : `key command failed (exit ${error.code ?? "?"})`,
					),
				);
			} else resolve(stdout);
		});
	});
}

/**
 * Resolves key expressions. A `!command` runs once per process on first use (its output is kept in memory only)
 * and again after a timeout or failure; concurrent first uses share one run.
 */
export class KeyResolver {
	private readonly env: Record<string, string | undefined>;
	private readonly run: NonNullable<KeyResolverOptions["run"]>;
	private readonly commands = new Map<string, Promise<string>>();
	private readonly resolved = new Set<string>();

	constructor(options: KeyResolverOptions = {}) {
		this.env = options.env ?? process.env;
		this.run = options.run ?? runShell;
	}

	status(expression: string): KeyStatus {
		const parsed = parseKeyExpression(expression);
		if (parsed.kind === "literal") return parsed.value ? { state: "ready" } : { state: "missing", reason: "empty key" };
		if (parsed.kind === "env") {
			return this.env[parsed.name] ? { state: "ready" } : { state: "missing", reason: `$${parsed.name} is not set` };
		}
		if (!parsed.command) return { state: "error", reason: "empty !command" };
		return this.resolved.has(parsed.command) ? { state: "ready" } : { state: "not resolved yet" };
	}

	async resolve(expression: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
		const parsed = parseKeyExpression(expression);
		if (parsed.kind === "literal") return parsed.value;
		if (parsed.kind === "env") {
			const value = this.env[parsed.name];
			if (!value) throw new Error(`$${parsed.name} is not set`);
			return value;
		}
		let pending = this.commands.get(parsed.command);
		if (!pending) {
			pending = this.run(parsed.command, timeoutMs, signal).then((out) => {
				const key = out.trim();
				if (!key) throw new Error("key command printed nothing");
				this.resolved.add(parsed.command);
				return key;
			});
			this.commands.set(parsed.command, pending);
			// A failed or timed-out command is forgotten so the next call runs it again.
			pending.catch(() => this.commands.delete(parsed.command));
		}
		return pending;
	}
}
