// The interval bench/overhead.ts gives its paired medians (bench/stats.ts medianInterval): it holds the median the
// rounds are drawn around in at least 95 runs of 100, a few rounds disturbed on one side widen it little and do not
// carry it away, and more rounds narrow it. Simulated rounds from a seeded generator; no timing.

import { describe, expect, it } from "vitest";
import { createRandom, medianInterval } from "../bench/stats.ts";

/** A standard normal draw (Box–Muller) from `random`. */
function normal(random: () => number): number {
	return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** One run's round ratios: log-normal around `centre`, a share of them disturbed (one side slowed `wild` times). */
function rounds(random: () => number, count: number, centre: number, disturbed = 0, wild = 3): number[] {
	return Array.from({ length: count }, () => {
		const ratio = centre * Math.exp(0.15 * normal(random));
		if (random() >= disturbed) return ratio;
		return random() < 0.5 ? ratio * wild : ratio / wild;
	});
}

describe("the interval of the overhead's paired medians", () => {
	it("holds the median the rounds are drawn around in at least 95 runs of 100, disturbed rounds or not", () => {
		const random = createRandom(11);
		for (const disturbed of [0, 0.15]) {
			let held = 0;
			for (let run = 0; run < 400; run++) {
				const { low, high } = medianInterval(rounds(random, 40, 1.2, disturbed));
				if (low <= 1.2 && 1.2 <= high) held++;
			}
			expect(held / 400).toBeGreaterThanOrEqual(0.94);
		}
	});

	it("is not carried away by a few rounds another process disturbed on one side", () => {
		const random = createRandom(31);
		const ratios = [...rounds(random, 34, 1.2), 4, 4.5, 5, 6, 4, 5];
		const { median, low, high } = medianInterval(ratios);
		expect(median).toBeGreaterThan(1.1);
		expect(median).toBeLessThan(1.35);
		expect(high).toBeLessThan(1.5);
		expect(low).toBeGreaterThan(1);
	});

	it("narrows with more rounds, and spans every value when there are too few to say more", () => {
		const random = createRandom(5);
		const width = (count: number) => {
			const { low, high } = medianInterval(rounds(random, count, 1.2));
			return high - low;
		};
		expect(width(160)).toBeLessThan(width(20));
		expect(medianInterval([3, 1, 2])).toEqual({ median: 2, low: 1, high: 3 });
		expect(medianInterval([])).toMatchObject({ median: Number.NaN });
	});

	it("takes as its ends the order statistics the binomial distribution gives (40 rounds: the 14th from each end)", () => {
		const values = Array.from({ length: 40 }, (_, i) => i + 1);
		expect(medianInterval(values)).toEqual({ median: 20, low: 14, high: 27 });
	});
});
