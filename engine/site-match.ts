// The core of site matching: host (kinds, x.com alias, public suffixes), path (segment prefix or glob) and port.
// Kept apart from sites.ts so covers() can use it without an import cycle.

import { matchGlob } from "./site-glob.ts";
import type { NormalizedUrl } from "./site-normalize.ts";
import { aliasKey, anySuffixMatches, isIpHost } from "./site-normalize.ts";
import type { SitePattern } from "./site-parse.ts";

/** Host part of matching; `url.host` must be normalised (normalizeUrl / entryUrl). */
export function matchHost(pattern: SitePattern, host: string): boolean {
	if (pattern.kind === "ip") return host === pattern.host;
	if (isIpHost(host)) return false;
	if (pattern.kind === "any-suffix") return anySuffixMatches(pattern.host, host);
	const key = aliasKey(host);
	switch (pattern.kind) {
		case "exact":
			return key === pattern.key;
		case "subdomains":
			return key.endsWith(`.${pattern.key}`);
		default:
			return key === pattern.key || key.endsWith(`.${pattern.key}`);
	}
}

function startsWithSegments(segments: string[], prefix: string[]): boolean {
	if (prefix.length > segments.length) return false;
	return prefix.every((segment, i) => segments[i] === segment);
}

/** Path part of matching: a segment-boundary prefix, or a glob matched by some segment-prefix of the path. */
export function matchPath(pattern: SitePattern, segments: string[]): boolean {
	if (pattern.path === undefined) return true;
	if (pattern.globSegments !== undefined) return matchGlob(pattern.globSegments, segments);
	if (startsWithSegments(segments, pattern.path)) return true;
	return (pattern.altPaths ?? []).some((alt) => startsWithSegments(segments, alt));
}

/** Does the pattern match the (normalised) URL? Pure and total. */
export function matchSite(pattern: SitePattern, url: NormalizedUrl): boolean {
	if (pattern.port !== undefined && pattern.port !== url.port) return false;
	return matchHost(pattern, url.host) && matchPath(pattern, url.path);
}
