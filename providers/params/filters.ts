// Turning a search request's site patterns and recency into what a backend can send: plain hosts (and paths where
// the backend takes them) and date windows. What cannot be expressed is widened or dropped and reported, since the
// executor filters the results afterwards anyway, and how many results to ask for so that filter comes before the cut.

import { isNamedRecency, type NamedRecency, recencyBounds, recencyStart } from "../../engine/recency.ts";
import type { Recency, SearchRequest } from "../../engine/request-types.ts";
import type { NativeFilters } from "../contract.ts";

export type { NamedRecency };

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

/** Maps one pattern of the site grammar (site-patterns.md) to a backend value. */
export function siteFilter(pattern: string, support: SiteFilterSupport): SiteFilter {
	let text = pattern.trim();
	let widened = false;
	const slash = text.indexOf("/");
	let path = slash === -1 ? "" : text.slice(slash).replace(/\/+$/, "");
	let host = slash === -1 ? text : text.slice(0, slash);
	if (host.startsWith("=")) {
		host = host.slice(1);
		widened = true;
	} else if (host.startsWith("*.")) {
		if (!support.subdomainWildcard) {
			host = host.slice(2);
			widened = true;
		}
	} else if (host.startsWith(".")) host = host.slice(1);
	if (host.endsWith(".*")) return { widened: true };
	if (!host.startsWith("[")) {
		const colon = host.lastIndexOf(":");
		if (colon !== -1) {
			host = host.slice(0, colon);
			widened = true;
		}
	}
	if (path !== "" && (!support.paths || path.includes("*"))) {
		path = "";
		widened = true;
	}
	text = `${host}${path}`;
	return text === "" ? { widened: true } : { value: text, widened };
}

/** Include filters: all sent (widened where needed), or none when one cannot be sent at all (a partial list would
 * drop that pattern's results). */
export function includeFilters(
	patterns: readonly string[],
	support: SiteFilterSupport,
): { values: string[]; widened: string[] } {
	const mapped = patterns.map((pattern) => ({ pattern, ...siteFilter(pattern, support) }));
	const widened = mapped.filter((m) => m.widened).map((m) => m.pattern);
	if (mapped.some((m) => m.value === undefined)) return { values: [], widened: [...patterns] };
	return { values: unique(mapped.map((m) => m.value!)), widened };
}

/** Exclude filters: only the ones that exclude no more than the pattern says (narrowing is safe, widening is not). */
export function excludeFilters(
	patterns: readonly string[],
	support: SiteFilterSupport,
): { values: string[]; dropped: string[] } {
	const values: string[] = [];
	const dropped: string[] = [];
	for (const pattern of patterns) {
		const mapped = siteFilter(pattern, support);
		if (mapped.value === undefined || mapped.widened) dropped.push(pattern);
		else values.push(mapped.value);
	}
	return { values: unique(values), dropped };
}

function unique(values: string[]): string[] {
	return [...new Set(values)];
}

/** A recency as a date window: `named` for day/week/month/year, `from` / `to` as YYYY-MM-DD (inclusive). */
export interface RecencyWindow {
	named?: NamedRecency;
	/** For a named recency: the exact start instant (ISO 8601). */
	since?: string;
	from?: string;
	to?: string;
}

/** A named recency counts back from `now` by the days in engine/recency.ts (a month is 30 days, as everywhere). */
export function recencyWindow(recency: Recency, now: Date = new Date()): RecencyWindow {
	if (isNamedRecency(recency)) {
		const since = recencyStart(recency, now.getTime()).toISOString();
		return { named: recency, since, from: since.slice(0, 10) };
	}
	return recencyBounds(recency, now.getTime());
}

/** How many times `maxResults` to ask for when the executor filters afterwards, so the cut comes after the filter. */
export const RESULT_OVERSAMPLE = 3;

/** Whether the executor will remove results this backend was not able to leave out itself. */
export function filteredAfterwards(request: SearchRequest, native: NativeFilters): boolean {
	const { domains, excludeDomains, recency } = request;
	if (domains.length > 0) {
		if (!native.hosts || includeFilters(domains, { paths: native.paths }).widened.length > 0) return true;
	}
	if (excludeDomains.length > 0) {
		if (!native.excludeHosts || excludeFilters(excludeDomains, { paths: native.excludePaths }).dropped.length > 0)
			return true;
	}
	if (recency === undefined) return false;
	return isNamedRecency(recency) ? !native.recency : !native.dateRange;
}

/**
 * The result count to ask a backend for: `maxResults`, or 3× when filters are applied afterwards, within the
 * backend's maximum. The executor cuts to `maxResults` after filtering and de-duplication (executor/results.ts).
 */
export function resultCount(request: SearchRequest, native: NativeFilters): number {
	const wanted = filteredAfterwards(request, native) ? request.maxResults * RESULT_OVERSAMPLE : request.maxResults;
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
