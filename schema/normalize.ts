// Turns a schema-checked config value into the engine's `Config`: key pools, dangling names removed,
// rules checked (name, conditions, site patterns, scripts) and shadowed rules reported. Problems are data.

import type { Budget, Config, Policy, ProviderConfig, Rule } from "../engine/config-types.ts";
import { handOverRules, scriptClass } from "../engine/route.ts";
import type { SitePattern } from "../engine/sites.ts";
import { suggest } from "../engine/suggest.ts";
import { proxyUrlProblem } from "../providers/http/proxy.ts";
import { checkHeaders } from "./headers.ts";
import { keyPool } from "./key-pool.ts";
import { PROTOTYPE_KEYS } from "./prototype-keys.ts";
import { isPlainObject, nonEmptyString } from "./rule-check.ts";
import { dropRule, newRule, validSites } from "./rules.ts";
import { reportShadowed } from "./shadowed.ts";
import type { JsonPath, NormalizeIssue } from "./validate.ts";

/**
 * Each rule's parsed sites by the rule's position in the file's `rules`, where every site was kept without a word
 * (a rule with a dropped or warned site is parsed again next time, and says so again).
 */
export type ParsedSites = Array<SitePattern[] | undefined>;

/** Facts about provider types the normaliser needs, without loading any provider module. */
export interface TypeFacts {
	search: boolean;
	fetch: boolean;
}

const COMMON_KEYS = new Set([
	"type",
	"provider",
	"model",
	"apiKey",
	"baseUrl",
	"timeoutMs",
	"headers",
	"proxy",
	"budget",
	"paid",
]);

type Obj = Record<string, unknown>;
const strings = (v: unknown): string[] | undefined =>
	Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : undefined;

/** A name that cannot change the meaning of the class it is written into (`Han`, `Old_Italic`). */
const PLAIN_NAME = /^[A-Za-z_]+$/;

/**
 * The first name of `scripts` that is not a Unicode script, or undefined. Plain names are
 * checked by the class compile builds of them (engine/route.ts scriptClass, which keeps it): every `new RegExp` of a
 * property builds its class from ICU's tables, so checking each name first built Han's twice per load.
 */
function unknownScript(scripts: string[]): string | undefined {
	let plain = true;
	for (let i = 0; i < scripts.length && plain; i++) plain = PLAIN_NAME.test(scripts[i] as string);
	let unknown: string | undefined;
	// With plain names the class compiles exactly when each name does; else each name is tried to find the one.
	if (!plain || scriptClass(scripts) === null) {
		for (const script of scripts) {
			try {
				new RegExp(`\\p{Script=${script}}`, "u");
			} catch {
				unknown = script;
				break;
			}
		}
	}
	return unknown;
}

/** A usable `proxy` value, or undefined after reporting why it is not (the environment then applies). */
function proxyValue(value: unknown, at: JsonPath, issues: NormalizeIssue[]): string | undefined {
	if (typeof value !== "string") return undefined; // absent, or dropped by the schema step
	const problem = value === "none" ? undefined : proxyUrlProblem(value);
	if (problem === undefined) return value;
	issues.push({
		severity: "error",
		at,
		message: `proxy: ${problem}; it is ignored and HTTPS_PROXY / HTTP_PROXY apply`,
		fix: 'use "http://host:port" (user:password@ before the host if the proxy needs them) or "none"',
	});
	return undefined;
}

