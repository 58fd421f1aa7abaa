// fast-check properties for site patterns: the invariants 1–8 and 12 of docs/site-patterns.md, plus a
// differential check of matchSite against the slow oracle and the soundness of covers().

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	covers,
	entryUrl,
	formatSitePattern,
	matchesEntry,
	matchesUrl,
	normalizeUrl,
	parseSitePattern,
	type SitePattern,
} from "../engine/sites.ts";
import {
	caseFlip,
	domain,
	formatUrl,
	IDN_PAIRS,
	label,
	patternRaw,
	segment,
	url,
	urlParts,
} from "./oracle/site-arbitraries.ts";
import { oracleMatch } from "./oracle/sites-oracle.ts";

function pattern(raw: string): SitePattern {
	const parsed = parseSitePattern(raw);
	if (!parsed.ok) throw new Error(`generator produced an invalid pattern ${raw}: ${parsed.error}`);
	return parsed.pattern;
}

const RUNS = { numRuns: 300 };
const simpleLabel = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
/** Domains on suffixes that never occur in "evil" hosts below. */
const goodDomain = fc
	.tuple(fc.array(label, { maxLength: 2 }), fc.constantFrom("com", "org", "co.uk", "io", "cn"))
	.map(([ls, tld]) => [...ls, tld].join("."));
const anyUrlString = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.webUrl(), url, fc.constant("http://[::1"));

