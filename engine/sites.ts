// Site patterns: does a pattern match a URL, or a `domains` entry? The one implementation behind rule `sites`
// and search `domains` / `excludeDomains` (semantics: docs/site-patterns.md). Pure, total, never throws.

import { matchSite } from "./site-match.ts";
import { DEFAULT_PORTS, type NormalizedUrl, normalizeUrl } from "./site-normalize.ts";
import type { SitePattern } from "./site-parse.ts";

export { covers } from "./site-covers.ts";
export type { SiteIndex, SiteIndexEntry, SiteMatch } from "./site-index.ts";
export { createSiteIndex } from "./site-index.ts";
export { matchHost, matchPath, matchSite } from "./site-match.ts";
export type { NormalizedUrl, NormalizeResult } from "./site-normalize.ts";
export { normalizeUrl } from "./site-normalize.ts";
export type { ParseResult, SiteKind, SitePattern } from "./site-parse.ts";
export { formatSitePattern, parseSitePattern, SUFFIX_WARNING } from "./site-parse.ts";

/** Convenience: normalise `url`, then match; an invalid URL matches nothing. */
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
