// The project layer: `<cwd>/.pi/pi-web-access.json`, read only when the caller says the project is trusted, over the
// global config. It may add rules (tried before the global ones), choose and order chains among the global providers,
// set policies (limits only tighter: schema/project-limits.ts) and tune a global provider; unless the global file says
// `trustProjectConfig: true`, anything that could send a key or a request elsewhere is a located diagnostic and dropped.

import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import type { Config, Diagnostic, Rule } from "../engine/config-types.ts";
import { handedOverPatterns, handOverRules } from "../engine/route.ts";
import type { SitePattern } from "../engine/sites.ts";
import { type LayerOptions, loadConfig, type PrepareOutcome } from "./load.ts";
import {
	heldProvider,
	heldRulePolicy,
	heldTopPolicy,
	type Loosened,
	limitsOf,
	loosenedPolicy,
	loosenedProvider,
	ruleFloor,
} from "./project-limits.ts";
import { isPlainObject } from "./rule-check.ts";
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
/** Type options naming a file the provider reads and writes back (the browser's storage-state profile). */
const FILE_KEYS = new Set(["profile"]);
/** Top-level keys only the global file may set, whatever it trusts. */
const GLOBAL_ONLY: Record<string, string> = {
	trustProjectConfig: "only the global file can decide what a project file may do",
	tools: "tool names and switches are read from the global file before pi starts",
	state: "the state file is shared by every project",
	store: "the team store is shared by every project, and its URL holds a password",
};

type Obj = Record<string, unknown>;

const LOOSENED_FIX =
	"a project file may only tighten limits: remove it or set a tighter value (a looser one belongs in the global file)";

/** Each limit the file as written sets looser than the global file; the loaded config is held to them after. */
function loosened(base: Config, value: Obj): Loosened[] {
	const applies = (found: Loosened[]) =>
		found.map((l) => ({ ...l, message: `${l.message}; the global value applies` }));
	const out = applies(loosenedPolicy(value.policy, ["policy"], limitsOf(base.policy), "the global file's"));
	if (Array.isArray(value.rules)) {
		const floor = ruleFloor(base);
		const whose = "the tightest the global file sets (a project rule is tried before the global ones)";
		value.rules.forEach((rule: unknown, i) => {
			if (isPlainObject(rule)) out.push(...applies(loosenedPolicy(rule.policy, ["rules", i, "policy"], floor, whose)));
		});
	}
	if (isPlainObject(value.providers)) {
		for (const [name, entry] of Object.entries(value.providers)) {
			const global = base.providers.find((p) => p.name === name);
			if (global && isPlainObject(entry)) out.push(...applies(loosenedProvider(entry, ["providers", name], global)));
		}
	}
	return out;
}

