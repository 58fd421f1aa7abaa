// Normalisation shared by site patterns and URLs: hosts through WHATWG URL, decoded path segments,
// effective ports, the twitter.com ≡ x.com alias and public-suffix look-ups (tldts on normalised hosts).
// Everything here is pure and never throws.

import { createRequire } from "node:module";

// Required, not imported: tldts is CommonJS (220 KB with its suffix list), and an import of CommonJS from a module
// first has Node's lexer read the whole source for its export names, a loop that then keeps V8's optimising
// compiler busy while the first config loads (bench/load-first.ts from dist/: the imports 64 -> 41 ms, 93 -> 49 ms
// of CPU).
const { getPublicSuffix, parse: parseDomain } = createRequire(import.meta.url)("tldts") as typeof import("tldts");

/** A URL reduced to what site matching looks at. */
export interface NormalizedUrl {
	/** Lower-case scheme without the colon: "http" or "https". */
	scheme: string;
	/** Punycode, lower-case, one trailing dot removed; IPv6 in brackets, IPv4 canonical. */
	host: string;
	/** Effective port: the explicit one or the scheme's default. */
	port: number;
	/** Percent-decoded path segments: "/" → [""], "/a/b/" → ["a", "b", ""]. */
	path: string[];
	/** The WHATWG serialisation without userinfo (so a password never travels further). */
	href: string;
}

export type NormalizeResult = { ok: true; url: NormalizedUrl } | { ok: false; error: string };

export const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443 };

const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

// ICANN suffixes only: `google.*` should reach google.co.uk, not treat blogspot.com as a suffix.
const ICANN_ONLY = { extractHostname: false, detectIp: false, validateHostname: false } as const;
const WITH_PRIVATE = { ...ICANN_ONLY, allowPrivateDomains: true } as const;

/** True for a normalised IP host (canonical IPv4 or bracketed IPv6); such hosts never match as suffixes. */
export function isIpHost(host: string): boolean {
	return host.startsWith("[") || IPV4.test(host);
}

