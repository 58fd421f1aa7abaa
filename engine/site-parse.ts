// Parses one site pattern string (rule `sites`, search `domains` / `excludeDomains`) into a SitePattern.
// The grammar and its invalid forms are in docs/site-patterns.md; problems come back as data, never thrown.

import { ShardedMap } from "./sharded-map.ts";
import { compileRawGlob, type GlobSegment, globSourceOf } from "./site-glob.ts";
import { aliasKey, decodeSegment, isIpHost, isListedPublicSuffix, normalizeHost } from "./site-normalize.ts";
import { type PlainParts, plainParts } from "./site-plain.ts";

export type SiteKind = "host" | "subdomains" | "exact" | "any-suffix" | "ip";

/** A parsed, normalised site pattern. Example: `github.com/golang` → { kind: "host", host: "github.com", path: ["golang"] }. */
export interface SitePattern {
	/** The pattern as written. */
	raw: string;
	/** host|.suffix → "host", *.h → "subdomains", =h → "exact", name.* → "any-suffix", IPv4/[IPv6] → "ip". */
	kind: SiteKind;
	/** Normalised host (punycode, lower-case, no trailing dot); for "any-suffix" the `name` part. */
	host: string;
	/** What matching compares: `host` with a twitter.com suffix spelled x.com (alias); `host` for name.* and IPs. */
	key: string;
	port?: number;
	/** Decoded path segments, trailing "/" dropped; absent when the pattern has no path. */
	path?: string[];
	/** The path contains `*` (a glob: `*` within a segment, `**` across; engine/site-glob.ts). */
	glob: boolean;
	/** Canonical text of a glob path: equal for equal globs. */
	globSource?: string;
	/** The compiled glob, matched against segment-prefixes of the URL's decoded segments. */
	globSegments?: GlobSegment[];
	/** Set when the pattern names one X post (`x.com/<user>/status/<id>`). */
	statusId?: string;
	/** Further literal paths naming the same thing (`i/status/<id>`, `i/web/status/<id>` for an X post). */
	altPaths?: string[][];
	/** Written with a leading "." (`.cn`); same meaning as without, but no public-suffix warning. */
	dotted: boolean;
}

export type ParseResult =
	| { ok: true; pattern: SitePattern; warning?: string }
	/** `error` names the pattern; `problem` is the same without it, for callers that name the pattern themselves. */
	| { ok: false; error: string; problem: string; fix?: string };

export const SUFFIX_WARNING = "matches every site under this suffix";

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

function fail(raw: string, problem: string, fix?: string): ParseResult {
	const error = `site pattern ${JSON.stringify(raw)}: ${problem}`;
	return fix === undefined ? { ok: false, error, problem } : { ok: false, error, problem, fix };
}

/** The post id when `path` names one X post: `<user>/status/<id>` or `i/web/status/<id>`. */
function xPostId(path: string[]): string | undefined {
	const id = path.at(-1) ?? "";
	if (!/^\d+$/.test(id)) return undefined;
	if (path.length === 3 && path[1] === "status" && path[0] !== "") return id;
	if (path.length === 4 && path[0] === "i" && path[1] === "web" && path[2] === "status") return id;
	return undefined;
}

interface Authority {
	kind: SiteKind;
	dotted: boolean;
	hostPart: string;
	port?: number;
}

function splitAuthority(raw: string, authority: string): Authority | ParseResult {
	let kind: SiteKind = "host";
	let dotted = false;
	let rest = authority;
	if (rest.startsWith("*.")) {
		kind = "subdomains";
		rest = rest.slice(2);
	} else if (rest.startsWith("=")) {
		kind = "exact";
		rest = rest.slice(1);
	} else if (rest.startsWith(".")) {
		dotted = true;
		rest = rest.slice(1);
	}
	let hostPart = rest;
	let portText: string | undefined;
	if (rest.startsWith("[")) {
		const close = rest.indexOf("]");
		if (close < 0) return fail(raw, "an IPv6 address is missing its closing `]`");
		hostPart = rest.slice(0, close + 1);
		const after = rest.slice(close + 1);
		if (after !== "" && !after.startsWith(":")) return fail(raw, "unexpected text after `]`");
		if (after !== "") portText = after.slice(1);
	} else {
		const colon = rest.indexOf(":");
		if (colon >= 0) {
			if (rest.indexOf(":", colon + 1) >= 0) {
				return fail(raw, "an IPv6 address needs brackets", `write "[${rest}]"`);
			}
			hostPart = rest.slice(0, colon);
			portText = rest.slice(colon + 1);
		}
	}
	if (portText === undefined) return { kind, dotted, hostPart };
	const port = Number(portText);
	if (!/^\d{1,5}$/.test(portText) || port < 1 || port > 65535) {
		return fail(raw, `the port ${JSON.stringify(portText)} is not a number from 1 to 65535`);
	}
	return { kind, dotted, hostPart, port };
}

