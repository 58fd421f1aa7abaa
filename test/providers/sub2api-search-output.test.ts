// The Codex `output` text reader: blocks and metadata from the fixtures, numbered lines, citation markers,
// failure texts and relative ages (tables with a fixed "now").

import { describe, expect, it } from "vitest";
import {
	contiguousLines,
	inBandFailure,
	pageText,
	parseCodexOutput,
	relativeAgeToDate,
	stripCitations,
} from "../../providers/sub2api-search/output.ts";
import { fixtureJson } from "../contract/provider-contract.ts";

function outputOf(name: string): string {
	return (fixtureJson(`sub2api-search/${name}.json`) as { output: string }).output;
}

describe("parseCodexOutput", () => {
	it("reads every search block with title, URL, ages and snippet", () => {
		const blocks = parseCodexOutput(outputOf("search_response"));
		expect(blocks.map((b) => [b.ref, b.title, b.url, b.published, b.crawled])).toEqual([
			[
				"turn0search0",
				"Widget Toolkit 4.2 release notes",
				"https://docs.example.org/widgets/releases/4.2",
				"3 days ago",
				"today",
			],
			[
				"turn0search1",
				"Migrating to Widget Toolkit 4",
				"https://blog.example.net/posts/widget-toolkit-4-migration",
				"2 months ago",
				"2 weeks ago",
			],
			["turn0search2", "Widget Toolkit API reference", "https://docs.example.org/widgets/api", undefined, "5 days ago"],
		]);
		expect(blocks[2]?.text).toBe("Complete reference for the Widget, Layout and Theme classes.");
	});

	it("reads page blocks: metadata, numbered lines from the window start, separators left out", () => {
		const [first, second] = parseCodexOutput(outputOf("open_response"));
		expect(first).toMatchObject({ crawled: "today", contentType: "text/html", totalLines: 212, text: "" });
		expect([...first!.lines.keys()]).toEqual(Array.from({ length: 17 }, (_, i) => 28 + i));
		expect(pageText(contiguousLines(first!.lines, 28)).split("\n").at(-1)).toBe(
			"Previous release: 4.1 | Next release: 4.3",
		);
		expect(second).toMatchObject({
			url: "https://docs.example.org/widgets/api",
			crawled: "5 days ago",
			totalLines: 96,
		});
		expect(pageText(contiguousLines(second!.lines))).toContain("three modules: Widget, Layout and Theme.");
	});

	it("keeps a URL with parentheses in the block header", () => {
		const output =
			"Foo (https://en.example.org/wiki/Foo_(bar))\n\ue200cite\ue202turn0search0\ue201 [wordlim: 200] Crawled: today; s";
		expect(parseCodexOutput(output)[0]).toMatchObject({
			title: "Foo",
			url: "https://en.example.org/wiki/Foo_(bar)",
			text: "s",
		});
	});
});

describe("inBandFailure", () => {
	it.each([
		{
			name: "error_200_invalid_ref_open",
			kind: "unresolved",
			text: "Unable to resolve open call due to invalid ref_id argument",
		},
		{
			name: "error_200_no_tool_response",
			kind: "arguments",
			text: "Found no tool response. This likely means the arguments you provided were not valid.",
		},
	])("classifies $name", ({ name, kind, text }) => {
		expect(inBandFailure(outputOf(name))).toEqual({ kind, text });
	});

	it("is undefined for real answers", () => {
		expect(inBandFailure(outputOf("search_response"))).toBeUndefined();
		expect(inBandFailure(outputOf("open_response"))).toBeUndefined();
	});
});

describe("stripCitations", () => {
	it("keeps the label of numbered links and drops reference markers", () => {
		expect(
			stripCitations(
				"See \ue200cite\ue2024\u2020migration guide\u2020blog.example.net\ue201 now \ue200cite\ue202turn0search1\ue201.",
			),
		).toBe("See migration guide now .");
	});
});

describe("relativeAgeToDate", () => {
	const now = new Date("2026-03-10T12:00:00Z");
	it.each([
		{ age: "today", expected: "2026-03-10" },
		{ age: "yesterday", expected: "2026-03-09" },
		{ age: "5 days ago", expected: "2026-03-05" },
		{ age: "2 weeks ago", expected: "2026-02-24" },
		{ age: "a month ago", expected: "2026-02-08" },
		{ age: "last year", expected: "2025-03-10" },
		{ age: "1.7 years ago", expected: "2024-06-27" },
		{ age: "3 hours ago", expected: "2026-03-10" },
		{ age: "recently", expected: undefined },
	])("$age → $expected", ({ age, expected }) => {
		expect(relativeAgeToDate(age, now)).toBe(expected);
	});
});