describe("site pattern invariants", () => {
	it("1: matching is pure and total; a bad URL is a clear error, never a throw", () => {
		fc.assert(
			fc.property(anyUrlString, patternRaw, fc.string(), (input, raw, junkPattern) => {
				const result = normalizeUrl(input);
				if (!result.ok) expect(result.error).toMatch(/^invalid URL/);
				const p = pattern(raw);
				const first = matchesUrl(p, input);
				expect(typeof first).toBe("boolean");
				expect(matchesUrl(p, input)).toBe(first);
				const junk = parseSitePattern(junkPattern);
				if (!junk.ok) expect(junk.error).toContain("site pattern");
				else expect(typeof matchesUrl(junk.pattern, input)).toBe("boolean");
			}),
			{ numRuns: 300 },
		);
	});

	it("2: host case, one trailing dot, a default port, userinfo, query and fragment never change the answer", () => {
		const partsWithFlippedHost = urlParts.chain((parts) => fc.tuple(fc.constant(parts), caseFlip(parts.host)));
		const changes = fc.record({
			dot: fc.boolean(),
			port: fc.boolean(),
			user: fc.boolean(),
			query: fc.boolean(),
			hash: fc.boolean(),
		});
		fc.assert(
			fc.property(patternRaw, partsWithFlippedHost, changes, (raw, [parts, flipped], change) => {
				const p = pattern(raw);
				const dot = change.dot && !parts.host.startsWith("[") ? "." : "";
				const defaultPort = parts.scheme === "https" ? 443 : 80;
				// Toggle the default port: add it when absent, drop it when written out.
				const port =
					parts.port === defaultPort
						? change.port
							? undefined
							: defaultPort
						: (parts.port ?? (change.port ? defaultPort : undefined));
				const variant =
					`${parts.scheme}://${change.user ? "user:pw@" : ""}${flipped}${dot}${port === undefined ? "" : `:${port}`}` +
					`${parts.path}${change.query ? "?a=1&site=github.com" : ""}${change.hash ? "#/golang" : ""}`;
				expect(matchesUrl(p, variant)).toBe(matchesUrl(p, formatUrl(parts)));
			}),
			RUNS,
		);
	});

	it("3: a Unicode host and its punycode form give the same answer", () => {
		const idn = fc.tuple(fc.constantFrom(...IDN_PAIRS), fc.boolean(), fc.boolean());
		fc.assert(
			fc.property(idn, fc.array(label, { maxLength: 1 }), fc.constantFrom("", "*.", "="), (pair, sub, prefix) => {
				const [[unicode, puny], patternUnicode] = [pair[0], pair[1]];
				const host = (name: string) => [...sub, name, "de"].join(".");
				const p = pattern(`${prefix}${patternUnicode ? unicode : puny}.de`);
				const viaUnicode = matchesUrl(p, `https://${host(unicode)}/`);
				expect(matchesUrl(p, `https://${host(puny)}/`)).toBe(viaUnicode);
				expect(viaUnicode).toBe(prefix === "" || (prefix === "*." ? sub.length > 0 : sub.length === 0));
			}),
			RUNS,
		);
	});

	it("4: d matches l1.….lk.d, never xd (x not ending in a dot), never d.evil.tld", () => {
		fc.assert(
			fc.property(goodDomain, fc.array(simpleLabel, { maxLength: 4 }), simpleLabel, (d, labels, x) => {
				const p = pattern(d);
				expect(matchesUrl(p, `https://${[...labels, d].join(".")}/a`)).toBe(true);
				expect(matchesUrl(p, `https://${x}${d}/`)).toBe(false);
				expect(matchesUrl(p, `https://${d}.${x}.net/`)).toBe(false);
				expect(matchesUrl(p, `https://${d}.evil.tld/`)).toBe(false);
			}),
			RUNS,
		);
	});

	it("5: *.d ⊂ d and *.d never matches d; =d matches only d", () => {
		fc.assert(
			fc.property(domain, url, (d, u) => {
				const [host, sub, exact] = [pattern(d), pattern(`*.${d}`), pattern(`=${d}`)];
				if (matchesUrl(sub, u)) expect(matchesUrl(host, u)).toBe(true);
				if (matchesUrl(exact, u)) expect(matchesUrl(host, u) && !matchesUrl(sub, u)).toBe(true);
				expect(matchesUrl(sub, `https://${d}/`)).toBe(false);
				expect(matchesUrl(exact, `https://${d}/`)).toBe(true);
				expect(matchesUrl(exact, `https://www.${d}/`)).toBe(false);
				expect(covers(host, sub) && covers(host, exact) && !covers(sub, host)).toBe(true);
			}),
			RUNS,
		);
	});

	it("6: .cn ≡ cn, and twitter.com/p ≡ x.com/p", () => {
		const path = fc.array(fc.constantFrom("golang", "jack", "status", "20", "i", "*"), { maxLength: 3 });
		fc.assert(
			fc.property(domain, path, url, fc.constantFrom("x.com", "twitter.com", "mobile.x.com"), (d, segs, u, xh) => {
				expect(matchesUrl(pattern(`.${d}`), u)).toBe(matchesUrl(pattern(d), u));
				const suffix = segs.length === 0 ? "" : `/${segs.join("/")}`;
				const twitter = pattern(`twitter.com${suffix}`);
				const x = pattern(`x.com${suffix}`);
				for (const target of [u, `https://${xh}${suffix}`, `https://${xh}/i/web/status/20`]) {
					expect(matchesUrl(twitter, target)).toBe(matchesUrl(x, target));
				}
			}),
			RUNS,
		);
	});

	it("7: h/p matches /p, /p/, /p/anything, never /pX; h/p matching implies h matches", () => {
		const literal = fc.array(fc.constantFrom("golang", "Go", "a.b", "%E4%B8%AD", "status", "20"), {
			minLength: 1,
			maxLength: 3,
		});
		const tail = fc.stringMatching(/^[A-Za-z0-9_~.-]{1,6}$/).filter((t) => t !== "." && t !== "..");
		fc.assert(
			fc.property(domain, literal, tail, patternRaw, url, (h, segs, x, anyRaw, u) => {
				const p = segs.join("/");
				const hp = pattern(`${h}/${p}`);
				for (const path of [`/${p}`, `/${p}/`, `/${p}/${x}`]) expect(matchesUrl(hp, `https://${h}${path}`)).toBe(true);
				expect(matchesUrl(hp, `https://${h}/${p}${x}`)).toBe(false);
				const withPath = pattern(anyRaw);
				const hostOnly = pattern(anyRaw.replace(/\/.*$/, ""));
				if (matchesUrl(withPath, u)) expect(matchesUrl(hostOnly, u)).toBe(true);
			}),
			RUNS,
		);
	});

	it("8: IP patterns match only the canonical address, never as a suffix; 127.1 ≡ 127.0.0.1", () => {
		const octets = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
		fc.assert(
			fc.property(octets, url, fc.nat(3), ([a, b, c, d], u, form) => {
				const canonical = `${a}.${b}.${c}.${d}`;
				const low = (b << 16) | (c << 8) | d;
				const spellings = [canonical, `${a}.${low}`, `0x${a.toString(16)}.${b}.${c}.${d}`, `${a * 2 ** 24 + low}`];
				const p = pattern(spellings[form]!);
				expect(p).toMatchObject({ kind: "ip", host: canonical });
				for (const spelling of spellings) expect(matchesUrl(p, `http://${spelling}:8080/x`)).toBe(true);
				const normalized = normalizeUrl(u);
				if (matchesUrl(p, u)) expect(normalized.ok && normalized.url.host).toBe(canonical);
				expect(matchesUrl(pattern("127.1"), u)).toBe(matchesUrl(pattern("127.0.0.1"), u));
				expect(matchesUrl(p, `http://${(a + 1) % 256}.${b}.${c}.${d}/`)).toBe(false);
			}),
			RUNS,
		);
	});

	it("12: normalize is idempotent, for URLs and for patterns", () => {
		fc.assert(
			fc.property(anyUrlString, patternRaw, (input, raw) => {
				const once = normalizeUrl(input);
				if (once.ok) expect(normalizeUrl(once.url.href)).toEqual(once);
				const { raw: _raw, ...first } = pattern(raw);
				const { raw: _raw2, ...second } = pattern(formatSitePattern(pattern(raw)));
				expect(second).toEqual(first);
			}),
			{ numRuns: 500 },
		);
	});
});

