// Config problems reach the user in every pi mode: through pi's UI where there is one (TUI, rpc), else once on
// stderr (print and json modes, where ui.notify is a no-op), one `file:line:col: severity: message (fix: …)` a line.

import type { Diagnostic } from "../engine/config-types.ts";
import { formatDiagnostic, type Setup } from "../runtime/setup.ts";
import { terminalSafe } from "../runtime/terminal-safe.ts";

type Level = "info" | "warning" | "error";

/** The parts of pi's context this reads (`hasUI` is false in print and json modes, see pi's docs/extensions.md). */
export interface ReportContext {
	hasUI?: boolean;
	ui?: { notify?: (message: string, level: Level) => void };
}

/** The lines to show for a set-up's config problems, headed by what runs instead; empty when there are none. */
export function diagnosticsReport(setup: Pick<Setup, "loaded" | "notice">): { text: string; level: Level } | undefined {
	const { diagnostics } = setup.loaded;
	if (diagnostics.length === 0 && !setup.notice) return undefined;
	const head = setup.notice ? `pi-web-access: ${setup.notice}` : "pi-web-access config problems (the rest works):";
	const level: Level = diagnostics.some((d) => d.severity === "error") ? "error" : "warning";
	return { text: [head, ...diagnostics.map(formatDiagnostic)].join("\n"), level };
}

/** Reports once per call: through the UI when pi has one, else to `stderr`. */
export function reportDiagnostics(
	setup: Pick<Setup, "loaded" | "notice">,
	ctx: ReportContext,
	stderr: (text: string) => void = (text) => process.stderr.write(text),
): void {
	const report = diagnosticsReport(setup);
	if (report === undefined) return;
	// Key names and values quoted from the config files reach the terminal either way.
	const text = terminalSafe(report.text);
	if (ctx.hasUI && ctx.ui?.notify) ctx.ui.notify(text, report.level);
	else stderr(`${text}\n`);
}

/** For a failed tool call: the config file and its first error, so the model can tell the user what to fix. */
export function configErrorNote(setup: Pick<Setup, "loaded" | "notice">): string {
	const first: Diagnostic | undefined = setup.loaded.diagnostics.find((d) => d.severity === "error");
	if (first === undefined) return "";
	return setup.notice
		? ` (${setup.notice}: ${formatDiagnostic(first)})`
		: ` (config problem: ${formatDiagnostic(first)})`;
}
