// Compiles a config into a routing table: rules with parsed site patterns behind a host-label index, so
// finding the first matching rule costs O(labels of the host), not O(rules). Pure.

import type { Config, ProviderConfig, Rule } from "./config-types.ts";
import type { Capability, Recency } from "./request-types.ts";
import { GrowingSiteIndex } from "./site-index.ts";
import { isParseOf } from "./site-parse.ts";
import { parseSitePattern, type SiteIndex, type SitePattern } from "./sites.ts";

export interface CompiledRule {
	rule: Rule;
	/** Parsed `sites` (invalid ones were reported and removed by the loader; any left are skipped here). */
	sites: SitePattern[];
	/** Letters of the rule's scripts, when it has a queryScript condition. */
	script?: RegExp;
}

export interface RoutingTable {
	config: Config;
	providers: Map<string, ProviderConfig>;
	rules: CompiledRule[];
	/** Site pattern → position in `rules`. */
	siteIndex: SiteIndex<number>;
	/** Positions of rules without a `sites` condition (always candidates). */
	siteless: number[];
}

/**
 * Keeps only configured names, once each (the loader already reports dangling ones). A chain that needs no change
 * (what the loader gives) is returned as it is: a 1,000-rule file would otherwise copy 2,000 chains per load.
 */
function configuredOnly(chain: string[] | undefined, known: Set<string>): string[] | undefined {
	if (!chain) return undefined;
	let clean = true;
	for (let i = 0; i < chain.length && clean; i++) clean = known.has(chain[i]!) && chain.indexOf(chain[i]!) === i;
	return clean ? chain : [...new Set(chain.filter((name) => known.has(name)))];
}

/** The rule with its chains cut to configured names; the rule itself when they already are. */
function configuredRule(rule: Rule, known: Set<string>): Rule {
	const search = configuredOnly(rule.search, known);
	const fetch = configuredOnly(rule.fetch, known);
	if (search === rule.search && fetch === rule.fetch) return rule;
	const out: Rule = { ...rule };
	if (search) out.search = search;
	if (fetch) out.fetch = fetch;
	return out;
}

/** What the loader hands compile for a config's `rules` (schema/normalize.ts, schema/shadowed.ts). */
interface HandedOver {
	/** Each rule's parsed `sites` (every entry valid, in order), by the rule's position. */
	patterns: readonly SitePattern[][];
	/**
	 * The index the shadowed-rule check filled, each pattern valued by its rule's position; none for rules layered from
	 * two loads (schema/project.ts), whose positions are new.
	 */
	index?: GrowingSiteIndex<number>;
}

/**
 * By the config's `rules` array: the first compile of a fresh process then parses no pattern and files none a second
 * time. Weak, so a dropped config takes its patterns with it; one entry per load, not one per rule.
 */
const handedOver = new WeakMap<readonly Rule[], HandedOver>();

/** Records the loader's parse of `rules`' sites (and the index of them), for compile to take while they still hold. */
export function handOverRules(
	rules: readonly Rule[],
	patterns: readonly SitePattern[][],
	index?: GrowingSiteIndex<number>,
): void {
	handedOver.set(rules, index === undefined ? { patterns } : { patterns, index });
}

/** The loader's parse of `rules`' sites by position, while handed over: a layer building new rules passes it on. */
export function handedOverPatterns(rules: readonly Rule[]): readonly SitePattern[][] | undefined {
	return handedOver.get(rules)?.patterns;
}

/**
 * The patterns of `sites` that parse (all of them, after the loader): `given` while it still is their parse (an
 * array edited in place since is parsed again), else parsed into an array sized for them up front.
 */
function parsedSites(sites: string[], given: SitePattern[] | undefined): SitePattern[] {
	if (isParseOf(given, sites)) return given;
	const out = new Array<SitePattern>(sites.length);
	let valid = 0;
	for (const raw of sites) {
		const parsed = parseSitePattern(raw);
		if (parsed.ok) out[valid++] = parsed.pattern;
	}
	out.length = valid;
	return out;
}

/** Script classes by their scripts' names (null: no class), each compiled once: a file has a few distinct lists. */
const scriptClasses = new Map<string, RegExp | null>();
/** Bounds the memo: past it, it starts again (a process compiles a handful of configs). */
const MAX_SCRIPT_CLASSES = 256;

