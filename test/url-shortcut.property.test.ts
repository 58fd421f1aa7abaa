// normalizeUrl's shortcut for simple URLs (engine/site-normalize.ts simpleUrl) gives exactly what the WHATWG URL
// parser path gives, on URLs built from the pieces where the two could part: case, IDN and punycode, IP forms,
// ports, dot segments, backslashes, percent escapes and characters the parser encodes.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeUrl, normalizeUrlByParser } from "../engine/site-normalize.ts";
import { TRICKY_LABELS, TRICKY_PATH_PIECES } from "./oracle/site-arbitraries.ts";

const scheme = fc.constantFrom("https", "http", "HTTPS", "Http", "ftp", "ws", "");
const label = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/), fc.constantFrom(...TRICKY_LABELS));
const host = fc
	.tuple(fc.array(label, { minLength: 1, maxLength: 4 }), fc.constantFrom("", ".", ".."))
	.map(([labels, end]) => labels.join(".") + end);
const port = fc.constantFrom("", ":", ":80", ":443", ":8080", ":0", ":00443", ":65535", ":65536", ":99999", ":x");
const pathPiece = fc.oneof(fc.stringMatching(/^[a-zA-Z0-9_~-]{0,5}$/), fc.constantFrom(...TRICKY_PATH_PIECES, "\n"));
const path = fc.array(pathPiece, { maxLength: 5 }).map((pieces) => pieces.map((p) => `/${p}`).join(""));
const tail = fc.array(fc.oneof(pathPiece, fc.constantFrom("?", "#", "?a=1&b=2", "#frag", "/")), { maxLength: 4 });
const url = fc
	.tuple(
		scheme,
		fc.constantFrom("://", ":/", ":", ":///"),
		fc.constantFrom("", "user@", "u:p@"),
		host,
		port,
		path,
		tail,
	)
	.map(([s, sep, userinfo, h, p, pathText, rest]) => `${s}${sep}${userinfo}${h}${p}${pathText}${rest.join("")}`);

describe("normalizeUrl shortcut", () => {
	it("agrees with the URL parser on generated URLs (valid and not)", () => {
		fc.assert(
			fc.property(url, (input) => {
				expect(normalizeUrl(input)).toEqual(normalizeUrlByParser(input));
			}),
			{ numRuns: 5000 },
		);
	});

	it("agrees with the URL parser on simple URLs (the ones the shortcut takes)", () => {
		const simple = fc
			.tuple(
				fc.constantFrom("http", "https"),
				fc.array(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { minLength: 1, maxLength: 4 }),
				fc.constantFrom("", ":80", ":443", ":8443"),
				fc.array(fc.stringMatching(/^[\w~!$&'()*+,;=:@%-]{0,6}$/), { maxLength: 4 }),
				fc.constantFrom("", "?q=1", "#x", "?a=b#c/d?e"),
			)
			.map(([s, labels, p, segments, rest]) => `${s}://${labels.join(".")}${p}/${segments.join("/")}${rest}`);
		fc.assert(
			fc.property(simple, (input) => {
				expect(normalizeUrl(input)).toEqual(normalizeUrlByParser(input));
			}),
			{ numRuns: 3000 },
		);
	});

	it("keeps the table cases the parser decides", () => {
		for (const input of [
			"https://example.com",
			"https://example.com:443/a/../b",
			"https://EXAMPLE.com/x",
			"https://example.123/",
			"https://a.b.0x1f/",
			"https://xn--nxasmq6b.com/",
			"https://example.com/a%2e%2e/b",
			"https://example.com/a\\b",
			"https://example.com/a b",
			"https://example.com:65536/",
			"https://example.com/?q='x'",
			"https://user:pw@example.com/",
		]) {
			expect(normalizeUrl(input), input).toEqual(normalizeUrlByParser(input));
		}
	});
});