/** Drops what a project file may not set; gives provider overrides their global type so the schema checks them. */
function projectFilter(base: Config, trustAll: boolean, strip: Map<number, Set<string>>): LayerOptions["prepare"] {
	return (value, at): PrepareOutcome => {
		if (!isPlainObject(value)) return { value, diagnostics: [] };
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
		if (!trustAll && Object.hasOwn(out, "sources")) {
			refuse(["sources"], "a project file cannot set sources (their API origins and tokens); ignored", trustFix);
			delete out.sources;
		}
		if (!trustAll && Object.hasOwn(out, "fetchGuard")) {
			refuse(["fetchGuard"], "a project file cannot change the fetch guard; ignored", trustFix);
			delete out.fetchGuard;
		}
		const byName = new Map(base.providers.map((p) => [p.name, p]));
		if (!trustAll) for (const loose of loosened(base, out)) refuse(loose.path, loose.message, LOOSENED_FIX);
		if (isPlainObject(out.providers)) {
			// Built with fromEntries (own data properties), so a "__proto__" name stays a plain, reported key.
			const providers: Array<[string, unknown]> = [];
			for (const [name, entry] of Object.entries(out.providers)) {
				const global = byName.get(name);
				if (global === undefined) {
					if (trustAll) providers.push([name, entry]);
					else refuse(["providers", name], `a project file cannot add provider "${name}"; ignored`, trustFix);
					continue;
				}
				if (!isPlainObject(entry)) continue;
				const kept = Object.entries(entry).filter(([key, v]) => {
					// A URL sends requests elsewhere; a path names a program to run (the browser's executablePath) or a file
					// read and written (its profile).
					const redirects = ENDPOINT_KEYS.has(key) || FILE_KEYS.has(key) || /(url|path)$/i.test(key);
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
				if (!isPlainObject(rule)) return;
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
	const linked = linkedOutside(file);
	if (linked !== undefined) {
		const reason = "the file is a symbolic link out of the project";
		return { config: base, layer: { file, state: "unusable", reason, diagnostics: [linked] } };
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
		if (!override) return p;
		if (!trustAll) return heldProvider(p, override);
		const { name: _name, options, ...fields } = override;
		return { ...p, ...fields, options: { ...p.options, ...options } };
	});
	for (const p of project.providers) if (!base.providers.some((g) => g.name === p.name)) providers.push(p);
	const policy = trustAll ? { ...base.policy, ...project.policy } : heldTopPolicy(base.policy, project.policy);
	const floor = ruleFloor(base);
	const rules: Rule[] = [];
	// The rules are new objects in a new list: the sites both loads parsed are handed on by position, so compile parses
	// none again (engine/route.ts). The derived set-up's empty list was never handed over.
	const projectPatterns = handedOverPatterns(project.rules);
	const basePatterns = base.rules.length === 0 ? [] : handedOverPatterns(base.rules);
	const patterns: SitePattern[][] = [];
	for (let i = 0; i < project.rules.length; i++) {
		const rule = project.rules[i] as Rule;
		const drop = strip.get(rule.index);
		const keep = (chain?: string[]) => chain?.filter((name) => !drop?.has(name));
		const search = keep(rule.search);
		const fetch = keep(rule.fetch);
		const out: Rule = { ...rule, file };
		const held = trustAll ? rule.policy : heldRulePolicy(policy, rule.policy, floor);
		if (held) out.policy = held;
		if (search?.length) out.search = search;
		else delete out.search;
		if (fetch?.length) out.fetch = fetch;
		else delete out.fetch;
		if (out.search || out.fetch) {
			rules.push(out);
			patterns.push(projectPatterns?.[i] ?? []);
		}
	}
	for (let i = 0; i < base.rules.length; i++) {
		rules.push({ ...(base.rules[i] as Rule), file: baseFile });
		patterns.push(basePatterns?.[i] ?? []);
	}
	if (projectPatterns && basePatterns) handOverRules(rules, patterns);
	const config: Config = { ...base, providers, rules, policy };
	if (project.search) config.search = project.search;
	if (project.fetch) config.fetch = project.fetch;
	if (project.output) config.output = { ...base.output, ...project.output };
	if (trustAll && project.fetchGuard) config.fetchGuard = project.fetchGuard;
	if (trustAll && project.sources) config.sources = { ...base.sources, ...project.sources };
	const state = loaded.usable ? "loaded" : "unusable";
	const reason = loaded.usable ? trust.reason : "the file is not usable (see its diagnostics)";
	return { config: loaded.usable ? config : base, layer: { file, state, reason, diagnostics: loaded.diagnostics } };
}

/**
 * A project file (or its `.pi` folder) linked to a file outside the project folder: a diagnostic, and it is not read.
 * A repository can hold such a link to any file of the user's (pi's auth.json, say), whose key names the diagnostics
 * of an unread file would quote to the terminal and to the model.
 */
function linkedOutside(file: string): Diagnostic | undefined {
	let real: string;
	let root: string;
	try {
		real = realpathSync(file);
		root = realpathSync(dirname(dirname(file)));
	} catch {
		return undefined; // gone meanwhile, or a dangling link: the loader reports it as it reads
	}
	const inside = relative(root, real);
	if (inside !== "" && inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside)) return undefined;
	return {
		severity: "error",
		file,
		line: 1,
		col: 1,
		path: "",
		message: "the project file is a symbolic link to a file outside the project folder: not read",
		fix: "put the file itself in the project's .pi folder (a link may point inside the project)",
	};
}
