// A recipe's ingredient list in a box of its own beside the steps: its short lines weigh nothing as prose, so the
// main content alone would leave it out; a box named as ingredients comes along, in document order. A page of many
// such boxes (recipe cards) is teasers, and none is taken.

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
});
