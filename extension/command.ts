// /web-access: status (default), `explain <query or URL>`, `reload`, `init [--force]`. Reports are for the person,
// never the model: in pi's TUI and rpc modes they are session entries (pi.appendEntry, drawn by the entry renderer
// pi-web-access/index.ts registers), which pi keeps out of the model's context; print mode writes them to stdout.

import { Writable } from "node:stream";
import { terminalSafe } from "../runtime/terminal-safe.ts";
import type { Host } from "./host.ts";

/** What a report entry holds (pi.appendEntry under pi-web-access/index.ts's REPORT_ENTRY_TYPE). */
export interface ReportEntry {
	text: string;
	level: "info" | "warning" | "error";
}

type Level = ReportEntry["level"];

/** The parts of pi's command context the output reads (`mode`: "tui", "rpc", "json" or "print"). */
export interface OutputContext {
	mode?: string;
	ui?: { notify?: (message: string, level: Level) => void };
}

/**
 * The command's own output in print mode: stdout for reports, stderr for problems. pi routes process.stdout.write
 * to stderr while it runs without a UI (its stdout is the answer's), so the stream's own write is called.
 */
export function printOutput(message: string, level: Level): void {
	const stream = level === "info" ? process.stdout : process.stderr;
	Writable.prototype.write.call(stream, `${message}\n`, "utf8");
}

/**
 * Where /web-access output goes: a report (info) becomes a session entry when pi offers appendEntry (the TUI draws
 * it in the conversation, where the next notification cannot replace it; json mode prints it as `entry_appended`),
 * and everything else, and everything in rpc mode, goes through notify. Print mode has neither: it prints.
 */
export function commandOutput(
	ctx: OutputContext,
	appendEntry: ((data: ReportEntry) => unknown) | undefined,
	print: (message: string, level: Level) => void = printOutput,
): (message: string, level: Level) => void {
	return (text, level) => {
		// Reports quote config and project files, and a subject the user typed: terminal-safe on every outlet.
		const message = terminalSafe(text);
		if (ctx.mode === "print") return print(message, level);
		const kept = appendEntry !== undefined && (level === "info" || ctx.mode === "json");
		if (kept) appendEntry({ text: message, level });
		if (!kept || ctx.mode === "rpc") ctx.ui?.notify?.(message, level);
	};
}

export async function handleCommand(
	args: string,
	host: Host,
	notify: (message: string, level: "info" | "warning" | "error") => void,
	/** The command's usage (pi-web-access/index.ts COMMAND_HELP), said after a wrong or incomplete subcommand. */
	usage: string,
): Promise<void> {
	const [word = "", ...rest] = args.trim().split(/\s+/);
	const sub = word.toLowerCase();
	try {
		if (sub === "" || sub === "status") notify(host.statusText(), "info");
		else if (sub === "explain") {
			const subject = args.trim().slice(word.length).trim();
			if (!subject) notify(`usage: ${usage}`, "warning");
			else notify(host.explainText(subject), "info");
		} else if (sub === "reload") {
			const outcome = host.reload();
			if (!outcome.kept && outcome.diagnostics.length === 0) notify(host.statusText(), "info");
		} else if (sub === "init" && rest.every((r) => r === "--force")) {
			const outcome = host.init(rest.length > 0);
			notify(outcome.message, outcome.written ? "info" : "warning");
		} else notify(`unknown subcommand "${[word, ...rest].join(" ")}"; usage: ${usage}`, "warning");
	} catch (error) {
		notify(`web-access: ${(error as Error).message}`, "error");
	}
}