describe("matchSite against the slow oracle", () => {
	it("agrees with oracleMatch on random patterns × random URLs", () => {
		let matched = 0;
		fc.assert(
			fc.property(patternRaw, url, (raw, u) => {
				const expected = oracleMatch(raw, u);
				if (expected) matched++;
				expect(matchesUrl(pattern(raw), u)).toBe(expected);
			}),
			{ numRuns: 2000 },
		);
		// Independent pools rarely meet; the next property covers the matching side.
		expect(matched).toBeGreaterThan(5);
	});

	it("agrees on URLs built from the pattern itself (mostly matches)", () => {
		let matched = 0;
		const variation = fc.record({
			sub: fc.array(label, { maxLength: 2 }),
			http: fc.boolean(),
			more: fc.array(segment, { maxLength: 2 }),
		});
		fc.assert(
			fc.property(patternRaw, variation, (raw, { sub, http, more }) => {
				const entry = entryUrl(pattern(raw));
				const host = `${sub.map((s) => `${s}.`).join("")}${entry.host}`;
				const path = entry.href.slice(entry.href.indexOf("/", "https://".length)).replace(/\/$/, "");
				const href = `${http ? "http" : "https"}://${host}:${entry.port}${path}/${more.join("/")}`;
				const expected = oracleMatch(raw, href);
				if (expected) matched++;
				expect(matchesUrl(pattern(raw), href)).toBe(expected);
			}),
			{ numRuns: 1000 },
		);
		expect(matched).toBeGreaterThan(300);
	});
});

describe("covers and entries", () => {
	it("covers(a, b) is sound: whatever b matches, a matches", () => {
		let certain = 0;
		const related = patternRaw.chain((a) =>
			fc.tuple(
				fc.constant(a),
				fc.oneof(
					patternRaw,
					fc.constantFrom(
						`www.${a}`,
						`*.${a}`,
						`=${a}`,
						`${a}/golang`,
						`${a}/go*/issues`,
						a.replace(/^(\*\.|=|\.)?/, "$1my"),
					),
				),
			),
		);
		fc.assert(
			fc.property(related, url, (pair, u) => {
				const parsed = pair.map(parseSitePattern);
				if (!parsed[0]!.ok || !parsed[1]!.ok) return;
				const [a, b] = [parsed[0]!.pattern, parsed[1]!.pattern];
				if (!covers(a, b)) return;
				certain++;
				for (const target of [u, entryUrl(b).href]) {
					if (matchesUrl(b, target)) expect(matchesUrl(a, target)).toBe(true);
				}
			}),
			{ numRuns: 1000 },
		);
		expect(certain).toBeGreaterThan(100);
	});

	it("every pattern covers itself and matches itself as a domains entry", () => {
		fc.assert(
			fc.property(patternRaw, (raw) => {
				const p = pattern(raw);
				expect(covers(p, p)).toBe(true);
				expect(matchesEntry(p, p)).toBe(true);
			}),
			RUNS,
		);
	});
});
