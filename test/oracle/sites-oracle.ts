// Slow, obviously-correct oracle for site patterns (docs/site-patterns.md), written apart from engine/:
// plain string parsing, label-array comparisons, the alias tried as a second spelling of the URL host,
// a linear scan instead of an index, plain recursion for globs. It leans only on the definitions the doc names:
// WHATWG URL and tldts.

import { getPublicSuffix } from "tldts";

type Mode = "host" | "sub" | "exact" | "name" | "ip";

interface OraclePattern {
	mode: Mode;
	/** Host (or name for `name.*`). */
	host: string;
	port?: number;
	/** Decoded literal segments; for a glob, undefined and `glob` set. */
	path?: string[];
	/** Per segment: "**", or the decoded pieces between its `*`s. */
	glob?: Array<"**" | string[]>;
}

interface OracleUrl {
	host: string;
	port: number;
	segments: string[];
}

function decode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

function hostOf(text: string): string | null {
	try {
		const hostname = new URL(`http://${text}/`).hostname;
		return hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
	} catch {
		return null;
	}
}

function isIp(host: string): boolean {
	return host.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(host);
}

/** Parses the valid forms only; anything else is null (the engine's table tests cover the invalid forms). */
export function oracleParse(raw: string): OraclePattern | null {
	const text = raw.trim();
	const slash = text.indexOf("/");
	let authority = slash === -1 ? text : text.slice(0, slash);
	const pathText = slash === -1 ? "" : text.slice(slash + 1);
	let mode: Mode = "host";
	if (authority.startsWith("*.")) [mode, authority] = ["sub", authority.slice(2)];
	else if (authority.startsWith("=")) [mode, authority] = ["exact", authority.slice(1)];
	else if (authority.startsWith(".")) authority = authority.slice(1);
	let port: number | undefined;
	const withPort = /^(\[[^\]]*\]|[^:]*):(\d+)$/.exec(authority);
	if (withPort !== null) [authority, port] = [withPort[1]!, Number(withPort[2])];
	let host: string | null;
	if (authority.endsWith(".*")) {
		if (mode !== "host") return null;
		mode = "name";
		const full = hostOf(`${authority.slice(0, -2)}.com`);
		host = full?.endsWith(".com") ? full.slice(0, -4) : null;
	} else {
		if (authority.includes("*") || authority.includes("..")) return null;
		host = hostOf(authority);
		if (host !== null && isIp(host)) mode = "ip";
	}
	if (host === null || host === "") return null;
	const pattern: OraclePattern = { mode, host };
	if (port !== undefined) pattern.port = port;
	const raws = new URL(`http://oracle.invalid/${pathText}`).pathname.split("/").slice(1);
	while (raws.length > 0 && raws[raws.length - 1] === "") raws.pop();
	if (raws.length === 0) return pattern;
	if (raws.some((segment) => segment.includes("*"))) {
		pattern.glob = raws.map((segment) => (segment === "**" ? "**" : segment.split("*").map(decode)));
	} else {
		pattern.path = raws.map(decode);
	}
	return pattern;
}

export function oracleUrl(url: string): OracleUrl | null {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return null;
	}
	const defaults: Record<string, number> = { "http:": 80, "https:": 443 };
	const defaultPort = defaults[parsed.protocol];
	if (defaultPort === undefined || parsed.hostname === "") return null;
	const host = parsed.hostname.endsWith(".") ? parsed.hostname.slice(0, -1) : parsed.hostname;
	const port = parsed.port === "" ? defaultPort : Number(parsed.port);
	return { host, port, segments: parsed.pathname.split("/").slice(1).map(decode) };
}

function endsWithLabels(host: string, suffix: string, strictly: boolean): boolean {
	const h = host.split(".");
	const s = suffix.split(".");
	if (h.length < s.length || (strictly && h.length === s.length)) return false;
	return s.every((label, i) => h[h.length - s.length + i] === label);
}

/** The other spelling of an x.com / twitter.com host, or null. */
function twin(host: string): string | null {
	for (const [from, to] of [
		["twitter.com", "x.com"],
		["x.com", "twitter.com"],
	] as const) {
		if (host === from) return to;
		if (host.endsWith(`.${from}`)) return host.slice(0, -from.length) + to;
	}
	return null;
}