/** Host as WHATWG URL sees it (IDN → punycode, 127.1 → 127.0.0.1), minus one trailing dot; null if invalid. */
export function normalizeHost(raw: string): string | null {
	// Characters that would end the authority early and leave a different host behind.
	if (raw === "" || /[/\\?#@\s]/.test(raw)) return null;
	if (!raw.startsWith("[") && raw.includes(":")) return null;
	let hostname: string;
	try {
		hostname = new URL(`http://${raw}/`).hostname;
	} catch {
		return null;
	}
	const host = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
	return host === "" ? null : host;
}

/** twitter.com and x.com name one site: hosts are compared with the twitter.com suffix spelled x.com. */
export function aliasKey(host: string): string {
	if (host === "twitter.com") return "x.com";
	if (host.endsWith(".twitter.com")) return `${host.slice(0, -"twitter.com".length)}x.com`;
	return host;
}

/** Percent-decodes one segment; a malformed escape leaves the segment as written (total, never throws). */
export function decodeSegment(segment: string): string {
	if (!segment.includes("%")) return segment;
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/** Splits a WHATWG pathname ("/a/b") into decoded segments; "" and "/" both give [""]. */
export function splitPathname(pathname: string): string[] {
	const body = pathname.startsWith("/") ? pathname.slice(1) : pathname;
	const segments = body.split("/");
	if (body.includes("%")) for (let k = 0; k < segments.length; k++) segments[k] = decodeSegment(segments[k]!);
	return segments;
}

/** ICANN public suffix of a normalised host (tldts default rule `*` for unknown TLDs), or null. */
export function publicSuffixOf(host: string): string | null {
	// getPublicSuffix stops after the suffix and fills one shared result; parse() also finds domain and subdomain.
	return getPublicSuffix(host, ICANN_ONLY);
}

/** True when the host itself is a listed public suffix (ICANN or private), e.g. co.uk, github.io, com. */
export function isListedPublicSuffix(host: string): boolean {
	// With a dot, only a listed rule can make the whole host the suffix (the default rule `*` gives the last label):
	// the suffix alone answers, without parse()'s domain, subdomain and result object (a big config asks per host).
	if (host.includes(".")) return getPublicSuffix(host, WITH_PRIVATE) === host;
	const result = parseDomain(host, WITH_PRIVATE);
	return result.publicSuffix === host && (result.isIcann === true || result.isPrivate === true);
}

/**
 * `name.*`: the host is `[sub.]name.<public suffix>`, the suffix taken from tldts for this host.
 * `name` may have several labels (`maps.google`), matched on a label boundary.
 */
export function anySuffixMatches(name: string, host: string): boolean {
	if (isIpHost(host)) return false;
	const suffix = publicSuffixOf(host);
	if (suffix === null || suffix === host || !host.endsWith(`.${suffix}`)) return false;
	const rest = host.slice(0, -(suffix.length + 1));
	return rest === name || rest.endsWith(`.${name}`);
}

/** Character classes of simpleUrl, by char code: 1 host label character, 2 kept as is in a path, 4 after `?`/`#`. */
const CHAR_CLASS = (() => {
	const table = new Uint8Array(128);
	const mark = (chars: string, bit: number) => {
		for (const c of chars) table[c.charCodeAt(0)]! |= bit;
	};
	const alnum = "abcdefghijklmnopqrstuvwxyz0123456789";
	mark(`${alnum}-`, 1);
	// Characters the WHATWG parser neither percent-encodes nor rewrites in a path (`'` only there) or a query/fragment.
	const kept = `${alnum}ABCDEFGHIJKLMNOPQRSTUVWXYZ_-.~!$&()*+,;=:@%/`;
	mark(`${kept}'`, 2);
	mark(`${kept}?#`, 4);
	return table;
})();

const DOT = 46;
const SLASH = 47;
const COLON = 58;
const QUESTION = 63;
const HASH = 35;

/**
 * The shortcut for the common URL: http(s), a lower-case ASCII host of `[a-z0-9-]` labels whose last label starts
 * with a letter (so no IP forms, no IDN, no `xn--`), an optional port, then path, query and fragment made only of
 * characters the parser keeps as they are, and no dot segment. For these the URL parser's result is the input
 * itself (test/url-shortcut.property.test.ts holds the two equal); plan() normalises every fetch's URL.
 * Undefined: not simple, ask the parser.
 */
function simpleUrl(url: string): NormalizeResult | undefined {
	const scheme = url.startsWith("https://") ? "https" : url.startsWith("http://") ? "http" : undefined;
	if (scheme === undefined) return undefined;
	const n = url.length;
	let i = scheme.length + 3;
	const hostStart = i;
	let labelStart = i;
	for (; i < n; i++) {
		const c = url.charCodeAt(i);
		if (c === DOT) {
			if (i === labelStart) return undefined;
			labelStart = i + 1;
		} else if (c >= 128 || (CHAR_CLASS[c]! & 1) === 0) break;
	}
	const last = url.charCodeAt(labelStart);
	if (i === labelStart || !(last >= 97 && last <= 122)) return undefined; // empty last label, or not a letter
	const host = url.slice(hostStart, i);
	if (host.includes("xn--")) return undefined;
	const defaultPort = DEFAULT_PORTS[scheme]!;
	let port = defaultPort;
	const hasPort = url.charCodeAt(i) === COLON;
	if (hasPort) {
		const from = ++i;
		while (i < n && i - from <= 5 && url.charCodeAt(i) >= 48 && url.charCodeAt(i) <= 57) i++;
		if (i === from || i - from > 5) return undefined;
		port = Number(url.slice(from, i));
		if (port > 65535) return undefined;
	}
	const pathStart = i;
	if (i < n && url.charCodeAt(i) !== SLASH && url.charCodeAt(i) !== QUESTION && url.charCodeAt(i) !== HASH) {
		return undefined;
	}
	for (; i < n; i++) {
		const c = url.charCodeAt(i);
		if (c === QUESTION || c === HASH) break;
		if (c >= 128 || (CHAR_CLASS[c]! & 2) === 0) return undefined;
		// A segment starting with "." or "%2e" may be a dot segment the parser resolves.
		if (c === SLASH && (url.charCodeAt(i + 1) === DOT || url.charCodeAt(i + 1) === 37)) {
			if (url.charCodeAt(i + 1) === DOT || url.slice(i + 1, i + 4).toLowerCase() === "%2e") return undefined;
		}
	}
	const pathEnd = i;
	for (; i < n; i++) {
		const c = url.charCodeAt(i);
		if (c >= 128 || (CHAR_CLASS[c]! & 4) === 0) return undefined;
	}
	const pathname = pathEnd > pathStart ? url.slice(pathStart, pathEnd) : "/";
	const portText = port === defaultPort ? "" : `:${port}`;
	const href = pathEnd > pathStart && !hasPort ? url : `${scheme}://${host}${portText}${pathname}${url.slice(pathEnd)}`;
	return { ok: true, url: { scheme, host, port, path: splitPathname(pathname), href } };
}

/** Parses and normalises a URL for matching. Only http(s) URLs with a host qualify; never throws. */
export function normalizeUrl(url: string): NormalizeResult {
	if (typeof url !== "string") return { ok: false, error: "invalid URL: not a string" };
	return simpleUrl(url) ?? normalizeUrlByParser(url);
}

/** normalizeUrl through the WHATWG URL parser for every input (normalizeUrl's shortcut must agree with it). */
export function normalizeUrlByParser(url: string): NormalizeResult {
	if (typeof url !== "string") return { ok: false, error: "invalid URL: not a string" };
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		// The URL itself stays out of the message: it may carry a token in its query.
		return { ok: false, error: "invalid URL: not an absolute URL (write it with http:// or https://)" };
	}
	const scheme = parsed.protocol.slice(0, -1);
	const defaultPort = DEFAULT_PORTS[scheme];
	if (defaultPort === undefined) {
		return { ok: false, error: `invalid URL: only http and https URLs can be matched, got "${scheme}:"` };
	}
	const host = parsed.hostname.endsWith(".") ? parsed.hostname.slice(0, -1) : parsed.hostname;
	if (host === "") return { ok: false, error: "invalid URL: the host is empty" };
	// The setters re-serialise the URL, so only when there is userinfo to drop (a hot path in routing).
	if (parsed.username || parsed.password) {
		parsed.username = "";
		parsed.password = "";
	}
	return {
		ok: true,
		url: {
			scheme,
			host,
			port: parsed.port === "" ? defaultPort : Number(parsed.port),
			path: splitPathname(parsed.pathname),
			href: parsed.href,
		},
	};
}
