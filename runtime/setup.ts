// One loaded set-up shared by the CLI and the extension: config (or the zero-config derivation), routing table,
// plan context and credentials. Rebuilt on reload; the executor (with its health and key state) outlives it.

import { basename } from "node:path";
import type { PlanContext } from "../engine/request-types.ts";
import { compile, type RoutingTable } from "../engine/route.ts";
import { providerType } from "../providers/registry.ts";
import { type LoadedConfig, loadConfig } from "../schema/load.ts";
import { layerProject, type ProjectLayer, type ProjectTrust, projectConfigPath } from "../schema/project.ts";
import type { CredentialDeps } from "./credentials.ts";
import { KeyResolver } from "./key-expressions.ts";
import type { PiBridge } from "./pi-bridge.ts";
import { createPlanContext } from "./plan-context.ts";
import { deriveZeroConfig } from "./zero-config.ts";

/** The loader's pieces the shells use directly: `check` loads the file alone, and every shell prints diagnostics. */
export { formatDiagnostic, type LoadedConfig, loadConfig } from "../schema/load.ts";

export interface Setup {
	loaded: LoadedConfig;
	/**
	 * True when the chains were derived from what is authenticated: no file exists, or the file cannot be used at
	 * all (syntax error, not an object, unreadable), which must never take the keyless defaults down with it.
	 */
	zeroConfig: boolean;
	/** Set when the file exists but cannot be used: says so and that zero-config runs (every message repeats it). */
	notice?: string;
	table: RoutingTable;
	context: PlanContext;
	deps: CredentialDeps;
	/** The project layer (`<cwd>/.pi/pi-web-access.json`), when a working directory was given. */
	project?: ProjectLayer;
}

export interface SetupOptions {
	configFile?: string;
	env?: Record<string, string | undefined>;
	pi?: PiBridge;
	/** Reuse across reloads so `!command` keys run once per process. */
	keys?: KeyResolver;
	/** Layer `<cwd>/.pi/pi-web-access.json` over the global config when `trust` allows it. */
	project?: { cwd: string; trust: ProjectTrust };
}

export function createSetup(options: SetupOptions = {}): Setup {
	const env = options.env ?? process.env;
	const deps: CredentialDeps = {
		env,
		keys: options.keys ?? new KeyResolver({ env }),
		...(options.pi ? { pi: options.pi } : {}),
	};
	let loaded = loadConfig({ ...(options.configFile ? { explicit: options.configFile } : {}), env });
	// No file, or one that cannot be used at all, runs the derived set-up. A file named by --config or
	// PI_WEB_ACCESS_CONFIG that is missing is an error instead (the CLI stops on it): never silent defaults.
	const named = Boolean(options.configFile || (options.env ?? process.env).PI_WEB_ACCESS_CONFIG);
	const zeroConfig = !loaded.exists ? !named : !loaded.usable;
	let config = zeroConfig ? deriveZeroConfig(deps) : loaded.config;
	const notice = unusableNotice(loaded);
	let project: ProjectLayer | undefined;
	if (options.project) {
		const file = projectConfigPath(options.project.cwd);
		({ config, layer: project } = layerProject(config, loaded.file, file, options.project.trust));
		// Its problems are reported wherever the global file's are (each names its own file).
		if (project.diagnostics.length > 0)
			loaded = { ...loaded, diagnostics: [...loaded.diagnostics, ...project.diagnostics] };
	}
	const setup: Setup = {
		loaded,
		zeroConfig,
		...(notice ? { notice } : {}),
		table: compile(config),
		context: createPlanContext(deps),
		deps,
	};
	return project ? { ...setup, project } : setup;
}

/** "pi-web-access.json is not usable (4:5 syntax error: …): running on zero-config", or undefined. */
export function unusableNotice(loaded: LoadedConfig): string | undefined {
	const reason = unusableReason(loaded);
	return reason === undefined ? undefined : `${reason}: running on zero-config`;
}

/** "pi-web-access.json is not usable (4:5 syntax error: …)", or undefined: what runs instead is the caller's to say. */
export function unusableReason(loaded: LoadedConfig): string | undefined {
	if (!loaded.exists || loaded.usable) return undefined;
	const first = loaded.diagnostics.find((d) => d.severity === "error");
	const why = first ? ` (${first.line}:${first.col} ${first.message})` : "";
	return `${basename(loaded.file)} is not usable${why}`;
}

/**
 * Whether the set-up takes anything from pi: a zero-config derivation (which asks pi what is authenticated), a
 * provider naming a pi provider or the current model, or a type whose default key is a pi provider's. Loading
 * pi's registry costs seconds, so the CLI loads it only then.
 */
export function needsPi(setup: Setup): boolean {
	if (setup.zeroConfig) return true;
	return setup.table.config.providers.some((p) => {
		if (p.provider || p.type === "model") return true;
		const credentials = providerType(p.type)?.credentials;
		return !p.apiKey && typeof credentials === "object" && credentials.piProvider !== undefined;
	});
}
