// What the markdown renderer (providers/direct/markdown.ts) does per line beside writing it: a line of one cell,
// heading or paragraph is written without a regex replace when no pattern could change it (counted calls), and the
// marker escapes it writes are the ones the line-start pattern gives (an oracle over generated lines).

import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { parseFragment } from "../providers/direct/dom.ts";
import { renderTree } from "../providers/direct/markdown.ts";
import { regexCalls } from "./helpers/regex-calls.ts";

const render = (body: string, format: "markdown" | "text" = "markdown") =>
	renderTree(parseFragment(body).body, { format, links: "none" }).text;

/** What the renderer escapes at a line's start, as its pattern says (the slow oracle). */
const escapedByPattern = (line: string) =>
	line.replace(/^(#{1,6} |>|[-+*] |\d+)([.)] )?/gm, (all, lead: string, dot?: string) =>
		dot || !/^\d/.test(lead) ? `\\${all}` : all,
	);

describe("rendering a table of numbers", () => {
	const rows = Array.from({ length: 50 }, (_, i) => `<tr><td>${i + 1}</td><td>${i * 2} s</td><td>Item ${i}</td></tr>`);
	const table = `<table><tr><th>Attempt</th><th>Delay</th><th>Name</th></tr>${rows.join("")}</table>`;

	it("writes each one-line cell, row and list item with no regex replace that could not change it", async () => {
		const list = `<ol>${Array.from({ length: 50 }, (_, i) => `<li>Step ${i}</li>`).join("")}</ol>`;
		let markdown = "";
		const calls = await regexCalls(Symbol.replace, () => {
			markdown = render(table + list);
		});
		expect(markdown).toContain("| 50 | 98 s | Item 49 |");
		expect(markdown).toContain("50. Step 49");
		// The marker escape, a cell's line-break join, its pipe escape, a row's padding trim, an item's indent.
		const patterns = ["^(#{1,6} ", String.raw`\s*\n\s*`, String.raw`\|`, String.raw` {2,}\|`, String.raw`\n`];
		expect(calls.filter((call) => patterns.some((pattern) => call.source.startsWith(pattern)))).toEqual([]);
	});

	it("still escapes a cell or paragraph that reads as a list item and a cell's pipe, and joins a cell's lines", () => {
		const markdown = render(
			`<table><tr><td>1. First</td><td>a<br>b</td><td>x|y</td></tr><tr><td>2</td><td>- x</td></tr></table><p>3) three</p><p># Title</p><ul><li>one<br>two</li><li><p>p</p><p>q</p></li></ul>`,
		);
		expect(markdown).toBe(
			"| \\1. First | a b | x\\|y |\n| --- | --- | --- |\n| 2 | \\- x | |\n\n\\3) three\n\n\\# Title\n\n- one\n  two\n- p\n  q",
		);
	});
});

describe("rendering paragraphs", () => {
	it("looks each element's tag up once among the block renderers", () => {
		const paragraphs = Array.from(
			{ length: 30 },
			(_, i) => `<p>Text ${i} with <a href="/a${i}">a link</a>, <em>stress</em> and <code>code</code>.</p>`,
		);
		const page = parseFragment(`<div>${paragraphs.join("")}</div>`);
		const original = Map.prototype.get;
		const has = Map.prototype.has;
		let lookups = 0;
		/** The renderers' table is the map that knows "blockquote" (markdown.ts BLOCK_RENDERERS). */
		const count = (map: Map<unknown, unknown>) => {
			if (has.call(map, "blockquote")) lookups++;
		};
		const spyGet = vi.spyOn(Map.prototype, "get").mockImplementation(function (this: Map<unknown, unknown>, key) {
			count(this);
			return original.call(this, key);
		});
		const spyHas = vi.spyOn(Map.prototype, "has").mockImplementation(function (this: Map<unknown, unknown>, key) {
			count(this);
			return has.call(this, key);
		});
		let markdown = "";
		try {
			markdown = renderTree(page.body, { format: "markdown", links: "references" }).text;
		} finally {
			spyGet.mockRestore();
			spyHas.mockRestore();
		}
		expect(markdown).toContain("Text 29 with [a link][30], _stress_ and `code`.");
		// The div, 30 paragraphs and 90 inline elements.
		expect(lookups).toBe(1 + 30 + 90);
	});
});

describe("line-start escapes", () => {
	it("escapes a one-line paragraph exactly where the line-start pattern does", () => {
		const start = fc.constantFrom(
			"#",
			"##",
			"#######",
			">",
			"-",
			"+",
			"*",
			"1",
			"12",
			"2024",
			".",
			")",
			" ",
			"a",
			"\u00e9",
		);
		const line = fc
			.array(start, { minLength: 1, maxLength: 5 })
			.map((parts) => `${parts.join("")} tail`.trim())
			.filter((text) => text !== "" && !/^\s/.test(text));
		fc.assert(
			fc.property(line, (text) => {
				const escaped = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
				const written = render(`<p>${escaped}</p>`);
				expect(written).toBe(escapedByPattern(text.replace(/ {2,}/g, " ")));
			}),
			{ numRuns: 400 },
		);
	});
});
