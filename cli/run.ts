// `search` and `fetch`: run the real executor with the real providers. --json prints exactly the executor's
// result; otherwise the markdown the model sees. Progress goes to stderr. Exit 1 when every attempt failed, with
// the failure's structure (runtime/failure.ts) in --json and its next action as the last line otherwise; Ctrl-C
// says "cancelled" and exits 130.

import { OUTPUT_DEFAULTS } from "../engine/limits.ts";
import { plan } from "../engine/plan.ts";
import type { WebRequest } from "../engine/request-types.ts";
import { CLI_WORDING, describeFailure } from "../runtime/failure.ts";
import { CLI_TERMS, modelText, truncateLines } from "../runtime/format.ts";
import { noUsableProviderMessage } from "../runtime/guidance.ts";
import { createServices } from "../runtime/services.ts";
import { formatDiagnostic, type Setup } from "../runtime/setup.ts";
import { shutdownRuntime } from "../runtime/shutdown.ts";
import { storeLine } from "../runtime/status.ts";
import { storeIn } from "../runtime/team-store.ts";
import type { CliArgs } from "./args.ts";
import type { CliIO } from "./io.ts";

/** The exit code after Ctrl-C, as a shell reports a command ended by SIGINT (128 + 2). */
export const CANCELLED_EXIT = 130;

export async function runCommand(
	request: WebRequest,
	args: CliArgs,
	io: CliIO,
	setupFor: (args: CliArgs, io: CliIO) => Promise<Setup>,
): Promise<number> {
	const setup = await setupFor(args, io);
	if (setup.notice) io.stderr(`pi-web-access: ${setup.notice}\n`);
	for (const d of setup.loaded.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
	const persist = setup.table.config.state?.persist !== false;
	const services = createServices(setup, persist ? { store: storeIn(io.env, setup.table.config) } : {});
	const thePlan = plan(setup.table, request, setup.context);
	const none = noUsableProviderMessage(thePlan, setup, "pi-web-access status");
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
			const text = modelText(result, request, { maxChars, truncate: truncateLines, terms: CLI_TERMS }).text;
			io.stdout(`${text}\n`);
		}
		return 0;
	} catch (error) {
		const context = { setup, plan: thePlan, capability: request.kind, wording: CLI_WORDING };
		// Ctrl-C: the person stopped it, so there is no failure to explain; 130 is a shell's code for SIGINT.
		if (controller.signal.aborted) {
			if (args.json) io.stdout(`${JSON.stringify(describeFailure(error, context).failure, null, 2)}\n`);
			else io.stderr("pi-web-access: cancelled\n");
			return CANCELLED_EXIT;
		}
		const described = describeFailure(error, context);
		// When nothing was usable, the message says what would enable a provider; the last line stays the next action.
		const failure = none ? { ...described.failure, error: none } : described.failure;
		const text = none ? `${none}\n${described.text.split("\n").at(-1)}` : described.text;
		if (args.json) io.stdout(`${JSON.stringify(failure, null, 2)}\n`);
		else io.stderr(`pi-web-access: ${text}\n`);
		return 1;
	} finally {
		process.off("SIGINT", onSignal);
		services.executor.flush();
		// A state store that could not be used is said: this run's spend and marks stayed in this process.
		const store = services.executor.store();
		if (store.state !== "ok") io.stderr(`pi-web-access: ${storeLine(store)}\n`);
		// A team store sends what is still in flight (bounded by its timeout) and closes its connection.
		await services.executor.drain();
		await shutdownRuntime();
	}
}
