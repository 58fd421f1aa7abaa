// A recipe's ingredient list in a box of its own beside the steps: its short lines weigh nothing as prose, so the
// main content alone would leave it out; a box named as ingredients comes along, in document order. A page of many
// such boxes (recipe cards) is teasers, and none is taken. An article's standfirst in the header above its text comes
// along too, before it.

import { describe, expect, it } from "vitest";
import { BESIDE_DEFAULTS } from "../providers/direct/beside-content.ts";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";

const STEPS = Array.from(
	{ length: 5 },
	(_, i) => `<p>Step ${i + 1}: stir the dough gently, then let it rest for ten minutes before you go on.</p>`,
).join("");
const box = (n: number) =>
	`<div class="recipe-ingredients"><h3>Ingredients ${n}</h3><ul><li>250 g flour</li><li>2 eggs</li><li>1 pinch salt</li></ul></div>`;
const page = (boxes: string) => `<html><head><title>Muffins</title></head><body>
<nav><a href="/">Home</a> <a href="/recipes">Recipes</a></nav>
<div class="layout"><div class="side">${boxes}</div><div class="main"><h2>Preparation</h2>${STEPS}</div></div>
<footer>© Bakery</footer></body></html>`;

describe("blocks beside the main content", () => {
	it("keeps an ingredient box that sits beside the steps, before them as on the page", async () => {
		const { markdown } = await htmlToMarkdown(page(box(1)), "https://bakery.example/muffins");
		expect(markdown).toContain("### Ingredients 1\n\n- 250 g flour\n- 2 eggs\n- 1 pinch salt");
		expect(markdown.indexOf("Ingredients 1")).toBeLessThan(markdown.indexOf("Step 1"));
		expect(markdown).toContain("Step 5: stir the dough");
		expect(markdown).not.toContain("Bakery");
	});

	it("takes no box when there are more than a few (a page of recipe cards)", async () => {
		const many = Array.from({ length: BESIDE_DEFAULTS.maxBlocks + 1 }, (_, i) => box(i + 1)).join("");
		const { markdown } = await htmlToMarkdown(page(many), "https://bakery.example/muffins");
		expect(markdown).toContain("Step 5: stir the dough");
		expect(markdown).not.toContain("250 g flour");
	});

	it("keeps the standfirst under the title, above the article's text, and nothing else from the header", async () => {
		const deck = "Keepers return to the lamp room after forty years, and the town counts the days to the first night.";
		const body = Array.from(
			{ length: 4 },
			(_, i) => `<p>Paragraph ${i + 1}: the lamp room was cleaned, the lens polished and the log opened again.</p>`,
		).join("");
		const html = `<html><head><title>Skerry Point</title></head><body><nav><a href="/">Home</a></nav>
<article><header><h1>Skerry Point</h1><p class="byline">By Ada Example</p><h2 class="article-deck">${deck}</h2></header>
<div class="story-text">${body}</div></article><footer>© Ledger</footer></body></html>`;
		const { markdown } = await htmlToMarkdown(html, "https://ledger.example/skerry");
		expect(markdown).toContain(deck);
		expect(markdown.indexOf(deck)).toBeLessThan(markdown.indexOf("Paragraph 1"));
		expect(markdown).toContain("Paragraph 4");
		expect(markdown).not.toContain("Ada Example");
	});
});
