// extractSiteOperators: site: / -site: tokens move into domains / excludeDomains and leave the query's words.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractSiteOperators } from "../engine/query-operators.ts";

describe("extractSiteOperators", () => {
	const rows: Array<{ description: string; query: string; expected: ReturnType<typeof extractSiteOperators> }> = [
		{
			description: "moves site: into domains",
			query: "generics site:go.dev tutorial",
			expected: { query: "generics tutorial", domains: ["go.dev"], excludeDomains: [] },
		},
		{
			description: "moves -site: into excludeDomains",
			query: "rust async -site:reddit.com",
			expected: { query: "rust async", domains: [], excludeDomains: ["reddit.com"] },
		},
		{
			description: "treats the operator case-insensitively",
			query: "SITE:github.com/golang Site:x.com -SiTe:pinterest.*",
			expected: { query: "", domains: ["github.com/golang", "x.com"], excludeDomains: ["pinterest.*"] },
		},
		{
			description: "keeps a host with a path",
			query: "errors site:go.dev/doc/",
			expected: { query: "errors", domains: ["go.dev/doc/"], excludeDomains: [] },
		},
		{
			description: "drops a pasted scheme and surrounding quotes",
			query: 'site:https://docs.python.org/3 site:"zhihu.cn" asyncio',
			expected: { query: "asyncio", domains: ["docs.python.org/3", "zhihu.cn"], excludeDomains: [] },
		},
		{
			description: "leaves quoted phrases and bare operators alone",
			query: '"site:example.com is down" site: -site: insite:x.com',
			expected: { query: '"site:example.com is down" site: -site: insite:x.com', domains: [], excludeDomains: [] },
		},
		{
			description: "lists each domain once and collapses spacing",
			query: "  a   site:x.com  b site:X.com site:x.com ",
			expected: { query: "a b", domains: ["x.com", "X.com"], excludeDomains: [] },
		},
		{
			description: "handles an empty query",
			query: "",
			expected: { query: "", domains: [], excludeDomains: [] },
		},
	];
	for (const row of rows) {
		it(row.description, () => {
			expect(extractSiteOperators(row.query)).toEqual(row.expected);
		});
	}

	it("never leaves an operator token in the query and keeps every other word in order", () => {
		const word = fc.stringMatching(/^[a-z0-9.:-]{1,8}$/);
		const token = fc.oneof(
			word,
			fc
				.tuple(fc.constantFrom("site:", "-site:", "SITE:", "-Site:"), fc.stringMatching(/^[a-z]{1,6}\.[a-z]{2,3}$/))
				.map(([op, host]) => op + host),
		);
		fc.assert(
			fc.property(fc.array(token, { maxLength: 8 }), (tokens) => {
				const result = extractSiteOperators(tokens.join(" "));
				const words = tokens.filter((t) => !/^-?site:./i.test(t));
				expect(result.query).toBe(words.join(" "));
				const count = tokens.length - words.length;
				expect(result.domains.length + result.excludeDomains.length).toBeLessThanOrEqual(count);
				expect(extractSiteOperators(result.query).query).toBe(result.query);
			}),
			{ numRuns: 300 },
		);
	});

	it("gives every query the same result as tokenising it (quotes, tabs, runs of spaces, Unicode spaces)", () => {
		// The slow reference: split into phrase/word tokens, drop operator tokens, join the rest by single spaces.
		const isOperator = (token: string) => {
			const value = /^-?site:(.+)$/i.exec(token)?.[1];
			if (value === undefined) return false;
			const unquoted = value.length > 1 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
			return unquoted.replace(/^https?:\/\//i, "") !== "";
		};
		const reference = (query: string) => (query.match(/"[^"]*"|\S+/g) ?? []).filter((t) => !isOperator(t)).join(" ");
		const piece = fc.constantFrom(
			"a",
			"b",
			"x.com",
			" ",
			"  ",
			"\t",
			"\n",
			"\u00a0",
			'"',
			"site:",
			"-site:",
			"SITE:y",
			"https://",
		);
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
				const query = pieces.join("");
				expect(extractSiteOperators(query).query).toBe(reference(query));
			}),
			{ numRuns: 500 },
		);
	});
});