/**
 * The class of the letters of `scripts` (`[\p{Script=Han}…]`), or null when it does not compile. One object per
 * list, shared by every rule and table that names it (no `g` or `y` flag: test() keeps no state): each `new RegExp`
 * built a Unicode property's class from ICU's tables again, 30 times for the bench's 1,000-rule file.
 */
export function scriptClass(scripts: readonly string[]): RegExp | null {
	const key = scripts.join("\u0000");
	let known = scriptClasses.get(key);
	if (known === undefined) {
		try {
			known = new RegExp(`[${scripts.map((s) => `\\p{Script=${s}}`).join("")}]`, "u");
		} catch {
			known = null;
		}
		if (scriptClasses.size >= MAX_SCRIPT_CLASSES) scriptClasses.clear();
		scriptClasses.set(key, known);
	}
	return known;
}

export function compile(input: Config): RoutingTable {
	const known = new Set(input.providers.map((p) => p.name));
	const config: Config = { ...input, rules: input.rules.map((rule) => configuredRule(rule, known)) };
	const search = configuredOnly(input.search, known);
	const fetch = configuredOnly(input.fetch, known);
	if (search) config.search = search;
	if (fetch) config.fetch = fetch;
	const rules: CompiledRule[] = [];
	const siteless: number[] = [];
	// The handed-over index serves while compile files what the loader filed: every rule kept at its position, with
	// the very patterns the loader parsed (the index holds them in order) or none where it had none.
	const given = handedOver.get(input.rules);
	let reuse = given !== undefined && given.patterns.length === config.rules.length;
	// Indexed loops here and in the site index: a for-of over an array makes an iterator result per element in code
	// not yet optimised, and a first load compiles 1,000 rules and their 5,000 patterns cold.
	for (let r = 0; r < config.rules.length; r++) {
		const rule = config.rules[r] as Rule;
		const position = rules.length;
		// config.rules is input.rules rule for rule: a position here is one there.
		const handedSites = given?.patterns[r];
		const sites = rule.sites === undefined ? [] : parsedSites(rule.sites, handedSites);
		const script = rule.queryScript ? scriptClass(rule.queryScript) : undefined;
		// The loader reports unknown scripts; a rule we cannot evaluate never matches.
		if (script === null) continue;
		if (rule.sites && sites.length === 0) continue;
		const compiled: CompiledRule = { rule, sites };
		if (script) compiled.script = script;
		rules.push(compiled);
		if (!rule.sites) siteless.push(position);
		if (reuse) reuse = rule.sites === undefined ? handedSites?.length === 0 : sites === handedSites;
	}
	return {
		config,
		providers: new Map(config.providers.map((p) => [p.name, p])),
		rules,
		siteIndex:
			given?.index !== undefined && reuse && rules.length === config.rules.length ? given.index : indexOf(rules),
		siteless,
	};
}

/** The site index of compiled rules: each pattern valued by its rule's position. */
function indexOf(rules: CompiledRule[]): SiteIndex<number> {
	const index = new GrowingSiteIndex<number>();
	for (let position = 0; position < rules.length; position++) {
		const { rule, sites } = rules[position] as CompiledRule;
		if (rule.sites) for (let k = 0; k < sites.length; k++) index.add(sites[k]!, position);
	}
	return index;
}

/** The conditions other than `sites`, for one rule and one call. */
export function otherConditionsHold(
	compiled: CompiledRule,
	capability: Capability,
	query: string | undefined,
	urlPath: string | undefined,
	recency: Recency | undefined,
): boolean {
	const { rule, script } = compiled;
	if (script && (query === undefined || !script.test(query))) return false;
	if (rule.fileTypes) {
		if (capability !== "fetch" || urlPath === undefined) return false;
		const last = urlPath.split("/").at(-1)?.toLowerCase() ?? "";
		if (!rule.fileTypes.some((ext) => last.endsWith(`.${ext}`))) return false;
	}
	if (rule.recency) {
		if (recency === undefined) return false;
		const kind = recency.includes("..") ? "range" : recency;
		if (!rule.recency.includes(kind)) return false;
	}
	return true;
}

/** The chain a rule gives for a capability, if any. */
export function ruleChain(rule: Rule, capability: Capability): string[] | undefined {
	const chain = capability === "search" ? rule.search : rule.fetch;
	return chain && chain.length > 0 ? chain : undefined;
}
