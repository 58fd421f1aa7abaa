// request → plan: moves site: operators into filters, picks the chain (per-call provider, first matching rule,
// or the default chain) and marks each step ready or skipped using the caller's context. Pure.
// On every call's path (the executor plans each call): the candidate rules are walked in rule order straight from
// the index's sorted hits and the siteless list, without building, copying or re-sorting a merged list.

import type { Policy } from "./config-types.ts";
import { extractSiteOperators } from "./query-operators.ts";
import type { Capability, Plan, PlanContext, Recency, RuleMatch, Step, WebRequest } from "./request-types.ts";
import { type CompiledRule, otherConditionsHold, type RoutingTable, ruleChain } from "./route.ts";
import type { SiteMatch } from "./site-index.ts";
import {
	entryUrl,
	type NormalizedUrl,
	normalizeUrl,
	parseSitePattern,
	type SitePattern,
	sitePatterns,
} from "./sites.ts";

/** Why a `paid: "explicit"` provider is left out of a default chain. */
export const EXPLICIT_ONLY = 'paid: "explicit": used only when a call names it (provider) or a rule lists it';

/** Up to this many values, a linear scan dedups faster than building a Set. */
const SMALL_LIST = 8;

/** The values once each, in first-seen order; always a new array. */
function unique(values: readonly string[]): string[] {
	if (values.length > SMALL_LIST) return [...new Set(values)];
	const out: string[] = [];
	for (const value of values) if (!out.includes(value)) out.push(value);
	return out;
}

/** Moves the query's site:/-site: operators into domains/excludeDomains (idempotent). */
export function normalizeRequest(request: WebRequest): WebRequest {
	if (request.kind === "fetch") return { ...request };
	const extracted = extractSiteOperators(request.query);
	return {
		...request,
		query: extracted.query,
		domains:
			extracted.domains.length > 0 ? unique([...request.domains, ...extracted.domains]) : unique(request.domains),
		excludeDomains:
			extracted.excludeDomains.length > 0
				? unique([...request.excludeDomains, ...extracted.excludeDomains])
				: unique(request.excludeDomains),
	};
}

// A domains entry's representative URL, once per parsed pattern (parseSitePattern memoises patterns, so a filter
// a caller repeats is looked up, not rebuilt); the index only reads it.
const entryUrls = new WeakMap<SitePattern, NormalizedUrl>();

function entryUrlOf(pattern: SitePattern): NormalizedUrl {
	let url = entryUrls.get(pattern);
	if (url === undefined) {
		url = entryUrl(pattern);
		entryUrls.set(pattern, url);
	}
	return url;
}

/** A search's domains as plan() parsed them: the valid entries with their patterns, and the invalid ones' warnings. */
interface ParsedDomains {
	entries: readonly string[];
	patterns: readonly SitePattern[];
	invalid: readonly string[];
}

/** No domains: shared by every search that names none (the usual one), never changed (frozen). */
const NO_DOMAINS: ParsedDomains = Object.freeze({
	entries: Object.freeze([]),
	patterns: sitePatterns([]),
	invalid: Object.freeze([]),
});

function parseDomains(entries: readonly string[]): ParsedDomains {
	if (entries.length === 0) return NO_DOMAINS;
	const valid: string[] = [];
	const patterns: SitePattern[] = [];
	const invalid: string[] = [];
	for (const entry of entries) {
		const parsed = parseSitePattern(entry);
		if (parsed.ok) {
			valid.push(entry);
			patterns.push(parsed.pattern);
		} else invalid.push(`domain "${entry}" is not a valid site pattern (${parsed.problem}); no rule can match it`);
	}
	return { entries: valid, patterns, invalid };
}

/** Index hits for a search's domains in rule order, each rule once with the first domain (in order) it matched. */
function searchHits(
	table: RoutingTable,
	entries: readonly string[],
	patterns: readonly SitePattern[],
): { hits: SiteMatch<number>[]; matched: string | string[] } {
	if (patterns.length === 1)
		return { hits: table.siteIndex.candidates(entryUrlOf(patterns[0]!)), matched: entries[0]! };
	const found = new Map<number, { hit: SiteMatch<number>; entry: string }>();
	patterns.forEach((pattern, i) => {
		for (const hit of table.siteIndex.candidates(entryUrlOf(pattern))) {
			if (!found.has(hit.value)) found.set(hit.value, { hit, entry: entries[i]! });
		}
	});
	const sorted = [...found.values()].sort((a, b) => a.hit.value - b.hit.value);
	return { hits: sorted.map((f) => f.hit), matched: sorted.map((f) => f.entry) };
}

interface Call {
	capability: Capability;
	query: string | undefined;
	recency: Recency | undefined;
	/** A fetch URL's decoded segments (for fileTypes), or undefined. */
	segments: string[] | undefined;
}

/**
 * The first rule, in rule order, among the index's hits (sorted by position) and the siteless rules, whose other
 * conditions hold and that has a chain for the capability. The two lists never share a position (compile()).
 */
