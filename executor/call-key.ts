// The key of one call, for coalescing and the result cache: the request as its answer depends on it (white space
// collapsed, site lists sorted), the chain with each step's status, the policy, and a fetch's window.

import type { Plan, SearchRequest } from "../engine/request-types.ts";

/** The entries without duplicates, sorted; a list of one or none is its own answer. */
function sortedSet(entries: string[]): string[] {
	return entries.length < 2 ? entries : [...new Set(entries)].sort();
}

/** Trimmed, each run of white space one space; a query that is so already (the usual one) is returned as it is. */
function collapseSpace(text: string): string {
	return /^\s|\s$|\s\s|[^\S ]/.test(text) ? text.trim().replace(/\s+/g, " ") : text;
}

/** The search as its key sees it; the request itself when it is so already (one word of space, sites sorted). */
function normalisedSearch(request: SearchRequest): SearchRequest {
	const query = collapseSpace(request.query);
	const domains = sortedSet(request.domains);
	const excludeDomains = sortedSet(request.excludeDomains);
	if (query === request.query && domains === request.domains && excludeDomains === request.excludeDomains) {
		return request;
	}
	return { ...request, query, domains, excludeDomains };
}

/** Same normalised request and chain → same key (coalescing and cache). */
export function callKey(plan: Plan, window = ""): string {
	const { request } = plan;
	const normalised =
		request.kind === "search"
			? normalisedSearch(request)
			: {
					kind: "fetch",
					url: request.url.trim(),
					provider: request.provider,
					format: request.format ?? "markdown",
					links: request.links,
				};
	let chain = "";
	for (const step of plan.steps) chain += `${JSON.stringify(step.provider)}:${step.status},`;
	// Joined, not concatenated: the key lives as long as its execution (the coalescer's map, the cache), and a join
	// is one flat string where concatenation leaves a tree of pieces alive beside the flat copy a lookup makes.
	return [JSON.stringify(normalised), chain, policyKey(plan.policy), window].join("|");
}

/** Plans of one set-up share its policy object (a rule's own policy makes a new one): its JSON is made once. */
const policyKeys = new WeakMap<Plan["policy"], string>();

function policyKey(policy: Plan["policy"]): string {
	let key = policyKeys.get(policy);
	if (key === undefined) {
		key = JSON.stringify(policy);
		policyKeys.set(policy, key);
	}
	return key;
}
