// Fault matrix, soak variant (`npm run soak`): the megabyte-sized faults (a body streamed past the 10 MB cap, a gzip
// bomb) on every provider type × capability, where `npm test` runs them on one row per body reader. SOAK=<n> repeats
// the run n times, so leftovers that only build up over many cases show too.

import { describe } from "vitest";
import { describeFaultMatrix, HEAVY_FAULTS } from "../helpers/fault-matrix-run.ts";

const rounds = Math.max(1, Number.parseInt(process.env.SOAK ?? "", 10) || 1);

describe.skipIf(!process.env.SOAK)("fault matrix soak", () => {
	for (let round = 1; round <= rounds; round++) {
		describeFaultMatrix(`fault matrix soak, round ${round} of ${rounds}`, { faults: [...HEAVY_FAULTS] });
	}
});