function firstRule(
	table: RoutingTable,
	call: Call,
	hits: SiteMatch<number>[],
	matched: string | string[] | null,
): { compiled: CompiledRule; match: RuleMatch } | undefined {
	const { siteless, rules } = table;
	let path: string | undefined;
	for (let i = 0, j = 0; i < hits.length || j < siteless.length; ) {
		const hit = hits[i];
		const free = siteless[j];
		let position: number;
		let site: SitePattern | null = null;
		let entry: string | null = null;
		if (hit !== undefined && (free === undefined || hit.value < free)) {
			position = hit.value;
			site = hit.pattern;
			entry = typeof matched === "string" || matched === null ? matched : matched[i]!;
			i++;
		} else {
			position = free!;
			j++;
		}
		const compiled = rules[position];
		if (!compiled || !ruleChain(compiled.rule, call.capability)) continue;
		if (path === undefined && call.segments !== undefined && compiled.rule.fileTypes) {
			path = `/${call.segments.join("/")}`;
		}
		if (!otherConditionsHold(compiled, call.capability, call.query, path, call.recency)) continue;
		return {
			compiled,
			match: {
				name: compiled.rule.name,
				index: compiled.rule.index,
				site: site?.raw ?? null,
				matched: entry,
				...(compiled.rule.file ? { file: compiled.rule.file } : {}),
			},
		};
	}
	return undefined;
}

/** The first rule whose conditions all hold and that has a chain for the capability. */
function matchRule(
	table: RoutingTable,
	request: WebRequest,
	domains: ParsedDomains | undefined,
	warnings: string[],
): { compiled: CompiledRule; match: RuleMatch } | undefined {
	if (request.kind === "search") {
		const call: Call = { capability: "search", query: request.query, recency: request.recency, segments: undefined };
		for (const warning of domains?.invalid ?? []) warnings.push(warning);
		if (!domains || domains.patterns.length === 0) return firstRule(table, call, [], null);
		const { hits, matched } = searchHits(table, domains.entries, domains.patterns);
		return firstRule(table, call, hits, matched);
	}
	const normalized = normalizeUrl(request.url);
	if (!normalized.ok) {
		warnings.push(`URL cannot be matched against site rules: ${normalized.error}`);
		return firstRule(
			table,
			{ capability: "fetch", query: undefined, recency: undefined, segments: undefined },
			[],
			null,
		);
	}
	const call: Call = { capability: "fetch", query: undefined, recency: undefined, segments: normalized.url.path };
	return firstRule(table, call, table.siteIndex.candidates(normalized.url), request.url);
}

/** A rule's policy over the top level's: its keys replace the top level's one by one, its budget field by field. */
export function rulePolicy(top: Policy, own: Policy): Policy {
	return { ...top, ...own, ...(own.budget ? { budget: { ...top.budget, ...own.budget } } : {}) };
}

export function plan(table: RoutingTable, input: WebRequest, context: PlanContext): Plan {
	const request = normalizeRequest(input);
	const capability: Capability = request.kind;
	const warnings: string[] = [];
	let source: Plan["source"];
	let chain: string[];
	let rule: RuleMatch | null = null;
	let policy = table.config.policy;
	// The one parse of the search's site filters: rule matching below, the executor's filters and providers after.
	const domains = request.kind === "search" ? parseDomains(request.domains) : undefined;
	if (request.provider !== undefined) {
		source = "provider";
		chain = [request.provider];
	} else {
		const matched = matchRule(table, request, domains, warnings);
		if (matched) {
			source = "rule";
			rule = matched.match;
			chain = ruleChain(matched.compiled.rule, capability) ?? [];
			const own = matched.compiled.rule.policy;
			if (own) policy = rulePolicy(policy, own);
		} else {
			source = "default";
			const configured = capability === "search" ? table.config.search : table.config.fetch;
			chain = configured ?? table.config.providers.filter((p) => context.canServe(p, capability)).map((p) => p.name);
		}
	}
	chain = unique(chain);
	const steps: Step[] = chain.map((name, index) => {
		const provider = table.providers.get(name);
		if (!provider) return { provider: name, type: "unknown", status: "skipped", reason: "not configured" };
		const step: Step = { provider: name, type: provider.type, status: "ready" };
		if (capability === "fetch") {
			const extraction = context.extraction?.(provider);
			if (extraction) step.extraction = extraction;
		}
		if (!context.canServe(provider, capability)) {
			return { ...step, status: "skipped", reason: `cannot ${capability}` };
		}
		if (source === "default" && provider.paid === "explicit") {
			return { ...step, status: "skipped", reason: EXPLICIT_ONLY };
		}
		const readiness = context.readiness(provider, capability, request);
		if (readiness.status !== "ready") return { ...step, status: "skipped", reason: readiness.reason ?? "not ready" };
		const escalation = index > 0 ? context.escalation?.(provider, capability) : undefined;
		if (escalation) step.onlyAfter = escalation;
		return step;
	});
	if (steps.length === 0) warnings.push(`no provider can ${capability}: configure one`);
	// `sites` in the literal (undefined for a fetch): one shape, no field added afterwards.
	const sites =
		request.kind === "search" && domains
			? {
					domains: domains.patterns,
					excludeDomains: sitePatterns(request.excludeDomains),
				}
			: undefined;
	return { capability, request, source, rule, chain, steps, policy, warnings, sites };
}
