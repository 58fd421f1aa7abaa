// `status`: the same report as /web-access. It reports and never fails: exit 0 even when nothing is ready.

import type { Setup } from "../runtime/session.ts";
import { formatStatus, statusReport } from "../runtime/status.ts";
import type { CliArgs } from "./args.ts";
import type { CliIO } from "./main.ts";

export async function statusCommand(setup: Setup, args: CliArgs, io: CliIO): Promise<number> {
	const { createStateFile, stateFilePath } = await import("../executor/index.ts");
	const { agentDir } = await import("../schema/load.ts");
	const saved = createStateFile(stateFilePath(agentDir(io.env))).load();
	const report = statusReport(setup, saved ?? { version: 1, cooldowns: [], keys: [] });
	io.stdout(args.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatStatus(report)}\n`);
	return 0;
}
