// `status`: the same report as /web-access, plus where the CLI's pi credentials came from. It reports and never
// fails: exit 0 even when nothing is ready.

import type { Setup } from "../runtime/setup.ts";
import { savedState, storedState } from "../runtime/state-file.ts";
import { formatStatus, statusReport, storeLine } from "../runtime/status.ts";
import { teamStoreState } from "../runtime/team-store.ts";
import type { CliArgs } from "./args.ts";
import type { CliIO } from "./io.ts";
import type { CliPi } from "./pi-registry.ts";

const PI_LINES: Record<CliPi["use"], string> = {
	registry: "pi: credentials from pi's registry (models.json, auth.json)",
	"not installed": "pi: not installed here — credentials from env variables and apiKey expressions only",
	unreadable: "pi: its registry could not be read — credentials from env variables and apiKey expressions only",
	"not needed": "pi: not consulted — no provider here takes its credentials from pi",
};

export async function statusCommand({ setup, pi }: { setup: Setup; pi: CliPi }, args: CliArgs, io: CliIO) {
	const saved = savedState(io.env);
	const persist = setup.table.config.state?.persist !== false;
	const stored = storedState(io.env, saved.snapshot);
	// With a team store, spend and budget headroom are the team's (every machine sharing it).
	const team = persist ? await teamStoreState(io.env, setup.table.config) : undefined;
	if (team?.team) stored.snapshot.spend = team.team;
	const report = statusReport(setup, stored.snapshot, Date.now(), [], undefined, persist ? saved.status : undefined);
	const store = persist ? (team?.health ?? stored.store) : { kind: "memory", state: "ok" as const };
	const piLine = `${PI_LINES[pi.use]}${pi.version ? ` (pi ${pi.version})` : ""}`;
	const piJson = { use: pi.use, ...(pi.version ? { version: pi.version } : {}) };
	io.stdout(
		args.json
			? `${JSON.stringify({ ...report, store, pi: piJson }, null, 2)}\n`
			: `${formatStatus(report)}\n${storeLine(store)}\n${piLine}\n`,
	);
	return 0;
}
