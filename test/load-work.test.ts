// What loading a big config does beside its result: the work a first load in a fresh process pays per rule and per
// site pattern, guarded by what it leaves behind (bench/load-first.ts times it).

import { describe, expect, it } from "vitest";
import { generateConfig } from "../bench/generate.ts";
import { parseSitePattern } from "../engine/sites.ts";
import { loadConfigText } from "../schema/load.ts";

describe("loading a big config", () => {
	it("leaves the memo of requests' site patterns as it was: a config's patterns are parsed once, not memoised", () => {
		const domain = parseSitePattern("docs.example.org/guide");
		// 20,000 patterns: more than the memo holds, so memoising them would evict every earlier entry.
		const text = JSON.stringify(generateConfig(4000, 99).raw);
		const loaded = loadConfigText(text, "big.json");
		expect(loaded.diagnostics).toEqual([]);
		expect(loaded.config.rules).toHaveLength(4002);
		expect(parseSitePattern("docs.example.org/guide")).toBe(domain);
	});
});
