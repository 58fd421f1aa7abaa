// Doubao keys from the environment (DOUBAO_SEARCH_API_KEYS with billing prefixes, else DOUBAO_SEARCH_API_KEY):
// a table of the documented forms plus a fast-check property that labels never carry a key.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDoubaoKeyEnv } from "../../providers/doubao/facts.ts";

describe("parseDoubaoKeyEnv", () => {
	it.each([
		{ description: "nothing set", env: {}, expected: [] },
		{
			description: "the single-key variable",
			env: { DOUBAO_SEARCH_API_KEY: " k1 " },
			expected: [{ secret: "k1", billing: "postpaid", label: "env1" }],
		},
		{
			description: "unprefixed keys are postpaid",
			env: { DOUBAO_SEARCH_API_KEYS: "k1,k2" },
			expected: [
				{ secret: "k1", billing: "postpaid", label: "env1" },
				{ secret: "k2", billing: "postpaid", label: "env2" },
			],
		},
		{
			description: "billing prefixes, spaces, empty entries and duplicates",
			env: { DOUBAO_SEARCH_API_KEYS: "postpaid:k1, subscription: k2,,Subscription:k3 ,k1" },
			expected: [
				{ secret: "k1", billing: "postpaid", label: "env1" },
				{ secret: "k2", billing: "subscription", label: "env2" },
				{ secret: "k3", billing: "subscription", label: "env3" },
			],
		},
		{
			description: "the list wins over the single key",
			env: { DOUBAO_SEARCH_API_KEYS: "subscription:k2", DOUBAO_SEARCH_API_KEY: "k1" },
			expected: [{ secret: "k2", billing: "subscription", label: "env1" }],
		},
		{
			description: "an empty list falls back to the single key",
			env: { DOUBAO_SEARCH_API_KEYS: " , ", DOUBAO_SEARCH_API_KEY: "k1" },
			expected: [{ secret: "k1", billing: "postpaid", label: "env1" }],
		},
		{
			description: "a prefix without a key is no key",
			env: { DOUBAO_SEARCH_API_KEYS: "subscription:,postpaid: " },
			expected: [],
		},
		{
			description: "an unknown prefix is part of the key",
			env: { DOUBAO_SEARCH_API_KEYS: "team:abc" },
			expected: [{ secret: "team:abc", billing: "postpaid", label: "env1" }],
		},
	])("$description", ({ env, expected }) => {
		expect(parseDoubaoKeyEnv(env)).toEqual(expected);
	});

	it("keeps every distinct key once, in order, with labels env1..envN that never contain a key", () => {
		const secret = fc.stringMatching(/^[A-Za-z0-9_-]{8,24}$/);
		const entry = fc.record({ secret, prefix: fc.constantFrom("", "postpaid:", "subscription:", "SUBSCRIPTION: ") });
		fc.assert(
			fc.property(fc.array(entry, { maxLength: 8 }), (entries) => {
				const env = { DOUBAO_SEARCH_API_KEYS: entries.map((e) => `${e.prefix}${e.secret}`).join(",") };
				const keys = parseDoubaoKeyEnv(env);
				const distinct = [...new Set(entries.map((e) => e.secret))];
				expect(keys.map((key) => key.secret)).toEqual(distinct);
				keys.forEach((key, index) => {
					expect(key.label).toBe(`env${index + 1}`);
					const first = entries.find((e) => e.secret === key.secret)!;
					expect(key.billing).toBe(
						first.prefix.trim() === "" ? "postpaid" : first.prefix.trim().slice(0, -1).toLowerCase(),
					);
					for (const other of keys) expect(key.label.includes(other.secret)).toBe(false);
				});
			}),
		);
	});
});
