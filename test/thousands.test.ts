// thousands() groups digits exactly as toLocaleString("en-US") does, without loading ICU at start-up.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatBytes, thousands } from "../engine/thousands.ts";

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

describe("formatBytes", () => {
	it("says a size in whole KB, rounded up so a non-empty size never reads 0 KB, and in tenths of MB from 1 MB", () => {
		expect(
			[0, 1, 1024, 1025, 20_000, 1024 * 1024 - 1, 1024 * 1024, 4_000_000, 64 * 1024 * 1024].map(formatBytes),
		).toEqual(["0 KB", "1 KB", "1 KB", "2 KB", "20 KB", "1024 KB", "1 MB", "3.8 MB", "64 MB"]);
	});
});
