// Key expressions as pi's models.json writes them: literal, $NAME, ${NAME}, !command, $$ (literal $), $! (literal
// leading !). pi does not export its resolver, so this follows the same rules. Keys are never logged or cached on disk.

import { runKeyCommand } from "./key-command.ts";

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

/** Where an expression's key comes from, in words that never hold the key: `$NAME`, a literal, a `!command`. */
export function expressionSource(expression: string): string {
	const parsed = parseKeyExpression(expression);
	if (parsed.kind === "env") return `from $${parsed.name}`;
	return parsed.kind === "command" ? "a !command" : "a literal in the config";
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

interface CommandRun {
	promise: Promise<string>;
	controller: AbortController;
	/** Callers waiting with an abort signal. */
	waiting: number;
	/** A caller without a signal waits too: the run then goes on until it ends. */
	held: boolean;
}

/**
 * Resolves key expressions. A `!command` runs once per process on first use (its output is kept in memory only)
 * and again after a timeout or failure; concurrent first uses share one run.
 */
export class KeyResolver {
	private readonly env: Record<string, string | undefined>;
	private readonly run: NonNullable<KeyResolverOptions["run"]>;
	private readonly commands = new Map<string, CommandRun>();
	private readonly resolved = new Set<string>();

	constructor(options: KeyResolverOptions = {}) {
		this.env = options.env ?? process.env;
		this.run = options.run ?? runKeyCommand;
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

	/** A literal's or a set `$VAR`'s key, which needs no waiting; undefined for anything else (resolve says why). */
	resolveNow(expression: string): string | undefined {
		const parsed = parseKeyExpression(expression);
		if (parsed.kind === "literal") return parsed.value;
		if (parsed.kind === "env") return this.env[parsed.name] || undefined;
		return undefined;
	}

	async resolve(expression: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
		const parsed = parseKeyExpression(expression);
		if (parsed.kind === "literal") return parsed.value;
		if (parsed.kind === "env") {
			const value = this.env[parsed.name];
			if (!value) throw new Error(`$${parsed.name} is not set`);
			return value;
		}
		let run = this.commands.get(parsed.command);
		if (!run) {
			const controller = new AbortController();
			const promise = this.run(parsed.command, timeoutMs, controller.signal).then((out) => {
				const key = out.trim();
				if (!key) throw new Error("key command printed nothing");
				this.resolved.add(parsed.command);
				return key;
			});
			run = { promise, controller, waiting: 0, held: false };
			this.commands.set(parsed.command, run);
			// A failed or timed-out command is forgotten so the next call runs it again.
			promise.catch(() => this.commands.delete(parsed.command));
		}
		return this.wait(run, signal);
	}

	/** One caller's wait on a shared run: when every caller that can abort has, the command is killed. */
	private wait(run: CommandRun, signal: AbortSignal | undefined): Promise<string> {
		if (!signal) {
			run.held = true;
			return run.promise;
		}
		if (signal.aborted) return Promise.reject(new Error("key command aborted"));
		run.waiting++;
		return new Promise((resolve, reject) => {
			const onAbort = () => {
				run.waiting--;
				if (run.waiting === 0 && !run.held) run.controller.abort();
				reject(new Error("key command aborted"));
			};
			signal.addEventListener("abort", onAbort, { once: true });
			const done = () => signal.removeEventListener("abort", onAbort);
			run.promise.then(
				(key) => {
					done();
					resolve(key);
				},
				(error: unknown) => {
					done();
					reject(error);
				},
			);
		});
	}
}
