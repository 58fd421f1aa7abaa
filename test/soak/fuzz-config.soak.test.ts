// Config fuzzing, soak variant (`npm run soak`): 100,000 mutated configs per SOAK round with longer strings and deeper
// nesting, from a fresh seed each run (fast-check prints it on failure); the fast variant is test/fuzz-config.test.ts.

import fc from "fast-check";
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { configTextArb } from "../helpers/config-arbitraries.ts";
import { checkConfigText } from "../helpers/config-fuzz.ts";

const rounds = Math.max(1, Number.parseInt(process.env.SOAK ?? "", 10) || 1);
const RUNS = 100_000 * rounds;

describe.skipIf(!process.env.SOAK)("config fuzzing soak", () => {
	let fuzzed = 0;
	beforeAll(() => {
		vi.spyOn(console, "warn").mockImplementation(() => {}); // json5's U+2028 notices
	});
	afterAll(() => {
		vi.restoreAllMocks();
		console.log(`soak fuzz-config: ${fuzzed} configs fuzzed`);
	});

	it(
		`keeps every invariant over ${RUNS} mutated configs`,
		() => {
			fc.assert(
				fc.property(configTextArb({ longChars: 20_000, maxDepth: 400 }), (text) => {
					fuzzed++;
					checkConfigText(text);
				}),
				{ numRuns: RUNS },
			);
		},
		3_600_000 * rounds,
	);
});
