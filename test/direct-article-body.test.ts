// JSON-LD `articleBody` as a check on the main content chosen from the tree (providers/direct/article-body.ts,
// extract.ts): a choice that holds little of it is widened to the box that holds it, blocks it holds are kept from
// the trailing-line and label passes, link lists go even when a site put them into it, and a body written as HTML
// (or as HTML escaped once more) is read as its text.

import { describe, expect, it } from "vitest";
import { convertHtml } from "../providers/direct/extract-page.ts";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";

const BASE = "https://kitchen.example/soup";
const para = (topic: string, n: number) =>
	Array.from(
		{ length: n },
		(_, i) => `The ${topic} was simmered for the ${i + 1}. time, and the kitchen smelled of it.`,
	).join(" ");
const STORY = [para("barley", 3), para("leek", 3)];
const NOTE = para("editor's note on the old stove", 4);
const STEPS = Array.from({ length: 14 }, (_, i) => `Stir the pot gently for round ${i + 1} now`);
const menu = `<nav><ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="/r${i}">Recipes ${i}</a></li>`).join("")}</ul></nav>`;

const ld = (articleBody: string | undefined) =>
	articleBody === undefined
		? ""
		: `<script type="application/ld+json">${JSON.stringify({ "@type": "Article", headline: "Barley soup", articleBody })}</script>`;
const page = (articleBody: string | undefined, content: string) =>
	`<html><head><title>Barley soup</title>${ld(articleBody)}</head><body>${menu}${content}<footer><p>Kitchen Example, all rights reserved</p></footer></body></html>`;

/** The story's prose and a note in one box, the steps (short lines, weight 0 each) in the box beside it. */
const split = (articleBody: string | undefined) =>
	page(
		articleBody,
		`<div class="recipe"><div class="story">${STORY.map((p) => `<p>${p}</p>`).join("")}<p>${NOTE}</p></div>` +
			`<div class="steps">${STEPS.map((step) => `<p>${step}</p>`).join("")}</div></div>`,
	);

describe("JSON-LD articleBody confirms or extends the chosen content", () => {
	it("widens a choice that holds under half of articleBody to the box that holds it", async () => {
		const declared = [...STORY, ...STEPS].join("\n");
		const without = await htmlToMarkdown(split(undefined), BASE);
		expect(without.markdown).toContain("leek was simmered");
		expect(without.markdown).not.toContain("round 7");
		const { markdown } = await htmlToMarkdown(split(declared), BASE);
		for (const step of STEPS) expect(markdown).toContain(step);
		// Read from the tree, not replaced by articleBody's text: the note it lacks is still there.
		expect(markdown).toContain("editor's note");
		expect(markdown).not.toContain("Recipes 3");
	});

	it("keeps a closing line articleBody holds, and still drops a sign-off it does not", async () => {
		const closing = "Serves four with warm bread and a green salad";
		const content = `<article>${STORY.map((p) => `<p>${p}</p>`).join("")}<p>${closing}</p><p>Share this recipe with friends</p></article>`;
		// Without the block model the trailing lines' pass decides alone: it drops the closing line, no sentence.
		const alone = { model: null };
		expect(convertHtml(page(undefined, content), BASE, {}, alone).markdown).not.toContain(closing);
		const { markdown } = convertHtml(page([...STORY, closing].join("\n\n"), content), BASE, {}, alone);
		expect(markdown).toContain(closing);
		expect(markdown).not.toContain("Share this recipe");
		// The committed model judges the closing line content and the share prompt the site's own words.
		const judged = (await htmlToMarkdown(page(undefined, content), BASE)).markdown;
		expect(judged).toContain(closing);
		expect(judged).not.toContain("Share this recipe");
	});

	it("reads an articleBody a site wrote as HTML, or as HTML escaped once more, as its text", async () => {
		const teaser = `<article><p>The barley soup, in short.</p></article>`;
		const html = STORY.map((p) => `<p>${p.replace("barley", "<strong>barley</strong>")} &quot;Good.&quot;</p>`).join(
			"",
		);
		for (const declared of [html, html.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")]) {
			const { markdown } = await htmlToMarkdown(page(declared, teaser), BASE);
			// The declared body is over twice the text shown, so it is what the page reads as (extract-page.ts).
			expect(markdown).toContain(`${STORY[0]} "Good."\n\n${STORY[1]}`);
			expect(markdown).not.toMatch(/<p>|&quot;|&lt;|&amp;|strong/);
		}
	});

	it("drops a list of related links even when the site put it into articleBody", async () => {
		const related = ["Leek and potato soup", "Barley salad with herbs", "Onion soup the old way"];
		const list = `<ul>${related.map((title, i) => `<li><a href="/more/${i}">${title}</a></li>`).join("")}</ul>`;
		const content = `<article>${STORY.map((p) => `<p>${p}</p>`).join("")}${list}</article>`;
		const { markdown } = await htmlToMarkdown(page([...STORY, ...related].join("\n"), content), BASE);
		expect(markdown).toContain("leek was simmered");
		for (const title of related) expect(markdown).not.toContain(title);
	});
});
