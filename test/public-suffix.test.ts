// The public-suffix questions site patterns ask (engine/site-normalize.ts): their answers equal what tldts's full
// parse says, for listed ICANN and private suffixes, wildcard and exception rules, unknown TLDs and plain hosts.

import fc from "fast-check";
import { parse } from "tldts";
import { describe, expect, it } from "vitest";
import { isListedPublicSuffix, publicSuffixOf } from "../engine/site-normalize.ts";
import { domain } from "./oracle/site-arbitraries.ts";

const ICANN_ONLY = { extractHostname: false, detectIp: false, validateHostname: false } as const;
const WITH_PRIVATE = { ...ICANN_ONLY, allowPrivateDomains: true } as const;

function listedByParse(host: string): boolean {
	const result = parse(host, WITH_PRIVATE);
	return result.publicSuffix === host && (result.isIcann === true || result.isPrivate === true);
}

const HOSTS = [
	"com",
	"uk",
	"co.uk",
	"example.co.uk",
	"github.io",
	"user.github.io",
	"blogspot.com",
	"s3.amazonaws.com",
	"ck",
	"foo.ck",
	"www.ck",
	"a.www.ck",
	"kawasaki.jp",
	"city.kawasaki.jp",
	"x.kawasaki.jp",
	"localhost",
	"internal",
	"foo.internal",
	"zzz",
	"foo.zzz",
	"github.com",
	"docs.github.com",
	"r12k3.com.au",
	"com.au",
	"xn--fiqs8s",
	"gov.cn",
	"a.gov.cn",
];

describe("public-suffix answers", () => {
	it("a host is a listed suffix exactly when tldts's full parse lists it (ICANN or private)", () => {
		for (const host of HOSTS) expect(isListedPublicSuffix(host), host).toBe(listedByParse(host));
		expect(HOSTS.filter(isListedPublicSuffix)).toEqual([
			"com",
			"uk",
			"co.uk",
			"github.io",
			"blogspot.com",
			"s3.amazonaws.com",
			"ck",
			"foo.ck",
			"kawasaki.jp",
			"x.kawasaki.jp",
			"com.au",
			"xn--fiqs8s",
			"gov.cn",
		]);
	});

	it("a host's ICANN suffix is tldts's, on generated domains and their suffixes", () => {
		const host = fc.oneof(domain, fc.constantFrom(...HOSTS));
		fc.assert(
			fc.property(host, (h) => {
				const normalized = new URL(`http://${h}/`).hostname;
				expect(publicSuffixOf(normalized)).toBe(parse(normalized, ICANN_ONLY).publicSuffix);
				expect(isListedPublicSuffix(normalized)).toBe(listedByParse(normalized));
			}),
			{ numRuns: 1000 },
		);
	});
});
