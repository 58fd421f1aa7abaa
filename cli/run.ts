// `search` and `fetch`: run the real executor with the real providers. --json prints exactly the executor's
// result; otherwise the markdown the model sees. Progress goes to stderr. Exit 1 when every attempt failed.

import { isWebAccessError } from "../engine/errors.ts";
import { plan } from "../engine/plan.ts";
import type { WebRequest } from "../engine/types.ts";
import { stateFilePath } from "../executor/index.ts";
import { modelText, OUTPUT_DEFAULTS, truncateLines } from "../runtime/format.ts";
import { createServices } from "../runtime/services.ts";
import type { Setup } from "../runtime/session.ts";
import { agentDir, formatDiagnostic } from "../schema/load.ts";
import type { CliArgs } from "./args.ts";
import type { CliIO } from "./main.ts";

export async function runCommand(
	request: WebRequest,
	args: CliArgs,
	io: CliIO,
	setupFor: (args: CliArgs, io: CliIO) => Promise<Setup>,
): Promise<number> {
	const setup = await setupFor(args, io);
	for (const d of setup.loaded.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
	const persist = setup.table.config.state?.persist !== false;
	const services = createServices(setup, persist ? { spendFile: stateFilePath(agentDir(io.env)) } : {});
	const thePlan = plan(setup.table, request, setup.context);
	const controller = new AbortController();
	const onSignal = () => controller.abort();
	process.once("SIGINT", onSignal);
	try {
		const result = await services.run(thePlan, {
			signal: controller.signal,
			onProgress: (line) => io.stderr(`${line}\n`),
		});
		if (args.json) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
		else {
			const maxChars = setup.table.config.output?.maxChars ?? OUTPUT_DEFAULTS.maxChars;
			io.stdout(`${modelText(result, request, { maxChars, truncate: truncateLines }).text}\n`);
		}
		return 0;
	} catch (error) {
		const message = (error as Error).message;
		if (args.json) {
			const attempts = isWebAccessError(error) ? (error.attempts ?? []) : [];
			io.stdout(`${JSON.stringify({ error: message, attempts }, null, 2)}\n`);
		} else io.stderr(`pi-web-access: ${message}\n`);
		return 1;
	} finally {
		process.off("SIGINT", onSignal);
	}
}
