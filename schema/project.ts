// The project layer: `<cwd>/.pi/pi-web-access.json`, read only when the caller says the project is trusted, over the
// global config. It may add rules (tried before the global ones), choose and order chains among the global providers,
// set policies (a budget only tighter) and tune a global provider; unless the global file says
// `trustProjectConfig: true`, anything that could send a key or a request elsewhere is a located diagnostic and dropped.

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Budget, Config, Diagnostic, Policy, ProviderConfig, Rule } from "../engine/config-types.ts";
import { type LayerOptions, loadConfig, type PrepareOutcome } from "./load.ts";
import type { JsonPath } from "./validate.ts";

export const PROJECT_CONFIG_PATH = join(".pi", "pi-web-access.json");

export function projectConfigPath(cwd: string): string {
	return join(cwd, PROJECT_CONFIG_PATH);
}

/** Whether to read the project file, and why (shown by status). */
export interface ProjectTrust {
	trusted: boolean;
	reason: string;
}

export interface ProjectLayer {
	file: string;
	/** loaded: layered; untrusted: exists but not read; unusable: read but broken (syntax); absent: no file. */
	state: "loaded" | "untrusted" | "unusable" | "absent";
	reason: string;
	diagnostics: Diagnostic[];
}

/** Provider keys that choose where a request goes or which key it carries. */
const ENDPOINT_KEYS = new Set(["type", "provider", "apiKey", "baseUrl", "headers", "proxy"]);
/** Top-level keys only the global file may set, whatever it trusts. */
const GLOBAL_ONLY: Record<string, string> = {
	trustProjectConfig: "only the global file can decide what a project file may do",
	tools: "tool names and switches are read from the global file before pi starts",
	state: "the state file is shared by every project",
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Drops what a project file may not set; gives provider overrides their global type so the schema checks them. */
function projectFilter(base: Config, trustAll: boolean, strip: Map<number, Set<string>>): LayerOptions["prepare"] {
	return (value, at): PrepareOutcome => {
		if (!isObj(value)) return { value, diagnostics: [] };
		const out: Obj = { ...value };
		const diagnostics: PrepareOutcome["diagnostics"] = [];
		const refuse = (path: JsonPath, message: string, fix: string) =>
			diagnostics.push({ severity: "error", ...at(path, true), path: `/${path.join("/")}`, message, fix });
		for (const [key, why] of Object.entries(GLOBAL_ONLY)) {
			if (!Object.hasOwn(out, key)) continue;
			refuse([key], `a project file cannot set "${key}" (${why}); ignored`, `move "${key}" to the global file`);
			delete out[key];
		}
		const trustFix = "set it in the global file, or say trustProjectConfig: true there";
		if (!trustAll && Object.hasOwn(out, "fetchGuard")) {
			refuse(["fetchGuard"], "a project file cannot change the fetch guard; ignored", trustFix);
			delete out.fetchGuard;
		}
		const byName = new Map(base.providers.map((p) => [p.name, p]));
		if (isObj(out.providers)) {
			// Built with fromEntries (own data properties), so a "__proto__" name stays a plain, reported key.
			const providers: Array<[string, unknown]> = [];
			for (const [name, entry] of Object.entries(out.providers)) {
				const global = byName.get(name);
				if (global === undefined) {
					if (trustAll) providers.push([name, entry]);
					else refuse(["providers", name], `a project file cannot add provider "${name}"; ignored`, trustFix);
					continue;
				}
				if (!isObj(entry)) continue;
				const kept = Object.entries(entry).filter(([key, v]) => {
					const redirects = ENDPOINT_KEYS.has(key) || /url$/i.test(key);
					if (!redirects || trustAll || (key === "type" && v === global.type)) return true;
					refuse(["providers", name, key], `a project file cannot set "${key}" of "${name}"; ignored`, trustFix);
					return false;
				});
				providers.push([name, Object.fromEntries([["type", global.type], ...kept])]);
			}
			out.providers = Object.fromEntries(providers);
		}
		if (!trustAll && Array.isArray(out.rules)) {
			out.rules.forEach((rule: unknown, index) => {
				if (!isObj(rule)) return;
				for (const capability of ["search", "fetch"] as const) {
					const chain = rule[capability];
					if (!Array.isArray(chain)) continue;
					chain.forEach((name: unknown, i) => {
						if (typeof name !== "string" || byName.get(name)?.paid !== "explicit") return;
						const names = strip.get(index) ?? new Set<string>();
						strip.set(index, names.add(name));
						refuse(
							["rules", index, capability, i],
							`"${name}" is paid: "explicit"; a project rule cannot name it; removed from the chain`,
							`name it in a global rule, or say trustProjectConfig: true in the global file`,
						);
					});
				}
			});
		}
		return { value: out, diagnostics };
	};
}

/** The tighter of two limits, field by field. */
function tighter(global: Budget | undefined, project: Budget | undefined): Budget | undefined {
	if (global === undefined || project === undefined) return project ?? global;
	const pick = (a?: number, b?: number) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));
	const usdPerDay = pick(global.usdPerDay, project.usdPerDay);
	const usdPerCall = pick(global.usdPerCall, project.usdPerCall);
	return { ...(usdPerDay !== undefined ? { usdPerDay } : {}), ...(usdPerCall !== undefined ? { usdPerCall } : {}) };
}

