// /web-access: status (default), `explain <query or URL>`, `reload`, `init [--force]`. Reports (status, explain) are also put into the
// conversation view as a displayed custom message, where the next notification cannot replace them; everything also
// goes through ctx.ui.notify (an rpc extension_ui_request; a no-op in print/json mode). Never prints a key.

import { terminalSafe } from "../runtime/terminal-safe.ts";
import type { Host } from "./host.ts";

export const COMMAND_HELP = "/web-access [status | explain <query or URL> | reload | init [--force]]";

/** The custom message type of /web-access reports in the conversation (pi.sendMessage with display: true). */
export const REPORT_MESSAGE_TYPE = "web-access";

type Level = "info" | "warning" | "error";

/**
 * Where /web-access output goes: reports (info) into the conversation view when pi offers it (TUI: a notification
 * is replaced by the next one), and every message through notify unless the report already reached the TUI.
 */
export function commandOutput(
	ctx: { mode?: string; hasUI?: boolean; ui?: { notify?: (message: string, level: Level) => void } },
	sendMessage: ((message: { customType: string; content: string; display: boolean }) => unknown) | undefined,
): (message: string, level: Level) => void {
	return (text, level) => {
		// Reports quote config and project files, and a subject the user typed: terminal-safe on both outlets.
		const message = terminalSafe(text);
		const shown = level === "info" && ctx.hasUI === true && sendMessage !== undefined;
		if (shown) sendMessage({ customType: REPORT_MESSAGE_TYPE, content: message, display: true });
		if (!shown || ctx.mode !== "tui") ctx.ui?.notify?.(message, level);
	};
}

export async function handleCommand(
	args: string,
	host: Host,
	notify: (message: string, level: "info" | "warning" | "error") => void,
): Promise<void> {
	const [word = "", ...rest] = args.trim().split(/\s+/);
	const sub = word.toLowerCase();
	try {
		if (sub === "" || sub === "status") notify(host.statusText(), "info");
		else if (sub === "explain") {
			const subject = args.trim().slice(word.length).trim();
			if (!subject) notify(`usage: ${COMMAND_HELP}`, "warning");
			else notify(host.explainText(subject), "info");
		} else if (sub === "reload") {
			const outcome = host.reload();
			if (!outcome.kept && outcome.diagnostics.length === 0) notify(host.statusText(), "info");
		} else if (sub === "init" && rest.every((r) => r === "--force")) {
			const outcome = host.init(rest.length > 0);
			notify(outcome.message, outcome.written ? "info" : "warning");
		} else notify(`unknown subcommand "${[word, ...rest].join(" ")}"; usage: ${COMMAND_HELP}`, "warning");
	} catch (error) {
		notify(`web-access: ${(error as Error).message}`, "error");
	}
}
