// Main-content extraction on saved pages written for it (test/fixtures/pages/): each kind of boilerplate a news
// page carries is dropped inside and around the article, a short article stays short instead of becoming the whole
// page, and title, author and published date come from the page's metadata.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";

const PAGES = join(import.meta.dirname, "fixtures", "pages");
const BASE = "https://ledger.example/news/2026/skerry";
const page = (name: string) => readFileSync(join(PAGES, name), "utf8");

describe("boilerplate removal", () => {
	it("keeps the article's title, paragraphs, headings and list, and drops every kind of chrome", async () => {
		const result = await htmlToMarkdown(page("boilerplate-news.html"), BASE);
		const md = result.markdown;
		expect(result.mainContent).toBe(true);
		expect(md.startsWith("# Lighthouse keepers return to Skerry Point\n")).toBe(true);
		expect(md).toContain("For the first time in forty years, the lamp room at Skerry Point");
		expect(md).toContain("## A routine that has barely changed");
		expect(md).toContain("- Fog signal wound at dawn and at dusk;");
		expect(md).toContain("with tickets from the harbour office.");
		expect(md).toContain("![The white tower at dusk][1]");
		for (const chrome of [
			"We use cookies", // cookie note
			"Sport", // navigation
			"Share on Social", // share bar
			"Email this story",
			"Archive Pictures Agency", // image credit in the caption
			"weekly newsletter", // newsletter box
			"Related stories", // related list and its heading
			"Seal pups counted",
			"my grandfather kept this light", // comments
			"Most read", // sidebar
			"All rights reserved", // footer
			"14 March 2026", // byline and date line
		]) {
			expect(md, chrome).not.toContain(chrome);
		}
	});

	it("keeps a short article short: no whole-page fallback, navigation and teaser lists left out", async () => {
		const result = await htmlToMarkdown(page("short-article.html"), BASE);
		expect(result.mainContent).toBe(true);
		expect(result.markdown).toBe(
			"# Council delays harbour vote\n\nThe harbour committee postponed its vote on the new breakwater until May, after residents asked for a second survey of the seabed.",
		);
	});

	it("reads title, author and published date from JSON-LD first, then meta tags", async () => {
		const news = await htmlToMarkdown(page("boilerplate-news.html"), BASE);
		expect([news.title, news.author, news.publishedAt]).toEqual([
			"Lighthouse keepers return to Skerry Point | The Coastal Ledger",
			"Ines Marrow, Tomas Reeve",
			"2026-03-14T08:30:00.000Z",
		]);
		const short = await htmlToMarkdown(page("short-article.html"), BASE);
		expect([short.author, short.publishedAt]).toEqual(["Tomas Reeve", "2026-04-02T18:00:00.000Z"]);
		const none = await htmlToMarkdown("<p>No metadata here.</p>", BASE);
		expect([none.title, none.author, none.publishedAt]).toEqual([undefined, undefined, undefined]);
	});

	it("renders the same article as plain text with format text: no marks, no link targets", async () => {
		const { markdown } = await htmlToMarkdown(page("boilerplate-news.html"), BASE, { format: "text" });
		expect(markdown).toContain("Lighthouse keepers return to Skerry Point\n\nFor the first time");
		expect(markdown).toContain("A routine that has barely changed");
		expect(markdown).not.toMatch(/\[\d+\]|\]\(|^#/m);
	});
});