function mergePolicy(global: Policy, project: Policy, trustAll: boolean): Policy {
	const budget = trustAll ? (project.budget ?? global.budget) : tighter(global.budget, project.budget);
	const merged: Policy = { ...global, ...project };
	if (budget) merged.budget = budget;
	return merged;
}

function mergeProvider(global: ProviderConfig, project: ProviderConfig, trustAll: boolean): ProviderConfig {
	const { name: _name, options, budget, ...fields } = project;
	const merged: ProviderConfig = { ...global, ...fields, options: { ...global.options, ...options } };
	const limit = trustAll ? (budget ?? global.budget) : tighter(global.budget, budget);
	if (limit) merged.budget = limit;
	return merged;
}

/** Layers the project file over `base` (from `baseFile`); `trust` comes from pi (extension) or its record (CLI). */
export function layerProject(
	base: Config,
	baseFile: string,
	file: string,
	trust: ProjectTrust,
): { config: Config; layer: ProjectLayer } {
	if (!existsSync(file)) return { config: base, layer: { file, state: "absent", reason: "no file", diagnostics: [] } };
	if (!trust.trusted) {
		return { config: base, layer: { file, state: "untrusted", reason: trust.reason, diagnostics: [] } };
	}
	const trustAll = base.trustProjectConfig === true;
	const strip = new Map<number, Set<string>>();
	const loaded = loadConfig(
		{ explicit: file },
		{ prepare: projectFilter(base, trustAll, strip), known: base.providers },
	);
	const project = loaded.config;
	const overrides = new Map(project.providers.map((p) => [p.name, p]));
	const providers = base.providers.map((p) => {
		const override = overrides.get(p.name);
		return override ? mergeProvider(p, override, trustAll) : p;
	});
	for (const p of project.providers) if (!base.providers.some((g) => g.name === p.name)) providers.push(p);
	const rules: Rule[] = [];
	for (const rule of project.rules) {
		const drop = strip.get(rule.index);
		const keep = (chain?: string[]) => chain?.filter((name) => !drop?.has(name));
		const search = keep(rule.search);
		const fetch = keep(rule.fetch);
		const out: Rule = { ...rule, file };
		if (search?.length) out.search = search;
		else delete out.search;
		if (fetch?.length) out.fetch = fetch;
		else delete out.fetch;
		if (out.search || out.fetch) rules.push(out);
	}
	for (const rule of base.rules) rules.push({ ...rule, file: baseFile });
	const config: Config = { ...base, providers, rules, policy: mergePolicy(base.policy, project.policy, trustAll) };
	if (project.search) config.search = project.search;
	if (project.fetch) config.fetch = project.fetch;
	if (project.output) config.output = { ...base.output, ...project.output };
	if (trustAll && project.fetchGuard) config.fetchGuard = project.fetchGuard;
	const state = loaded.usable ? "loaded" : "unusable";
	const reason = loaded.usable ? trust.reason : "the file is not usable (see its diagnostics)";
	return { config: loaded.usable ? config : base, layer: { file, state, reason, diagnostics: loaded.diagnostics } };
}
