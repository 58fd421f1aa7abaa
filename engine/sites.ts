// Site patterns: does a pattern match a URL, or a `domains` entry? The one implementation behind rule `sites`
// and search `domains` / `excludeDomains` (semantics: docs/site-patterns.md). Pure, total, never throws.

import { matchSite } from "./site-match.ts";
import { DEFAULT_PORTS, type NormalizedUrl, normalizeUrl } from "./site-normalize.ts";
import { parseSitePattern, type SitePattern } from "./site-parse.ts";

export { covers } from "./site-covers.ts";
export type { SiteIndex, SiteMatch } from "./site-index.ts";
export { matchHost, matchPath, matchSite } from "./site-match.ts";
export type { NormalizedUrl, NormalizeResult } from "./site-normalize.ts";
export { normalizeUrl } from "./site-normalize.ts";
export type { ParseResult, SiteKind, SitePattern } from "./site-parse.ts";
export { formatSitePattern, parseSitePattern, SUFFIX_WARNING } from "./site-parse.ts";

/** A search's `domains` and `excludeDomains` parsed once per call: the valid patterns, in request order. */
export interface RequestSites {
	domains: readonly SitePattern[];
	excludeDomains: readonly SitePattern[];
}

/** No patterns: shared by every list that names none (the usual search), never changed (frozen). */
const NO_PATTERNS: readonly SitePattern[] = Object.freeze([]);

/** The valid entries' patterns, in order; an invalid entry is left out. */
export function sitePatterns(entries: readonly string[]): readonly SitePattern[] {
	if (entries.length === 0) return NO_PATTERNS;
	const out: SitePattern[] = [];
	for (const entry of entries) {
		const parsed = parseSitePattern(entry);
		if (parsed.ok) out.push(parsed.pattern);
	}
	return out;
}

/** The request's site filters parsed (for a caller without a plan, which has them parsed already). */
export function requestSites(request: { domains: readonly string[]; excludeDomains: readonly string[] }): RequestSites {
	return { domains: sitePatterns(request.domains), excludeDomains: sitePatterns(request.excludeDomains) };
}

export function matchesUrl(pattern: SitePattern, url: string): boolean {
	const normalized = normalizeUrl(url);
	return normalized.ok && matchSite(pattern, normalized.url);
}

/** True when the pattern has no path (it names whole hosts). */
export function isHostOnly(pattern: SitePattern): boolean {
	return pattern.path === undefined;
}

/**
 * The representative URL of a `domains` entry: `https://<host><path>`, with a leading `*.` as `sub.`,
 * a leading `.` dropped and `name.*` as `name.com`. Example: `*.github.io/x` → https://sub.github.io/x.
 */
export function entryUrl(entry: SitePattern): NormalizedUrl {
	const host =
		entry.kind === "subdomains" ? `sub.${entry.host}` : entry.kind === "any-suffix" ? `${entry.host}.com` : entry.host;
	const port = entry.port ?? DEFAULT_PORTS.https!;
	const path = entry.path ?? [""];
	const portText = port === DEFAULT_PORTS.https ? "" : `:${port}`;
	const href = `https://${host}${portText}/${path.map((segment) => encodeURIComponent(segment)).join("/")}`;
	return { scheme: "https", host, port, path: [...path], href };
}

/** "A site matches a domains entry": the entry's URL space lies inside the site's (see entryUrl). */
export function matchesEntry(site: SitePattern, entry: SitePattern): boolean {
	return matchSite(site, entryUrl(entry));
}
