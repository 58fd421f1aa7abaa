// Every example config loads with no diagnostics (examples are documentation that must stay true).

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../schema/load.ts";

const dir = join(import.meta.dirname, "..", "examples");
const files = readdirSync(dir).filter((f) => f.endsWith(".json5") || f.endsWith(".json"));

describe("examples", () => {
	it("there are at least the seed layout, a Chinese-first set-up and a minimal file", () => {
		expect(files).toEqual(expect.arrayContaining(["seed-layout.json5", "chinese-first.json5", "minimal.json5"]));
	});
	for (const file of files) {
		it(`${file} loads with no diagnostics`, () => {
			const loaded = loadConfig({ explicit: join(dir, file), env: {} });
			expect(loaded.diagnostics).toEqual([]);
			expect(loaded.usable).toBe(true);
			expect(loaded.config.providers.length).toBeGreaterThan(0);
		});
	}
});
