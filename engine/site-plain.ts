// The shortcut of site-pattern parsing (engine/site-parse.ts) for the common pattern: lower-case ASCII host labels
// and a path of characters the WHATWG URL parser keeps as they are. For these the parser's host and path are the
// text itself, so neither is asked (test/site-shortcut.property.test.ts holds the two parses equal).

/**
 * An optional `*.`, `=` or `.`; labels of `[a-z0-9-]` whose last starts with a letter (no IPv4 or hex forms);
 * an optional `.*`; an optional path of characters the URL parser neither encodes nor rewrites in a path (no `%`,
 * no `\`). One regular expression: native code, where a loop over the characters would run cold in a fresh process.
 */
const PLAIN = /^(\*\.|=|\.)?((?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*)(\.\*)?(?:\/([\w~!$&'()*+,;=:@./-]*))?$/;
/** A dotted-decimal IPv4 address as the URL parser writes it (four numbers to 255, no leading zero), then the same path. */
const PLAIN_IP =
	/^((?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d))(?:\/([\w~!$&'()*+,;=:@./-]*))?$/;

const STAR = 42;
const EQUALS = 61;
const DOT = 46;

/** What the full parse reads from a plain pattern. */
export interface PlainParts {
	kind: "host" | "subdomains" | "exact" | "any-suffix" | "ip";
	/** The host as the URL parser writes it (the text itself); for `name.*`, the name. */
	host: string;
	dotted: boolean;
	/** The path's segments as written, trailing empty ones dropped; empty without a path. */
	segments: string[];
}

/**
 * Whether `raw` is a plain pattern, its parts then written into `out` (false: the full parse must decide: punycode,
 * dot segments, a port…). Written into the caller's object, not a new one: a first load reads 5,000 patterns.
 */
export function plainParts(raw: string, out: PlainParts): boolean {
	// test(), then the parts by position: exec's match array and its four captures were a first load's largest
	// allocation after the patterns themselves. Neither host nor `.*` holds a `/`, the path has no `*`.
	if (!PLAIN.test(raw)) {
		const ip = PLAIN_IP.exec(raw);
		const segments = ip === null ? undefined : plainSegments(ip[2]);
		if (segments === undefined) return false;
		out.kind = "ip";
		out.host = ip?.[1] ?? "";
		out.dotted = false;
		out.segments = segments;
		return true;
	}
	const first = raw.charCodeAt(0);
	const prefix = first === STAR ? 2 : first === EQUALS || first === DOT ? 1 : 0;
	const slash = raw.indexOf("/", prefix);
	const hostEnd = slash < 0 ? raw.length : slash;
	const anySuffix = raw.charCodeAt(hostEnd - 1) === STAR;
	const host = raw.slice(prefix, anySuffix ? hostEnd - 2 : hostEnd);
	// Punycode labels are checked by the URL parser; `*.name.*`, `=name.*` and `.name.*` are rare; a `://` anywhere
	// is refused as a scheme: the full parse says each.
	if (host.includes("xn--") || (anySuffix && prefix > 0) || raw.includes("://")) return false;
	const segments = plainSegments(slash < 0 ? undefined : raw.slice(slash + 1));
	if (segments === undefined) return false;
	out.kind = anySuffix ? "any-suffix" : first === STAR ? "subdomains" : first === EQUALS ? "exact" : "host";
	out.host = host;
	out.dotted = first === DOT;
	out.segments = segments;
	return true;
}

/** No path: one list for every such pattern (the caller keeps no path for it and never writes into it). */
const NO_SEGMENTS: string[] = [];

/** A plain path's segments, trailing empty ones dropped; undefined with a dot segment (the URL parser resolves it). */
function plainSegments(pathRaw: string | undefined): string[] | undefined {
	if (pathRaw === undefined || pathRaw === "") return NO_SEGMENTS;
	const segments = pathRaw.split("/");
	// Indexed: a for-of makes an iterator and a result per segment in code not yet optimised (a first load's 5,000).
	for (let i = 0; i < segments.length; i++) if (segments[i] === "." || segments[i] === "..") return undefined;
	while (segments.length > 0 && segments.at(-1) === "") segments.pop();
	return segments;
}
