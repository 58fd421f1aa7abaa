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

/** What the full parse reads from a plain pattern. */
export interface PlainParts {
	kind: "host" | "subdomains" | "exact" | "any-suffix" | "ip";
	/** The host as the URL parser writes it (the text itself); for `name.*`, the name. */
	host: string;
	dotted: boolean;
	/** The path's segments as written, trailing empty ones dropped; empty without a path. */
	segments: string[];
}

/** The parts of a plain pattern, or undefined when the full parse must decide (punycode, dot segments, a port…). */
export function plainParts(raw: string): PlainParts | undefined {
	const match = PLAIN.exec(raw);
	if (match === null) {
		const ip = PLAIN_IP.exec(raw);
		const segments = ip === null ? undefined : plainSegments(ip[2]);
		return segments === undefined ? undefined : { kind: "ip", host: ip?.[1] ?? "", dotted: false, segments };
	}
	// Indexed, not destructured: destructuring walks the array's iterator, slow in code that has not warmed up yet.
	const prefix = match[1];
	const host = match[2] ?? "";
	const anySuffix = match[3];
	// Punycode labels are checked by the URL parser; `*.name.*`, `=name.*` and `.name.*` are rare; a `://` anywhere
	// is refused as a scheme: the full parse says each.
	if (host.includes("xn--") || (anySuffix !== undefined && prefix !== undefined) || raw.includes("://")) {
		return undefined;
	}
	const segments = plainSegments(match[4]);
	if (segments === undefined) return undefined;
	const kind =
		anySuffix !== undefined ? "any-suffix" : prefix === "*." ? "subdomains" : prefix === "=" ? "exact" : "host";
	return { kind, host, dotted: prefix === ".", segments };
}

/** A plain path's segments, trailing empty ones dropped; undefined with a dot segment (the URL parser resolves it). */
function plainSegments(pathRaw: string | undefined): string[] | undefined {
	const segments = pathRaw === undefined || pathRaw === "" ? [] : pathRaw.split("/");
	for (const segment of segments) if (segment === "." || segment === "..") return undefined;
	while (segments.length > 0 && segments.at(-1) === "") segments.pop();
	return segments;
}
