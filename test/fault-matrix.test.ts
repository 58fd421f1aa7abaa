// Fault matrix (fast variant): every provider type × capability against every fault a backend can throw at it,
// through the real stack; the megabyte-sized faults run on one row per body reader here and on every row in
// `npm run soak` (test/soak/fault-matrix.soak.test.ts). Plus the regressions the matrix found.

import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";
import { createSseParser } from "../providers/http/sse.ts";
import { describeFaultMatrix, HEAVY_FAULTS, HEAVY_SAMPLE_ROWS, ROWS } from "./helpers/fault-matrix-run.ts";
import { FAULTS, OVER_CAP_BYTES } from "./helpers/fault-rows.ts";

describeFaultMatrix("fault matrix", {
	faults: FAULTS,
	rowsFor: (fault) => (HEAVY_FAULTS.has(fault) ? ROWS.filter((row) => HEAVY_SAMPLE_ROWS.has(row.id)) : ROWS),
});

describe("regressions found by the fault matrix", () => {
	it("parses a 10 MB SSE line arriving in 64 KB chunks as one event (over-cap: the parser rescanned the whole line per chunk)", () => {
		const parser = createSseParser();
		const piece = "a".repeat(64 * 1024);
		const pieces = Math.ceil(OVER_CAP_BYTES / piece.length);
		expect(parser.push("data: ")).toEqual([]);
		for (let i = 0; i < pieces; i++) expect(parser.push(piece)).toEqual([]);
		const events = parser.push("\r\n\r\n");
		expect(events.map((event) => event.data.length)).toEqual([pieces * piece.length]);
		// A chunk without a line end still completes a line whose "\r" ended the previous chunk.
		expect(parser.push("data: b\r")).toEqual([]);
		expect(parser.push("\r")).toEqual([]);
		expect(parser.push("x")).toEqual([{ data: "b" }]);
		expect(parser.end()).toEqual({ events: [], truncated: true });
	});

	it("converts pages that leave out their html/head/body tags (gzip-bomb on direct: such a page came out empty)", async () => {
		const bare = await htmlToMarkdown("<!doctype html><title>Bare</title><p>first para</p>\n<p>second para</p>");
		expect(bare).toMatchObject({ title: "Bare", markdown: "first para\n\nsecond para" });
		const noBody = await htmlToMarkdown("<html><head><title>T</title></head><p>only text</p></html>");
		expect(noBody).toMatchObject({ title: "T", markdown: "only text" });
		expect((await htmlToMarkdown("<p>bomb</p>\n".repeat(3))).markdown).toBe("bomb\n\nbomb\n\nbomb");
	});
});
