// `check`: the config file's problems, each as file:line:col with a fix, then a one-line summary. With --project,
// ./.pi/pi-web-access.json is checked too, under the project rules (what a project file may not set is reported),
// layered over the global file as every other command layers it.

import type { Diagnostic } from "../engine/config-types.ts";
import { checkSummary, defaultChain, setupWarnings } from "../runtime/check-summary.ts";
import { createSetup, formatDiagnostic, type LoadedConfig, loadConfig } from "../runtime/setup.ts";
import { type StoreHealth, savedState, storedState } from "../runtime/state-file.ts";
import { storeLine } from "../runtime/status.ts";
import { teamStoreState } from "../runtime/team-store.ts";
import type { CliArgs } from "./args.ts";
import type { CliIO } from "./io.ts";

interface Checked {
	loaded: LoadedConfig;
	diagnostics: Diagnostic[];
	summary: string;
	project?: { file: string; state: string; reason: string };
}

/** The global file alone: no credentials, no routing table. */
function checkGlobal(args: CliArgs, io: CliIO): Checked {
	const loaded = loadConfig({ ...(args.config ? { explicit: args.config } : {}), env: io.env });
	const diagnostics = [...loaded.diagnostics, ...setupWarnings(loaded)];
	return { loaded, diagnostics, summary: checkSummary(loaded, diagnostics) };
}

/** The project file over the global one, trusted because --project asks for exactly that. */
function checkProject(args: CliArgs, io: CliIO): Checked {
	const cwd = io.cwd ?? process.cwd();
	const setup = createSetup({
		...(args.config ? { configFile: args.config } : {}),
		env: io.env,
		project: { cwd, trust: { trusted: true, reason: "--project" } },
	});
	const layer = setup.project!;
	// Chains and rules as the layered set-up has them: that is what a call in this folder would use.
	const layered: LoadedConfig = { ...setup.loaded, exists: true, usable: true, config: setup.table.config };
	const diagnostics = [...setup.loaded.diagnostics, ...(layer.state === "loaded" ? setupWarnings(layered) : [])];
	if (layer.state === "absent") {
		diagnostics.push({
			severity: "error",
			file: layer.file,
			line: 1,
			col: 1,
			path: "",
			message: "no project config file here",
			fix: "create .pi/pi-web-access.json in this folder, or run check without --project",
		});
	}
	const base = checkSummary(layered, diagnostics);
	const [problems, ...chains] = base.split(" · ");
	const summary = [problems, `project: ${layer.file} (${layer.state})`, ...chains].join(" · ");
	const project = { file: layer.file, state: layer.state, reason: layer.reason };
	return { loaded: layered, diagnostics, summary, project };
}

export async function checkCommand(args: CliArgs, io: CliIO): Promise<number> {
	const { loaded, diagnostics, summary, project } = args.project ? checkProject(args, io) : checkGlobal(args, io);
	const errors = diagnostics.filter((d) => d.severity === "error").length;
	// The store is read, never written: which one the calls would use and whether it can be.
	const store: StoreHealth =
		loaded.config.state?.persist === false
			? { kind: "memory", state: "ok" }
			: ((await teamStoreState(io.env, loaded.config))?.health ??
				storedState(io.env, savedState(io.env).snapshot).store);
	if (args.json) {
		const { file, exists, usable } = loaded;
		const warnings = diagnostics.length - errors;
		const chains = { search: defaultChain(loaded, "search"), fetch: defaultChain(loaded, "fetch") };
		const layer = project ? { project } : {};
		io.stdout(
			`${JSON.stringify({ file, exists, usable, diagnostics, summary, errors, warnings, ...chains, ...layer, store }, null, 2)}\n`,
		);
	} else {
		for (const d of diagnostics) io.stdout(`${formatDiagnostic(d)}\n`);
		if (!loaded.exists && loaded.usable) io.stdout(`${loaded.file}: no config file; zero-config applies\n`);
		else if (diagnostics.length === 0) io.stdout(`${project?.file ?? loaded.file}: ok\n`);
		io.stdout(`${storeLine(store)}\n${summary}\n`);
	}
	return errors > 0 || (args.strict && diagnostics.length > 0) ? 1 : 0;
}
