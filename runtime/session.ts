// One loaded set-up shared by the CLI and the extension: config (or the zero-config derivation), routing table,
// plan context and credentials. Rebuilt on reload; the executor (with its health and key state) outlives it.

import { compile, type RoutingTable } from "../engine/route.ts";
import type { PlanContext } from "../engine/types.ts";
import { type LoadedConfig, loadConfig } from "../schema/load.ts";
import { createPlanContext } from "./context.ts";
import type { CredentialDeps, PiBridge } from "./credentials.ts";
import { KeyResolver } from "./key-expressions.ts";
import { deriveZeroConfig } from "./zero-config.ts";

export interface Setup {
	loaded: LoadedConfig;
	/** True when no file exists (and none was named) and the chains were derived from what is authenticated. */
	zeroConfig: boolean;
	table: RoutingTable;
	context: PlanContext;
	deps: CredentialDeps;
}

export interface SetupOptions {
	configFile?: string;
	env?: Record<string, string | undefined>;
	pi?: PiBridge;
	/** Reuse across reloads so `!command` keys run once per process. */
	keys?: KeyResolver;
}

export function createSetup(options: SetupOptions = {}): Setup {
	const env = options.env ?? process.env;
	const deps: CredentialDeps = {
		env,
		keys: options.keys ?? new KeyResolver({ env }),
		...(options.pi ? { pi: options.pi } : {}),
	};
	const loaded = loadConfig({ ...(options.configFile ? { explicit: options.configFile } : {}), env });
	// A file named by --config or PI_WEB_ACCESS_CONFIG that is missing is an error, not a reason for defaults.
	const zeroConfig = !loaded.exists && loaded.usable;
	const config = zeroConfig ? deriveZeroConfig(deps) : loaded.config;
	return { loaded, zeroConfig, table: compile(config), context: createPlanContext(deps), deps };
}
