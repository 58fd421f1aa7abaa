// The one filter module: a search's parsed site patterns (CallContext.sites) turned into what a backend can send,
// plain hosts (and paths where the backend takes them) for search APIs and model tools alike. What cannot be
// expressed is widened or dropped and reported, since the executor filters the results afterwards anyway, and how
// many results to ask for so that filter comes before the cut. Patterns arrive parsed; nothing here reads their text.

import { isNamedRecency } from "../../engine/recency.ts";
import type { SearchRequest } from "../../engine/request-types.ts";
import { isIpHost } from "../../engine/site-normalize.ts";
import { formatSitePath, type SitePattern } from "../../engine/site-parse.ts";
import { normalizeUrl, type RequestSites, requestSites } from "../../engine/sites.ts";
import type { CallContext, NativeFilters } from "../contract.ts";

/** The call's site filters as plan() parsed them; parsed here only for a caller without a plan (tests, scripts). */
export function callSites(request: SearchRequest, call?: Pick<CallContext, "sites">): RequestSites {
	return call?.sites ?? requestSites(request);
}

/** A site pattern as a backend filter value, or why it could not be one. */
export interface SiteFilter {
	/** What to send (`host` or `host/path`), or undefined when the pattern has no such form. */
	value?: string;
	/** True when `value` matches more than the pattern (or nothing could be sent). */
	widened: boolean;
}

export interface SiteFilterSupport {
	/** `host/path` values are accepted. */
	paths: boolean;
	/** `*.host` values are accepted. */
	subdomainWildcard?: boolean;
}

/** Maps one parsed pattern (docs/site-patterns.md) to a backend value: the normalised host, and its path if taken. */
export function siteFilter(pattern: SitePattern, support: SiteFilterSupport): SiteFilter {
	if (pattern.kind === "any-suffix") return { widened: true };
	// `=host` and a port name less than every port of the host and its subdomains.
	let widened = pattern.kind === "exact" || pattern.port !== undefined;
	let host = pattern.host;
	if (pattern.kind === "subdomains") {
		if (support.subdomainWildcard) host = `*.${host}`;
		else widened = true;
	}
	let path = "";
	if (pattern.path !== undefined) {
		if (support.paths && !pattern.glob) path = formatSitePath(pattern);
		else widened = true;
	}
	return { value: `${host}${path}`, widened };
}

/** The filters of no pattern (the usual search names no site): shared, never changed (frozen). */
const NONE: readonly string[] = Object.freeze([]);
const NO_INCLUDES = Object.freeze({ values: NONE, widened: NONE });
const NO_EXCLUDES = Object.freeze({ values: NONE, dropped: NONE });

/** Include filters: all sent (widened where needed), or none when one cannot be sent at all (a partial list would
 * drop that pattern's results). `widened` lists the patterns as written. */
export function includeFilters(
	patterns: readonly SitePattern[],
	support: SiteFilterSupport,
): { readonly values: readonly string[]; readonly widened: readonly string[] } {
	if (patterns.length === 0) return NO_INCLUDES;
	const mapped = patterns.map((pattern) => ({ raw: pattern.raw, ...siteFilter(pattern, support) }));
	const widened = mapped.filter((m) => m.widened).map((m) => m.raw);
	if (mapped.some((m) => m.value === undefined)) return { values: [], widened: mapped.map((m) => m.raw) };
	return { values: unique(mapped.map((m) => m.value!)), widened };
}

/** True when the backend can exclude exactly this pattern (narrowing is safe, widening is not). */
export function excludesExactly(pattern: SitePattern, support: SiteFilterSupport): boolean {
	const mapped = siteFilter(pattern, support);
	return mapped.value !== undefined && !mapped.widened;
}

/** Exclude filters: only the ones that exclude no more than the pattern says. `dropped` lists patterns as written. */
export function excludeFilters(
	patterns: readonly SitePattern[],
	support: SiteFilterSupport,
): { readonly values: readonly string[]; readonly dropped: readonly string[] } {
	if (patterns.length === 0) return NO_EXCLUDES;
	const values: string[] = [];
	const dropped: string[] = [];
	for (const pattern of patterns) {
		if (excludesExactly(pattern, support)) values.push(siteFilter(pattern, support).value!);
		else dropped.push(pattern.raw);
	}
	return { values: unique(values), dropped };
}

