// The key of one call, for coalescing and the result cache: the request as its answer depends on it (white space
// collapsed, site lists sorted), the chain with each step's status, the policy, and a fetch's window.

import type { FetchRequest, Plan, SearchRequest } from "../engine/request-types.ts";

/** The entries without duplicates, sorted; a list of one or none is its own answer. */
function sortedSet(entries: string[]): string[] {
	return entries.length < 2 ? entries : [...new Set(entries)].sort();
}

/** Trimmed, each run of white space one space; a query that is so already (the usual one) is returned as it is. */
function collapseSpace(text: string): string {
	return /^\s|\s$|\s\s|[^\S ]/.test(text) ? text.trim().replace(/\s+/g, " ") : text;
}

/** A string in the key: its length, then itself, so no text can pass for a separator or a neighbour. */
function part(text: string): string {
	return `${text.length}:${text}`;
}

/** A site list in the key: its size, then each entry (sorted, once each). */
function listPart(entries: string[]): string {
	const set = sortedSet(entries);
	let out = `${set.length}`;
	for (const entry of set) out += part(entry);
	return out;
}

/** An optional string in the key: "-" when absent, the string as a part otherwise. */
function optionalPart(text: string | undefined): string {
	return text === undefined ? "-" : part(text);
}

/**
 * Every field of a search as its key sees it (white space collapsed, site lists sorted), in a fixed order, each
 * length-prefixed: built by hand, it costs a fraction of JSON.stringify on the request (test/executor-cache.test.ts
 * changes each field of a complete request in turn).
 */
function searchPart(request: SearchRequest): string {
	const { query, domains, excludeDomains, recency, maxResults, includeContent, provider } = request;
	return `s${part(collapseSpace(query))}${listPart(domains)}${listPart(excludeDomains)}${optionalPart(recency)}${maxResults}:${includeContent ? 1 : 0}${optionalPart(provider)}`;
}

/** Every field of a fetch as its key sees it (the URL trimmed, the default format filled in). */
function fetchPart(request: FetchRequest): string {
	const { url, provider, format, links } = request;
	return `f${part(url.trim())}${optionalPart(provider)}${part(format ?? "markdown")}${optionalPart(links)}`;
}

/** Same normalised request and chain → same key (coalescing and cache). */
export function callKey(plan: Plan, window = ""): string {
	const { request, steps } = plan;
	// Concatenated, not joined from a list of pieces: the coalescer's look-up makes the one flat copy either way, and
	// the list and its join were most of what a key cost.
	let key = `${request.kind === "search" ? searchPart(request) : fetchPart(request)}${steps.length}`;
	for (const step of steps) key += `${part(step.provider)}${step.status}`;
	return `${key}${policyPart(plan.policy)}${window}`;
}

/**
 * Plans of one set-up share its policy object (a rule's own policy makes a new one): its part of the key (its JSON,
 * length first) is made once.
 */
const policyParts = new WeakMap<Plan["policy"], string>();

function policyPart(policy: Plan["policy"]): string {
	let key = policyParts.get(policy);
	if (key === undefined) {
		key = part(JSON.stringify(policy));
		policyParts.set(policy, key);
	}
	return key;
}
