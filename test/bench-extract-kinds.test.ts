// The non-article dev set kept in bench/fixtures/extract-kinds/ is what bench/extract-kinds-corpus.ts generates (so
// a change to the generator without a new run shows up), and the "extract-kinds" scenario scores every kind in it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { benchExtractKinds } from "../bench/extract-kinds.ts";
import { generateKinds, KIND_LIST, KINDS_DIR, PAGES_PER_KIND } from "../bench/extract-kinds-corpus.ts";

describe("the extract-kinds dev set", () => {
	it("is kept as the generator makes it: the same annotations and the same pages", () => {
		const kept = JSON.parse(readFileSync(join(KINDS_DIR, "annotations.json"), "utf8")) as Record<string, object>;
		const made = generateKinds();
		expect(Object.keys(kept).sort()).toEqual(made.map((p) => p.name).sort());
		for (const page of made) {
			expect(kept[page.name]).toEqual({ url: page.url, kind: page.kind, with: page.with, without: page.without });
			expect(gunzipSync(readFileSync(join(KINDS_DIR, "html", page.name))).toString("utf8")).toBe(page.html);
		}
	});

	it("is scored per kind, ours against Readability, with how many pages were read as their kind", async () => {
		const report = await benchExtractKinds();
		expect(Object.keys(report.numbers).sort()).toEqual([...KIND_LIST].sort());
		for (const figures of Object.values(report.numbers)) {
			expect(figures.pages).toBe(PAGES_PER_KIND);
			expect(figures.ours.f1).toBeGreaterThanOrEqual(0);
			expect(figures.readability.f1).toBeLessThanOrEqual(1);
		}
		expect(report.notes).toHaveLength(KIND_LIST.length);
	});
});
