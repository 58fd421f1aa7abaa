// fast-check generators for site patterns and URLs. Hosts come from a small pool of labels and suffixes so that
// random patterns and random URLs actually meet (properties that never match anything prove nothing).

import fc from "fast-check";

/** Unicode labels with their punycode spelling (checked once against WHATWG URL, kept literal here). */
export const IDN_PAIRS: ReadonlyArray<readonly [string, string]> = [
	["bücher", "xn--bcher-kva"],
	["münchen", "xn--mnchen-3ya"],
	["例え", "xn--r8jz45g"],
	["россия", "xn--h1alffa9f"],
	["中文", "xn--fiq228c"],
];

// "mygithub" and "nx" end like "github" and "x": suffix checks must respect label boundaries.
const LABELS = [
	"a",
	"www",
	"docs",
	"go",
	"github",
	"mygithub",
	"nx",
	"google",
	"maps",
	"x",
	"twitter",
	"mobile",
	"zhihu",
	"gov",
];
const SUFFIXES = ["com", "org", "cn", "com.cn", "co.uk", "de", "io", "github.io", "jp", "internal"];
const IPS = ["127.0.0.1", "10.0.0.1", "192.168.1.20", "1.2.3.4", "[::1]", "[2001:db8::1]"];
const USERS = ["jack", "i", "golang"];
const IDS = ["20", "21", "1234"];

export const label = fc.oneof(
	{ weight: 4, arbitrary: fc.constantFrom(...LABELS) },
	{ weight: 1, arbitrary: fc.constantFrom(...IDN_PAIRS.flat()) },
);
export const suffix = fc.constantFrom(...SUFFIXES);
/** A domain such as `docs.github.com` or `bücher.de`. */
export const domain = fc
	.tuple(fc.array(label, { maxLength: 2 }), suffix)
	.map(([labels, tld]) => [...labels, tld].join("."));
export const ip = fc.constantFrom(...IPS);
export const xHost = fc.constantFrom("x.com", "twitter.com", "mobile.twitter.com");

/** Path segments as written in URLs (percent-escapes, Unicode, case variants, an empty segment). */
export const segment = fc.constantFrom(
	"golang",
	"go",
	"Golang",
	"golang-migrate",
	"issues",
	"12",
	"status",
	"i",
	"web",
	"20",
	"photo",
	"gol%61ng",
	"a%2Fb",
	"%E4%B8%AD",
	"中",
	"a.b",
	"(x)",
	"",
);
const patternSegment = fc.oneof(
	{ weight: 3, arbitrary: segment.filter((s) => s !== "") },
	{ weight: 1, arbitrary: fc.constantFrom("*", "**", "go*", "*-migrate", "(*)") },
);
const port = fc.constantFrom(undefined, undefined, 80, 443, 8080);

/** An X post path, as a pattern or URL path. */
const xPostPath = fc
	.tuple(fc.constantFrom(...USERS), fc.constantFrom(...IDS), fc.constantFrom("", "/photo/1"))
	.chain(([user, id, tail]) => fc.constantFrom(`${user}/status/${id}${tail}`, `i/web/status/${id}`, `i/status/${id}`));

/** A valid site pattern string of every form in the grammar. */
export const patternRaw: fc.Arbitrary<string> = fc
	.tuple(
		fc.oneof(
			{ weight: 6, arbitrary: fc.tuple(fc.constantFrom("", "", "", ".", "*.", "="), domain).map(([p, d]) => p + d) },
			{ weight: 2, arbitrary: fc.array(label, { minLength: 1, maxLength: 2 }).map((ls) => `${ls.join(".")}.*`) },
			{ weight: 1, arbitrary: fc.tuple(fc.constantFrom("", "="), ip).map(([p, a]) => p + a) },
			{ weight: 2, arbitrary: fc.tuple(fc.constantFrom("", "=", "*."), xHost).map(([p, h]) => p + h) },
		),
		port,
		fc.oneof(
			{ weight: 3, arbitrary: fc.constant("") },
			{ weight: 3, arbitrary: fc.array(patternSegment, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join("/")}`) },
			{ weight: 1, arbitrary: xPostPath.map((p) => `/${p}`) },
		),
		fc.boolean(),
	)
	.map(([host, p, path, slash]) => `${host}${p === undefined ? "" : `:${p}`}${path}${slash && path !== "" ? "/" : ""}`);

export interface UrlParts {
	scheme: "http" | "https";
	host: string;
	port?: number;
	path: string;
}

const urlHost = fc.oneof(
	{ weight: 6, arbitrary: fc.tuple(fc.array(label, { maxLength: 2 }), domain).map(([ls, d]) => [...ls, d].join(".")) },
	{ weight: 1, arbitrary: ip },
	{ weight: 2, arbitrary: xHost },
);

export const urlParts: fc.Arbitrary<UrlParts> = fc.record(
	{
		scheme: fc.constantFrom("http" as const, "https" as const),
		host: urlHost,
		port,
		path: fc.oneof(
			fc.array(segment, { maxLength: 4 }).map((s) => `/${s.join("/")}`),
			xPostPath.map((p) => `/${p}`),
		),
	},
	{ requiredKeys: ["scheme", "host", "path"] },
);

export function formatUrl(parts: UrlParts): string {
	return `${parts.scheme}://${parts.host}${parts.port === undefined ? "" : `:${parts.port}`}${parts.path}`;
}

export const url = urlParts.map(formatUrl);

/** Flips the case of ASCII letters at random positions. */
export const caseFlip = (text: string) =>
	fc
		.array(fc.boolean(), { minLength: text.length, maxLength: text.length })
		.map((flips) => [...text].map((c, i) => (flips[i] ? c.toUpperCase() : c)).join(""));

/** Host labels where the WHATWG URL parser and a shortcut past it could part: IP and hex forms, punycode, case. */
export const TRICKY_LABELS = [
	"0",
	"09",
	"255",
	"0x1f",
	"0x",
	"xn--nxasmq6b",
	"xn--a",
	"Ab",
	"bücher",
	"-a",
	"a-",
	"",
	"*",
	"_x",
	"a%41",
];

/** Path pieces of the same kind: dot segments, escapes, characters the parser encodes or keeps. */
export const TRICKY_PATH_PIECES = [
	...[".", "..", ".x", "%2e", "%2E%2e", "%41", "%zz", "%", "\\", "'", "^", "|", "{", "}", "[", "]", " "],
	...["é", "*", "@", ":", ";", "=", "!", "$", "&", "(", ")", "+", ",", "\t", '"', "<", ">", "`"],
];