/** The raw segments of a pattern's path as the WHATWG URL parser writes them, trailing empty ones dropped. */
function pathSegments(pathRaw: string): string[] {
	if (pathRaw === "") return [];
	// The same WHATWG path parsing URLs get: dot segments, backslashes, percent-encoding of spaces and Unicode.
	const segments = new URL(`http://pattern.invalid/${pathRaw}`).pathname.slice(1).split("/");
	while (segments.length > 0 && segments.at(-1) === "") segments.pop();
	return segments;
}

/** plainParts' answer, read at once by patternOf(): one object for every pattern, not one each. */
const PLAIN: PlainParts = { kind: "host", host: "", dotted: false, segments: [] };

/** Per shard of the memo (16 shards): at most 16,384 results in all. */
const MEMO_SHARD_ENTRIES = 1024;
const memo = new ShardedMap<ParseResult>();

/**
 * Parses a site pattern; invalid forms give `ok: false` with the problem and, when we know it, a fix.
 * Results are memoised (bounded): requests' domains and site: operators parse the same few patterns over and over
 * (a config's patterns are parsed by the loader without it, schema/rules.ts, and handed to compile).
 * Callers must treat the returned pattern as immutable.
 */
export function parseSitePattern(raw: string): ParseResult {
	if (typeof raw !== "string") return parseUncached(raw);
	const shard = memo.shard(raw);
	const known = shard.get(raw);
	if (known !== undefined) return known;
	const plain = plainSitePattern(raw);
	const result = plain === undefined ? parseUncached(raw) : withWarning(plain);
	if (shard.size >= MEMO_SHARD_ENTRIES) shard.clear();
	shard.set(raw, result);
	return result;
}

/**
 * The pattern of a plain `raw` (engine/site-plain.ts), without the memo, a result object or the suffix warning
 * (suffixWarning says it); undefined when the full parse must decide (parseSitePatternByParser). The loader's parse
 * (schema/rules.ts): a config's patterns are parsed once per load, and a first load's 5,000 paid the memo's hash and
 * two map operations each, in code not yet optimised.
 */
export function plainSitePattern(raw: string): SitePattern | undefined {
	return plainParts(raw, PLAIN)
		? patternOf(raw, PLAIN.kind, PLAIN.host, undefined, PLAIN.dotted, PLAIN.segments)
		: undefined;
}

/** The warning a pattern that names a whole public suffix (`co.uk`, `github.io`) is given, or undefined. */
export function suffixWarning(pattern: SitePattern): string | undefined {
	return pattern.kind === "host" && !pattern.dotted && isListedPublicSuffix(pattern.host)
		? `site pattern ${JSON.stringify(pattern.raw)} ${SUFFIX_WARNING}`
		: undefined;
}

function withWarning(pattern: SitePattern): ParseResult {
	const warning = suffixWarning(pattern);
	return warning === undefined ? { ok: true, pattern } : { ok: true, pattern, warning };
}

/**
 * True while `patterns` are the parse of `sites` as they are now: as many, each parsed from the same string in order
 * (patterns are never changed after the parse, so a kept parse of unchanged strings is still right).
 */
export function isParseOf(
	patterns: readonly SitePattern[] | undefined,
	sites: readonly unknown[],
): patterns is readonly SitePattern[] {
	if (patterns === undefined || patterns.length !== sites.length) return false;
	for (let i = 0; i < sites.length; i++) if ((patterns[i] as SitePattern).raw !== sites[i]) return false;
	return true;
}

/** parseSitePattern through the WHATWG URL parser for every input, uncached (its shortcut must agree with it). */
export function parseSitePatternByParser(raw: string): ParseResult {
	return parseUncached(raw);
}

