// request → plan: moves site: operators into filters, picks the chain (per-call provider, first matching rule,
// or the default chain) and marks each step ready or skipped using the caller's context. Pure.

import { extractSiteOperators } from "./query-operators.ts";
import type { Capability, Plan, PlanContext, RuleMatch, Step, WebRequest } from "./request-types.ts";
import { type CompiledRule, otherConditionsHold, type RoutingTable, ruleChain } from "./route.ts";
import { entryUrl, normalizeUrl, parseEntries, type SitePattern } from "./sites.ts";

/** Why a `paid: "explicit"` provider is left out of a default chain. */
export const EXPLICIT_ONLY = 'paid: "explicit": used only when a call names it (provider) or a rule lists it';

function unique(values: string[]): string[] {
	return [...new Set(values)];
}

/** Moves the query's site:/-site: operators into domains/excludeDomains (idempotent). */
export function normalizeRequest(request: WebRequest): WebRequest {
	if (request.kind === "fetch") return { ...request };
	const extracted = extractSiteOperators(request.query);
	return {
		...request,
		query: extracted.query,
		domains: unique([...request.domains, ...extracted.domains]),
		excludeDomains: unique([...request.excludeDomains, ...extracted.excludeDomains]),
	};
}

interface Candidate {
	position: number;
	site: SitePattern | null;
	matched: string | null;
}

/** A search's domains as plan() parsed them: each valid entry with its pattern, and the invalid ones' warnings. */
interface ParsedDomains {
	valid: Array<{ entry: string; pattern: SitePattern }>;
	invalid: string[];
}

function parseDomains(entries: readonly string[]): ParsedDomains {
	const invalid: string[] = [];
	const valid = parseEntries(entries, (entry, error) =>
		invalid.push(`domain "${entry}" is not a valid site pattern (${error}); no rule can match it`),
	);
	return { valid, invalid };
}

function searchCandidates(table: RoutingTable, domains: ParsedDomains, warnings: string[]): Candidate[] {
	const found = new Map<number, Candidate>();
	warnings.push(...domains.invalid);
	for (const { entry, pattern } of domains.valid) {
		for (const hit of table.siteIndex.candidates(entryUrl(pattern))) {
			const previous = found.get(hit.value);
			if (!previous) found.set(hit.value, { position: hit.value, site: hit.pattern, matched: entry });
		}
	}
	for (const position of table.siteless) found.set(position, { position, site: null, matched: null });
	return [...found.values()].sort((a, b) => a.position - b.position);
}

function fetchCandidates(table: RoutingTable, url: string, warnings: string[]): { list: Candidate[]; path?: string } {
	const normalized = normalizeUrl(url);
	const list: Candidate[] = table.siteless.map((position) => ({ position, site: null, matched: null }));
	if (!normalized.ok) {
		warnings.push(`URL cannot be matched against site rules: ${normalized.error}`);
		return { list };
	}
	for (const hit of table.siteIndex.candidates(normalized.url)) {
		if (!list.some((c) => c.position === hit.value))
			list.push({ position: hit.value, site: hit.pattern, matched: url });
	}
	list.sort((a, b) => a.position - b.position);
	return { list, path: `/${normalized.url.path.join("/")}` };
}

/** The first rule whose conditions all hold and that has a chain for the capability. */
function matchRule(
	table: RoutingTable,
	request: WebRequest,
	domains: ParsedDomains | undefined,
	warnings: string[],
): { compiled: CompiledRule; match: RuleMatch } | undefined {
	const capability: Capability = request.kind;
	const { list, path } =
		request.kind === "search"
			? { list: searchCandidates(table, domains ?? { valid: [], invalid: [] }, warnings), path: undefined }
			: fetchCandidates(table, request.url, warnings);
	for (const candidate of list) {
		const compiled = table.rules[candidate.position];
		if (!compiled || !ruleChain(compiled.rule, capability)) continue;
		const query = request.kind === "search" ? request.query : undefined;
		const recency = request.kind === "search" ? request.recency : undefined;
		if (!otherConditionsHold(compiled, capability, query, path, recency)) continue;
		return {
			compiled,
			match: {
				name: compiled.rule.name,
				index: compiled.rule.index,
				site: candidate.site?.raw ?? null,
				matched: candidate.matched,
				...(compiled.rule.file ? { file: compiled.rule.file } : {}),
			},
		};
	}
	return undefined;
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
			if (own) policy = { ...policy, ...own, ...(own.budget ? { budget: { ...policy.budget, ...own.budget } } : {}) };
		} else {
			source = "default";
			const configured = capability === "search" ? table.config.search : table.config.fetch;
			chain = configured ?? table.config.providers.filter((p) => context.canServe(p, capability)).map((p) => p.name);
		}
	}
	chain = unique(chain);
	const steps: Step[] = chain.map((name) => {
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
		return readiness.status === "ready"
			? step
			: { ...step, status: "skipped", reason: readiness.reason ?? "not ready" };
	});
	if (steps.length === 0) warnings.push(`no provider can ${capability}: configure one`);
	const planned: Plan = { capability, request, source, rule, chain, steps, policy, warnings };
	if (request.kind === "search" && domains) {
		planned.sites = {
			domains: domains.valid.map((d) => d.pattern),
			excludeDomains: parseEntries(request.excludeDomains).map((d) => d.pattern),
		};
	}
	return planned;
}