// A model's search tool filters on DNS names: two labels or more, no IP, no bare suffix such as `cn`.
const TOOL_HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;

/** A normalised host as a model tool's domain, or undefined when a tool cannot take it (IPs, single labels). */
export function toolHostName(host: string): string | undefined {
	return !isIpHost(host) && TOOL_HOST.test(host) ? host : undefined;
}

/** The plain host a model tool takes for a pattern (`=h`, `*.h`, `.h`, `h/path`, `h:port` → `h`); undefined for
 * `name.*`, IPs and single labels. */
export function toolHost(pattern: SitePattern): string | undefined {
	return pattern.kind === "any-suffix" ? undefined : toolHostName(pattern.host);
}

/** The tool host of a URL's host (a fetch searches its own site), or undefined. */
export function urlToolHost(url: string): string | undefined {
	const normalized = normalizeUrl(url);
	return normalized.ok ? toolHostName(normalized.url.host) : undefined;
}

/**
 * Hosts for a model tool's allow-list: every entry must be expressible (a path is widened to its host; the executor
 * narrows the results again), else undefined, because a partial allow-list would hide the entries left out.
 */
export function allowedHosts(domains: readonly SitePattern[], limit: number): string[] | undefined {
	const hosts: string[] = [];
	for (const pattern of domains) {
		const host = toolHost(pattern);
		if (host === undefined) return undefined;
		if (!hosts.includes(host)) hosts.push(host);
	}
	return hosts.length > 0 && hosts.length <= limit ? hosts : undefined;
}

/** Hosts for a model tool's block-list: only exact whole-host exclusions (the rest is applied to the results). */
export function blockedHosts(excludeDomains: readonly SitePattern[], limit: number): string[] | undefined {
	const hosts: string[] = [];
	for (const pattern of excludeDomains) {
		if (!excludesExactly(pattern, { paths: false })) continue;
		const host = toolHost(pattern);
		if (host !== undefined && !hosts.includes(host)) hosts.push(host);
	}
	return hosts.length > 0 ? hosts.slice(0, limit) : undefined;
}

function unique(values: string[]): string[] {
	// The usual filter list is empty or one entry: returned as it is, without a Set.
	return values.length < 2 ? values : [...new Set(values)];
}

/** How many times `maxResults` to ask for when the executor filters afterwards, so the cut comes after the filter. */
export const RESULT_OVERSAMPLE = 3;

/** Whether the executor will remove results this backend was not able to leave out itself. */
export function filteredAfterwards(
	request: SearchRequest,
	native: NativeFilters,
	sites: RequestSites = callSites(request),
): boolean {
	const { domains, excludeDomains } = sites;
	if (domains.length > 0) {
		if (!native.hosts || includeFilters(domains, { paths: native.paths }).widened.length > 0) return true;
	}
	if (excludeDomains.length > 0) {
		if (!native.excludeHosts || excludeFilters(excludeDomains, { paths: native.excludePaths }).dropped.length > 0)
			return true;
	}
	const { recency } = request;
	if (recency === undefined) return false;
	return isNamedRecency(recency) ? !native.recency : !native.dateRange;
}

/**
 * The result count to ask a backend for: `maxResults`, or 3× when filters are applied afterwards, within the
 * backend's maximum. The executor cuts to `maxResults` after filtering and de-duplication (executor/results.ts).
 */
export function resultCount(
	request: SearchRequest,
	native: NativeFilters,
	sites: RequestSites = callSites(request),
): number {
	const wanted = filteredAfterwards(request, native, sites)
		? request.maxResults * RESULT_OVERSAMPLE
		: request.maxResults;
	return Math.max(1, Math.min(native.maxResults, wanted));
}

/** A backend that applies no filter itself: the executor filters its results by domain and date, with a warning. */
export function noNativeFilters(maxResults: number): NativeFilters {
	return {
		hosts: false,
		paths: false,
		excludeHosts: false,
		excludePaths: false,
		recency: false,
		dateRange: false,
		maxResults,
	};
}

/** A backend that filters whole hosts (include and exclude) and dates itself, but no paths. */
export function hostAndDateFilters(maxResults: number): NativeFilters {
	return { ...noNativeFilters(maxResults), hosts: true, excludeHosts: true, recency: true, dateRange: true };
}
