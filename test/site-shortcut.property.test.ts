// parseSitePattern's shortcut for plain patterns (engine/site-parse.ts plainPattern: lower-case ASCII labels, a plain
// path) gives exactly what the full parse through the WHATWG URL parser gives, on patterns built from the pieces where
// the two could part: prefixes, case, IDN and punycode, IP forms, ports, stray dots, `name.*`, dot segments,
// percent escapes, globs and characters the parser encodes.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSitePattern, parseSitePatternByParser } from "../engine/site-parse.ts";
import { TRICKY_LABELS, TRICKY_PATH_PIECES } from "./oracle/site-arbitraries.ts";

const prefix = fc.constantFrom("", "", "*.", "=", ".", "*", "=*.", "..", " ");
const label = fc.oneof(
	{ weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/) },
	{
		weight: 2,
		arbitrary: fc.constantFrom(...TRICKY_LABELS, "com", "co", "uk", "github", "io", "twitter", "x", "[::1]"),
	},
);
const host = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join("."));
const end = fc.constantFrom("", "", "", ".", "..", ".*", ".*.", ":8080", ":", ":0", ":99999");
const pathPiece = fc.oneof(
	fc.stringMatching(/^[a-zA-Z0-9_~-]{0,5}$/),
	fc.constantFrom(...TRICKY_PATH_PIECES),
	fc.constantFrom("**", "go*", "*-x", "status", "i", "web", "20", "1234", "?", "#", "?a=1", "a%2Fb", "%2A"),
);
const path = fc
	.array(pathPiece, { maxLength: 5 })
	.chain((pieces) => fc.constantFrom("", "/").map((last) => pieces.map((p) => `/${p}`).join("") + last));
const pattern = fc.tuple(prefix, host, end, path).map(([p, h, e, rest]) => `${p}${h}${e}${rest}`);

/** The shortcut (parseSitePattern, memoised) and the full parse give equal results on every generated pattern. */
function agreeOn(patterns: fc.Arbitrary<string>, numRuns: number): void {
	const agree = (raw: string) => {
		expect(parseSitePattern(raw), raw).toEqual(parseSitePatternByParser(raw));
	};
	fc.assert(fc.property(patterns, agree), { numRuns });
}

describe("parseSitePattern shortcut", () => {
	it("agrees with the full parse on generated patterns (valid and not)", () => agreeOn(pattern, 5000));

	it("agrees with the full parse on plain patterns (the ones the shortcut takes)", () => {
		const plainLabel = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}$/);
		const plain = fc
			.tuple(
				fc.constantFrom("", "*.", "=", "."),
				fc.array(plainLabel, { minLength: 1, maxLength: 3 }),
				fc.stringMatching(/^[a-z][a-z0-9-]{0,5}$/),
				fc.constantFrom("", "", ".*"),
				fc.array(fc.stringMatching(/^[\w~!$&'()*+,;=:@.-]{0,6}$/), { maxLength: 4 }),
				fc.constantFrom("", "/"),
			)
			.map(([p, labels, last, any, segments, slash]) => {
				const path = segments.length === 0 ? "" : `/${segments.join("/")}${slash}`;
				return `${p}${[...labels, last].join(".")}${any}${path}`;
			});
		agreeOn(plain, 3000);
	});

	it("agrees with the full parse on IPv4 addresses, plain and not", () => {
		const octet = fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), fc.constantFrom("00", "01", "0x1", "1a"));
		const ip = fc
			.tuple(fc.array(octet, { minLength: 3, maxLength: 5 }), fc.constantFrom("", "=", "*.", "."), path)
			.map(([octets, p, rest]) => `${p}${octets.join(".")}${rest}`);
		agreeOn(ip, 3000);
	});

	it("keeps the table cases the full parse decides", () => {
		const table = [
			"github.com",
			"GitHub.com",
			"com",
			"co.uk",
			"github.io",
			".cn",
			"*.github.io",
			"=docs.github.com",
			"google.*",
			"maps.google.*",
			"*.google.*",
			"=google.*",
			".google.*",
			"10.0.0.1",
			"10.0.0.1.*",
			"10.0.0.1/status",
			"0.0.0.0",
			"255.255.255.255/a/",
			"1.2.3.256",
			"01.2.3.4",
			"1.2.3",
			"=10.0.0.1",
			"example.123",
			"a.b.0x1f",
			"xn--nxasmq6b.com",
			"bücher.de",
			"example.com.",
			"example..com",
			"example.com:8080/x",
			"example.com/a/../b",
			"example.com/./a",
			"example.com/.well-known/x",
			"example.com/a%2e%2e/b",
			"example.com/a\\b",
			"example.com/a%2Fb",
			"example.com/go*/x",
			"example.com/**/src",
			"example.com/%2A",
			"x.com/jack/status/20",
			"twitter.com/i/web/status/20",
			"mobile.twitter.com/jack/status/20/photo/1",
			"example.com//x//",
		];
		agreeOn(fc.constantFrom(...table), table.length * 4);
	});
});