function hostMatches(p: OraclePattern, host: string): boolean {
	if (p.mode === "ip") return host === p.host;
	if (isIp(host)) return false;
	if (p.mode === "name") {
		const suffix = getPublicSuffix(host, { extractHostname: false });
		if (suffix === null) return false;
		const left = host.split(".").slice(0, -suffix.split(".").length);
		return left.length > 0 && endsWithLabels(left.join("."), p.host, false);
	}
	// "A pattern on either host matches both": try the URL host under its other spelling too.
	const spellings = [host, twin(host)].filter((h) => h !== null);
	return spellings.some((h) => {
		if (p.mode === "exact") return h === p.host;
		return endsWithLabels(h, p.host, p.mode === "sub");
	});
}

function startsWith(segments: string[], prefix: string[]): boolean {
	for (let i = 0; i < prefix.length; i++) if (segments[i] !== prefix[i]) return false;
	return true;
}

/** Pieces separated by `*` against a whole segment, by trying every split (exponential, fine for short text). */
function piecesMatch(pieces: string[], text: string): boolean {
	const [head = "", ...rest] = pieces;
	if (!text.startsWith(head)) return false;
	const after = text.slice(head.length);
	if (rest.length === 0) return after === "";
	for (let skip = 0; skip <= after.length; skip++) if (piecesMatch(rest, after.slice(skip))) return true;
	return false;
}

/** The glob against exactly these segments: "**" eats any number of segments, `*`-only segments need text. */
function globMatches(glob: Array<"**" | string[]>, segments: string[]): boolean {
	if (glob.length === 0) return segments.length === 0;
	const [first, ...rest] = glob;
	if (first === "**") {
		for (let k = 0; k <= segments.length; k++) if (globMatches(rest, segments.slice(k))) return true;
		return false;
	}
	if (segments.length === 0 || first === undefined) return false;
	const segment = segments[0]!;
	if (first.every((piece) => piece === "") && segment === "") return false;
	return piecesMatch(first, segment) && globMatches(rest, segments.slice(1));
}

function pathMatches(p: OraclePattern, segments: string[]): boolean {
	if (p.glob !== undefined) {
		for (let k = 1; k <= segments.length; k++) if (globMatches(p.glob, segments.slice(0, k))) return true;
		return false;
	}
	if (p.path === undefined || startsWith(segments, p.path)) return true;
	// A pattern naming one X post also matches the post's /i/status and /i/web/status forms.
	const xHost =
		p.mode !== "name" && (endsWithLabels(p.host, "x.com", false) || endsWithLabels(p.host, "twitter.com", false));
	const [a, b, c, d] = p.path;
	const id =
		p.path.length === 3 && b === "status" && a !== ""
			? c
			: p.path.length === 4 && a === "i" && b === "web" && c === "status"
				? d
				: undefined;
	if (!xHost || id === undefined || !/^\d+$/.test(id)) return false;
	return startsWith(segments, ["i", "status", id]) || startsWith(segments, ["i", "web", "status", id]);
}

// Caches only: the same raw string always parses the same way.
const parsed = new Map<string, OraclePattern | null>();

function matchParsed(raw: string, u: OracleUrl | null): boolean {
	if (!parsed.has(raw)) parsed.set(raw, oracleParse(raw));
	const p = parsed.get(raw) ?? null;
	if (p === null || u === null) return false;
	if (p.port !== undefined && p.port !== u.port) return false;
	return hostMatches(p, u.host) && pathMatches(p, u.segments);
}

/** Does the raw pattern match the URL string? Invalid pattern or URL → false. */
export function oracleMatch(raw: string, url: string): boolean {
	return matchParsed(raw, oracleUrl(url));
}

/** Linear scan: each value once (first-insertion order) with the first of its patterns that matches. */
export function linearCandidates<T>(
	entries: Array<{ raw: string; value: T }>,
	url: string,
): Array<{ value: T; raw: string }> {
	const u = oracleUrl(url);
	const values: T[] = [];
	for (const entry of entries) if (!values.includes(entry.value)) values.push(entry.value);
	const out: Array<{ value: T; raw: string }> = [];
	for (const value of values) {
		const first = entries.find((entry) => entry.value === value && matchParsed(entry.raw, u));
		if (first !== undefined) out.push({ value, raw: first.raw });
	}
	return out;
}
