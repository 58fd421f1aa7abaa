// covers(a, b): does pattern `a` match every URL that `b` matches? Drives "shadowed rule" warnings, so it
// answers true only when that is certain; anything it cannot prove (globs against globs, name.* hosts) is false.

import { matchPath } from "./site-match.ts";
import { anySuffixMatches } from "./site-normalize.ts";
import type { SitePattern } from "./site-parse.ts";

/** Every spelling of a host that the x.com / twitter.com alias makes equivalent. */
function aliasSpellings(key: string): string[] {
	if (key === "x.com") return ["x.com", "twitter.com"];
	if (key.endsWith(".x.com")) return [key, `${key.slice(0, -"x.com".length)}twitter.com`];
	return [key];
}

function isUnder(key: string, parent: string): boolean {
	return key.endsWith(`.${parent}`);
}

function coversHost(a: SitePattern, b: SitePattern): boolean {
	switch (a.kind) {
		case "ip":
			return b.kind === "ip" && b.host === a.host;
		case "any-suffix":
			if (b.kind === "any-suffix") return b.host === a.host || isUnder(b.host, a.host);
			// A host with subdomains may reach deeper public suffixes (`*.kawasaki.jp`): only a single host is certain.
			return b.kind === "exact" && aliasSpellings(b.key).every((host) => anySuffixMatches(a.host, host));
		case "exact":
			return b.kind === "exact" && b.key === a.key;
		case "subdomains":
			if (b.kind === "subdomains") return b.key === a.key || isUnder(b.key, a.key);
			return (b.kind === "host" || b.kind === "exact") && isUnder(b.key, a.key);
		case "host":
			if (b.kind === "ip" || b.kind === "any-suffix") return false;
			return b.key === a.key || isUnder(b.key, a.key);
	}
}

function startsWith(segments: string[], prefix: string[]): boolean {
	return prefix.length <= segments.length && prefix.every((segment, i) => segments[i] === segment);
}

/** Literal segments a glob path must start with (up to the first segment holding a `*`). */
function literalLead(pattern: SitePattern): string[] {
	const path = pattern.path ?? [];
	const firstGlob = path.findIndex((segment) => segment.includes("*"));
	return firstGlob < 0 ? path : path.slice(0, firstGlob);
}

function coversPath(a: SitePattern, b: SitePattern): boolean {
	if (a.path === undefined) return true;
	if (b.path === undefined) return false;
	if (a.glob) {
		if (b.glob) return a.globSource === b.globSource;
		// Some prefix of each of b's literal paths matches a's glob, so every URL under it does too.
		return [b.path, ...(b.altPaths ?? [])].every((path) => matchPath(a, path));
	}
	const aPaths = [a.path, ...(a.altPaths ?? [])];
	const bPaths = b.glob ? [literalLead(b)] : [b.path, ...(b.altPaths ?? [])];
	return bPaths.every((path) => aPaths.some((prefix) => startsWith(path, prefix)));
}

/** True only when every URL matched by `b` is certainly matched by `a` (conservative). */
export function covers(a: SitePattern, b: SitePattern): boolean {
	if (a.port !== undefined && a.port !== b.port) return false;
	return coversHost(a, b) && coversPath(a, b);
}
