// What pi is told about /web-access when the extension starts: the command's help and the custom entry type of its
// reports. A module of its own so the factory registers the command without loading command.ts (extension/index.ts).

export const COMMAND_HELP = "/web-access [status | explain <query or URL> | reload | init [--force]]";

/** The custom entry type of /web-access reports (pi.appendEntry; its entry renderer draws them in the TUI). */
export const REPORT_ENTRY_TYPE = "web-access";

/** What a report entry holds. */
export interface ReportEntry {
	text: string;
	level: "info" | "warning" | "error";
}