function parseUncached(raw: string): ParseResult {
	if (typeof raw !== "string") return fail(String(raw), "a site pattern must be a string");
	const text = raw.trim();
	if (text === "") return fail(raw, "the pattern is empty", 'write a host such as "github.com"');
	if (/\s/.test(text)) return fail(raw, "a site pattern cannot contain whitespace", "percent-encode it as %20");
	const scheme = SCHEME.exec(text);
	if (scheme !== null || text.includes("://")) {
		const rest = scheme === null ? text.slice(text.indexOf("://") + 3) : text.slice(scheme[0].length);
		return fail(raw, "a scheme is not allowed (a pattern matches http and https alike)", `write "${rest}"`);
	}
	const queryAt = text.search(/[?#]/);
	if (queryAt >= 0) {
		const fix = queryAt > 0 ? `write "${text.slice(0, queryAt)}"` : undefined;
		return fail(raw, "`?` and `#` are not allowed: query and fragment never take part in matching", fix);
	}
	const slash = text.indexOf("/");
	const authority = slash < 0 ? text : text.slice(0, slash);
	const pathRaw = slash < 0 ? "" : text.slice(slash + 1);
	if (authority.includes("@")) {
		return fail(raw, "userinfo (`user@`) is not allowed", `write "${text.slice(authority.lastIndexOf("@") + 1)}"`);
	}
	if (authority === "") return fail(raw, "the host is missing", 'write a host first, e.g. "github.com/golang"');
	const parts = splitAuthority(raw, authority);
	if ("ok" in parts) return parts;
	let { kind, hostPart } = parts;
	if (hostPart.endsWith(".*")) {
		if (kind !== "host") return fail(raw, "`name.*` cannot be combined with a leading `*.` or `=`");
		kind = "any-suffix";
		hostPart = hostPart.slice(0, -2);
	}
	if (hostPart.includes("*")) {
		return fail(raw, "`*` is only allowed as a leading `*.`, in `name.*`, or in the path");
	}
	if (kind !== "any-suffix" && hostPart.endsWith(".")) hostPart = hostPart.slice(0, -1);
	if (hostPart === "") return fail(raw, "the host is missing");
	if (!hostPart.startsWith("[") && hostPart.split(".").includes("")) {
		return fail(raw, "the host has an empty label (`..` or a stray dot)");
	}
	// name.* is normalised as name.com so that a numeric name is never read as an IPv4 address.
	const normalized = normalizeHost(kind === "any-suffix" ? `${hostPart}.com` : hostPart);
	if (normalized === null || (kind === "any-suffix" && !normalized.endsWith(".com"))) {
		return fail(raw, `${JSON.stringify(hostPart)} is not a valid host name`);
	}
	const host = kind === "any-suffix" ? normalized.slice(0, -4) : normalized;
	if (isIpHost(host)) {
		if (kind === "subdomains" || parts.dotted) return fail(raw, "`*.` and `.` cannot be used on an IP address");
		kind = "ip";
	} else if (host.split(".").includes("")) {
		return fail(raw, "the host has an empty label after normalisation");
	}
	return withWarning(patternOf(raw, kind, host, parts.port, parts.dotted, pathSegments(pathRaw)));
}

/** The pattern from its parsed parts (`segments` raw, as the URL parser writes them). */
function patternOf(
	raw: string,
	kind: SiteKind,
	host: string,
	port: number | undefined,
	dotted: boolean,
	segments: string[],
): SitePattern {
	// One pass, no callback: most patterns have neither, and then their segments are the path as they are.
	let escaped = false;
	let starred = false;
	for (let i = 0; i < segments.length; i++) {
		const segment = segments[i] as string;
		if (segment.includes("%")) escaped = true;
		if (segment.includes("*")) starred = true;
	}
	const path = segments.length === 0 ? undefined : escaped ? segments.map(decodeSegment) : segments;
	const globSegments = starred ? compileRawGlob(segments, decodeSegment) : undefined;
	// Every field in one literal, in one order, present when unset: all patterns share one hidden class. Added as
	// needed (port, path, glob, X post) they made several, and what reads patterns (the site index, shadowing,
	// matching) polymorphic; schema/rules.ts newRule says what the same thing cost for rules.
	const pattern: SitePattern = {
		raw,
		kind,
		host,
		key: kind === "any-suffix" || kind === "ip" ? host : aliasKey(host),
		port,
		path,
		glob: globSegments !== undefined,
		globSource: globSegments === undefined ? undefined : globSourceOf(globSegments),
		globSegments,
		statusId: undefined,
		altPaths: undefined,
		dotted,
	};
	const isX = pattern.key === "x.com" || pattern.key.endsWith(".x.com");
	const statusId = isX && kind !== "any-suffix" && path !== undefined && !pattern.glob ? xPostId(path) : undefined;
	if (statusId !== undefined && path !== undefined) {
		pattern.statusId = statusId;
		const forms = [
			["i", "status", statusId],
			["i", "web", "status", statusId],
		];
		pattern.altPaths = forms.filter((form) => form.join("/") !== path.join("/"));
	}
	return pattern;
}

/** The canonical spelling of a pattern; parsing it again gives the same pattern (bar `raw`). */
export function formatSitePattern(pattern: SitePattern): string {
	const prefix = pattern.kind === "subdomains" ? "*." : pattern.kind === "exact" ? "=" : pattern.dotted ? "." : "";
	const host = pattern.kind === "any-suffix" ? `${pattern.host}.*` : pattern.host;
	const port = pattern.port === undefined ? "" : `:${pattern.port}`;
	const path = pattern.path === undefined ? "" : `/${pattern.path.map(encodePathSegment).join("/")}`;
	return `${prefix}${host}${port}${path}`;
}

/** Encodes only what would change a segment's meaning when parsed again; keeps `*` and Unicode readable. */
function encodePathSegment(segment: string): string {
	return segment.replace(/[%/\\?#\s]/g, (c) => encodeURIComponent(c));
}

/** A pattern's path as text for a backend filter (`/golang/go`), encoded like formatSitePattern; "" without a path. */
export function formatSitePath(pattern: SitePattern): string {
	return pattern.path === undefined ? "" : `/${pattern.path.map(encodePathSegment).join("/")}`;
}
