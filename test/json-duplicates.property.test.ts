// The loader's proof that strict JSON has no duplicate key and no nesting past the limit without scanning it
// (schema/json-duplicates.ts provenClean): it never claims a text clean that the full scan finds a repeat or too
// deep a nesting in, on generated texts built to trip it (repeats, keys and values that end in `":`, escapes,
// deep nesting), and it takes the shortcut for clean files such as the bench's generated config.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateConfig } from "../bench/generate.ts";
import { provenClean, scanJson } from "../schema/json-duplicates.ts";

const MAX = 6;
const word = fc.constantFrom("a", "b", "name", ":", '":', "x:", ' ":', "\\", '"', "é", "", "a b", "}", "[", ",");
const leaf = fc.oneof(word, fc.integer(), fc.boolean(), fc.constant(null));

/** JSON text of a random value, keys drawn from few words so repeats happen; `dup` writes a key twice. */
const text: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
	value: fc.oneof(
		{ depthSize: "small", withCrossShrink: true },
		leaf.map((v) => JSON.stringify(v)),
		fc.array(tie("value"), { maxLength: 3 }).map((items) => `[${items.join(",")}]`),
		fc
			.array(fc.tuple(word, tie("value"), fc.boolean()), { maxLength: 3 })
			.map(
				(members) =>
					`{${members.flatMap(([k, v, dup]) => (dup ? [`${JSON.stringify(k)}:${v}`, `${JSON.stringify(k)} : 1`] : [`${JSON.stringify(k)}:${v}`])).join(",")}}`,
			),
	),
})).value;

describe("provenClean", () => {
	it("never calls a text clean that the scan finds a repeated key or too deep a nesting in", () => {
		let proven = 0;
		fc.assert(
			fc.property(text, fc.integer({ min: 0, max: 3 }), (json, wrap) => {
				const wrapped = `${"[".repeat(wrap)}${json}${"]".repeat(wrap)}`;
				const value: unknown = JSON.parse(wrapped);
				const scan = scanJson(wrapped, MAX);
				if (provenClean(wrapped, value, MAX)) {
					proven++;
					expect(scan.duplicates).toEqual([]);
					expect(scan.tooDeepAt).toBeUndefined();
				}
			}),
			{ numRuns: 3000 },
		);
		expect(proven).toBeGreaterThan(300); // the property is not vacuous
	});

	it("proves the bench's generated 1,000-rule file clean, and sees a repeat or a nesting past the limit", () => {
		const clean = JSON.stringify(generateConfig(1000, 4242).raw, null, "\t");
		expect(provenClean(clean, JSON.parse(clean), 100)).toBe(true);
		const repeated = clean.replace('"name": "rule-7",', '"name": "rule-7", "name": "rule-7b",');
		expect(repeated).not.toBe(clean);
		expect(provenClean(repeated, JSON.parse(repeated), 100)).toBe(false);
		expect(provenClean("[[[1]]]", [[[1]]], 3)).toBe(true);
		expect(provenClean("[[[[1]]]]", [[[[1]]]], 3)).toBe(false);
		expect(provenClean('{"a":[{}]}', { a: [{}] }, 2)).toBe(false);
	});
});
