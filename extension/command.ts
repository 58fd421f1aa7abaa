// /web-access: status (default), `explain <query or URL>`, `reload`, `init [--force]`. Output goes through ctx.ui.notify, which is
// an rpc extension_ui_request in rpc mode and a no-op in print/json mode. Never prints a key.

import type { Host } from "./host.ts";

export const COMMAND_HELP = "/web-access [status | explain <query or URL> | reload | init [--force]]";

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
