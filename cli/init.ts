// `init [--force]`: writes the commented starter file to the config path. Exit 1 (and nothing written) when the
// file exists and --force is not given. The CLI's only command that writes a config.

import { chooseConfigFile } from "../runtime/files.ts";
import { initConfigFile } from "../runtime/init.ts";
import { KeyResolver } from "../runtime/key-expressions.ts";
import type { CliArgs } from "./args.ts";
import type { CliIO } from "./io.ts";
import { loadPiRegistry } from "./pi-registry.ts";

export async function initCommand(args: CliArgs, io: CliIO): Promise<number> {
	const { env } = io;
	const { file } = chooseConfigFile({ ...(args.config ? { explicit: args.config } : {}), env });
	// pi's registry tells which pi providers and which current model the derived set-up can use.
	// Read-only: init writes the config file and nothing of pi's.
	const pi = (await loadPiRegistry(env, args.model, true)).bridge;
	const deps = { env, keys: new KeyResolver({ env }), ...(pi ? { pi } : {}) };
	const hints = { forceHint: "`pi-web-access init --force`", checkHint: "`pi-web-access check` reports" };
	const outcome = initConfigFile({ file, force: args.force, deps, ...hints });
	if (args.json) {
		const { text: _text, ...rest } = outcome.written ? outcome : { ...outcome, text: "" };
		io.stdout(`${JSON.stringify(rest, null, 2)}\n`);
	} else if (outcome.written) io.stdout(`${outcome.message}\n`);
	else io.stderr(`pi-web-access: ${outcome.message}\n`);
	return outcome.written ? 0 : 1;
}