export function normalizeConfig(
	raw: Obj,
	types: Record<string, TypeFacts>,
	layer: {
		/** Providers of a layer below (project config over the global file) that chains may name too. */
		known: ProviderConfig[];
		/** Providers dropped with an error already: chains lose them without another message. */
		dropped?: ReadonlySet<string>;
		/** `parsedSites` of this file's last load, which a rule whose sites are the same reuses. */
		previous?: ParsedSites;
	} = { known: [] },
): { config: Config; issues: NormalizeIssue[]; parsedSites: ParsedSites } {
	const issues: NormalizeIssue[] = [];
	const providers: ProviderConfig[] = [];
	const dropped = new Set(layer.dropped);
	const rawProviders = isPlainObject(raw.providers) ? raw.providers : {};
	for (const [name, value] of Object.entries(rawProviders)) {
		if (!isPlainObject(value) || typeof value.type !== "string" || !Object.hasOwn(types, value.type)) continue;
		if (name.length === 0 || /\s/.test(name)) {
			issues.push({
				severity: "error",
				at: ["providers", name],
				atKey: true,
				message: `provider name "${name}" is empty or contains whitespace; the provider is not used`,
				fix: "use a name without spaces",
			});
			continue;
		}
		const options: Obj = {};
		for (const [k, v] of Object.entries(value)) {
			// defineProperty, never `options[k] = v`: a `__proto__` key would otherwise set the prototype.
			if (!COMMON_KEYS.has(k) && !PROTOTYPE_KEYS.has(k)) {
				Object.defineProperty(options, k, { value: v, enumerable: true, writable: true, configurable: true });
			}
		}
		const pool = keyPool(value.apiKey, ["providers", name, "apiKey"], issues);
		if (pool.unusable) {
			dropped.add(name);
			continue;
		}
		const headers = isPlainObject(value.headers)
			? checkHeaders(value.headers, ["providers", name, "headers"])
			: undefined;
		if (headers) issues.push(...headers.issues);
		const proxy = proxyValue(value.proxy, ["providers", name, "proxy"], issues);
		providers.push({
			name,
			type: value.type,
			...(typeof value.provider === "string" ? { provider: value.provider } : {}),
			...(typeof value.model === "string" ? { model: value.model } : {}),
			...(pool.specs ? { apiKey: pool.specs } : {}),
			...(typeof value.baseUrl === "string" ? { baseUrl: value.baseUrl.replace(/\/+$/, "") } : {}),
			...(typeof value.timeoutMs === "number" ? { timeoutMs: value.timeoutMs } : {}),
			...(headers ? { headers: headers.headers } : {}),
			...(proxy !== undefined ? { proxy } : {}),
			...(isPlainObject(value.budget) ? { budget: value.budget as Budget } : {}),
			...(value.paid === "explicit" ? { paid: "explicit" as const } : {}),
			options,
		});
	}
	const byName = new Map([...layer.known, ...providers].map((p) => [p.name, p]));
	const names = [...byName.keys()];

	/**
	 * The chain under `capability` of the object at `parent` (its key is the capability's name): `value` itself when
	 * it keeps every entry (the common case: a first load keeps no second list of 2,000 chains).
	 */
	const chain = (value: unknown, parent: JsonPath, capability: "search" | "fetch"): string[] | undefined => {
		if (!Array.isArray(value)) return undefined;
		/** The kept names so far, once one is left out; undefined while every entry is kept. */
		let kept: string[] | undefined;
		// A loop, not forEach: two chains a rule, in code a first load runs cold.
		for (let i = 0; i < value.length; i++) {
			const name: unknown = value[i];
			const provider = typeof name === "string" ? byName.get(name) : undefined;
			// A repeat: its first occurrence was kept (a configured name is never left out the first time).
			const repeated = provider !== undefined && value.indexOf(name) < i;
			if (provider === undefined || repeated) kept ??= value.slice(0, i) as string[];
			if (typeof name !== "string") continue; // dropped by the schema step, already reported
			if (!provider && dropped.has(name)) continue;
			if (!provider) {
				const hint = suggest(name, names);
				issues.push({
					severity: "warning",
					at: [...parent, capability, i],
					message: `"${name}" is not a configured provider; removed from the chain`,
					fix: hint ? `did you mean "${hint}"?` : `configure it under providers, or remove it`,
				});
			} else if (repeated) {
				issues.push({
					severity: "warning",
					at: [...parent, capability, i],
					message: `"${name}" appears twice; the second is removed`,
				});
			} else {
				if (!types[provider.type]?.[capability]) {
					issues.push({
						severity: "warning",
						at: [...parent, capability, i],
						message: `"${name}" (${provider.type}) cannot ${capability}; it will be skipped`,
					});
				}
				kept?.push(name);
			}
		}
		return kept ?? (value as string[]);
	};

	const rules: Rule[] = [];
	const patternsByPosition: SitePattern[][] = [];
	const rawRules = Array.isArray(raw.rules) ? raw.rules : [];
	const parsedSites: ParsedSites = [];
	const previous = layer.previous ?? [];
	/** Each rule name's first index: explain, status and the tools' results name rules, so two alike confuse. */
	const named = new Map<string, number>();
	for (let index = 0; index < rawRules.length; index++) {
		const value: unknown = rawRules[index];
		if (!isPlainObject(value)) continue; // dropped by the schema step, already reported
		const at: JsonPath = ["rules", index];
		if (!nonEmptyString(value.name)) {
			dropRule(issues, index, "has no name", 'add "name"');
			continue;
		}
		const first = named.get(value.name);
		if (first === undefined) named.set(value.name, index);
		else {
			issues.push({
				severity: "warning",
				at: [...at, "name"],
				message: `rule ${index + 1} has the same name as rule ${first + 1}, "${value.name}"; both are used`,
				fix: "give each rule its own name (explain and status name rules)",
			});
		}
		const rule = newRule(value.name, index);
		let patterns: SitePattern[] = [];
		if (Array.isArray(value.sites)) {
			const sites = validSites(value.sites, at, issues, previous[index]);
			if (sites.clean) parsedSites[index] = sites.patterns;
			if (sites.raw.length === 0) {
				dropRule(issues, index, `"${rule.name}" has no valid site pattern left`);
				continue;
			}
			rule.sites = sites.raw;
			patterns = sites.patterns;
		}
		const scripts = strings(value.queryScript);
		if (scripts) {
			const unknown = unknownScript(scripts);
			if (unknown !== undefined) {
				issues.push({
					severity: "error",
					at: [...at, "queryScript"],
					message: `rule "${rule.name}": "${unknown}" is not a Unicode script name; the rule is dropped`,
					fix: 'use names like "Han", "Cyrillic", "Arabic", "Hiragana"',
				});
				continue;
			}
			rule.queryScript = scripts;
		}
		const fileTypes = strings(value.fileTypes);
		if (fileTypes) rule.fileTypes = fileTypes.map((t) => t.replace(/^\./, "").toLowerCase());
		const recency = strings(value.recency);
		if (recency) rule.recency = recency;
		if (!rule.sites && !rule.queryScript && !rule.fileTypes && !rule.recency) {
			dropRule(issues, index, `"${rule.name}" has no condition (sites, queryScript, fileTypes or recency)`);
			continue;
		}
		const search = chain(value.search, at, "search");
		const fetch = chain(value.fetch, at, "fetch");
		if (search && search.length > 0) rule.search = search;
		if (fetch && fetch.length > 0) rule.fetch = fetch;
		if (!rule.search && !rule.fetch) {
			dropRule(issues, index, `"${rule.name}" is left with no provider`);
			continue;
		}
		if (isPlainObject(value.policy)) rule.policy = value.policy as Policy;
		rules.push(rule);
		patternsByPosition.push(patterns);
	}
	// The patterns parsed here and the index the check fills are the ones compile routes with: a first load parses each
	// pattern once and files it once (a project layer hands on the patterns, and compile files them by their new
	// positions: schema/project.ts).
	handOverRules(rules, patternsByPosition, reportShadowed(rules, patternsByPosition, issues));

	const config: Config = { providers, rules, policy: isPlainObject(raw.policy) ? (raw.policy as Policy) : {} };
	const search = chain(raw.search, [], "search");
	const fetch = chain(raw.fetch, [], "fetch");
	if (search) config.search = search;
	if (fetch) config.fetch = fetch;
	for (const key of ["tools", "output", "fetchGuard", "state", "store", "sources"] as const) {
		if (isPlainObject(raw[key])) (config as unknown as Obj)[key] = raw[key];
	}
	const proxy = proxyValue(raw.proxy, ["proxy"], issues);
	if (proxy !== undefined) config.proxy = proxy;
	if (raw.trustProjectConfig === true) config.trustProjectConfig = true;
	for (const capability of ["search", "fetch"] as const) {
		const listed = Array.isArray(raw[capability]) ? (raw[capability] as unknown[]) : [];
		listed.forEach((name, i) => {
			if (typeof name !== "string" || byName.get(name)?.paid !== "explicit") return;
			issues.push({
				severity: "warning",
				at: [capability, i],
				message: `"${name}" is paid: "explicit"; a default chain never uses it`,
				fix: `name it per call (provider: "${name}") or in a rule's chain, or drop paid: "explicit"`,
			});
		});
	}
	return { config, issues, parsedSites };
}
