// thousands() groups digits exactly as toLocaleString("en-US") does, without loading ICU at start-up.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { thousands } from "../engine/thousands.ts";

describe("thousands", () => {
	it("groups digits by three with commas", () => {
		expect([0, -0, 7, 999, 1000, 16594, 100000, 1234567, -1000].map(thousands)).toEqual([
			"0",
			"-0",
			"7",
			"999",
			"1,000",
			"16,594",
			"100,000",
			"1,234,567",
			"-1,000",
		]);
	});

	it("matches toLocaleString('en-US') for every safe integer and for other numbers", () => {
		fc.assert(
			fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.constant(-0), fc.double()), (n) => {
				expect(thousands(n)).toBe(n.toLocaleString("en-US"));
			}),
			{ numRuns: 2000 },
		);
	});
});
