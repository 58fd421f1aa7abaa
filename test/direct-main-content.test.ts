// Main-content choice on small pages written for each rule (providers/direct/extract.ts, chrome-rules.ts): chrome
// named by class words, which of those words may also name the wrapper of a real article, and an embedded post
// quoted by the article (a tweet's blockquote) read as the article's.

import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";

const BASE = "https://paper.example/2026/story";
const sentence = (topic: string, n: number) =>
	Array.from({ length: n }, (_, i) => `The ${topic} report, part ${i + 1}, was read aloud at the town hall.`).join(" ");
const menu = `<nav><ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/s${i}">Section ${i}</a></li>`).join("")}</ul></nav>`;
/** Readers' comments and a sidebar with prose, so that the article holds under half of the page's text. */
const around = `<div class="comments"><p>${sentence("reader", 6)}</p></div><aside><p>${sentence("weather", 5)}</p></aside>`;
const page = (body: string) => `<html><head><title>Story</title></head><body>${menu}${body}${around}</body></html>`;

describe("chrome words inside and around the article", () => {
	it("keeps paragraphs whose wrappers are named like widgets, and drops a byline box inside the article", async () => {
		const widget = (text: string) =>
			`<div class="builder-widget builder-widget-text"><div class="widget-container"><p>${text}</p></div></div>`;
		const html = page(
			`<div class="builder-widget-wrap"><div class="entry-byline">By Ada Example, 3 May</div>${widget(sentence("harbour", 3))}${widget(sentence("ferry", 3))}${widget(sentence("lamp", 3))}</div>`,
		);
		const { markdown } = await htmlToMarkdown(html, BASE);
		for (const topic of ["harbour", "ferry", "lamp"]) expect(markdown).toContain(`The ${topic} report, part 3`);
		expect(markdown).not.toContain("Ada Example");
		expect(markdown).not.toContain("Section 3");
		expect(markdown).not.toContain("reader report");
	});

	it("keeps an article inside a container named for its paywall, and drops the paywall note", async () => {
		const html = page(
			`<article class="story paywall-container"><div class="story-text"><p>${sentence("budget", 4)}</p><p>${sentence("council", 4)}</p></div><p class="paywall-note">Subscribers read more. Join from one dollar a week, today.</p></article>`,
		);
		const { markdown } = await htmlToMarkdown(html, BASE);
		expect(markdown).toContain("The budget report, part 4");
		expect(markdown).toContain("The council report, part 4");
		expect(markdown).not.toContain("Subscribers read more");
	});

	it("reads a negation before a chrome word (`non-paywall`) and a state (`promoted`) as no box", async () => {
		const html = page(
			`<article class="node node--promoted"><p class="text non-paywall">${sentence("river", 5)}</p><p>${sentence("bridge", 3)}</p></article><div class="promo-box"><p>${sentence("discount", 1)}</p></div>`,
		);
		const { markdown } = await htmlToMarkdown(html, BASE);
		expect(markdown).toContain("The river report, part 5");
		expect(markdown).toContain("The bridge report, part 3");
		expect(markdown).not.toContain("discount");
	});
});

describe("elements named as the article", () => {
	it("prefers the one <article> to its container when prose beside it weighs less than the article", async () => {
		const html = page(
			`<div class="layout"><article><p>${sentence("tide", 4)}</p><p>${sentence("storm", 2)}</p></article><div class="box"><p>${sentence("lottery", 4)}</p></div></div>`,
		);
		const { markdown } = await htmlToMarkdown(html, BASE);
		expect(markdown).toContain("The storm report, part 2");
		expect(markdown).not.toContain("lottery");
	});

	it("keeps several sibling <article> blocks together: parts of one page, none of them the article", async () => {
		const html = page(
			`<div class="layout"><article><p>${sentence("tide", 4)}</p></article><article><p>${sentence("storm", 3)}</p></article></div>`,
		);
		const { markdown } = await htmlToMarkdown(html, BASE);
		expect(markdown).toContain("The tide report, part 4");
		expect(markdown).toContain("The storm report, part 3");
	});

	it("gives no preference to a paragraph named `article`: the article is a container of blocks", async () => {
		const html = page(
			`<div class="text"><p class="article">${sentence("tide", 5)}</p><p>${sentence("storm", 3)}</p></div>`,
		);
		const { markdown } = await htmlToMarkdown(html, BASE);
		expect(markdown).toContain("The tide report, part 5");
		expect(markdown).toContain("The storm report, part 3");
	});

	it("keeps a post the article quotes (a tweet's or an Instagram post's blockquote) and drops a Twitter follow box", async () => {
		const quoted = "The harbour master said the breakwater survey starts on Monday at dawn.";
		const html = page(
			`<article><p>${sentence("harbour", 3)}</p><blockquote class="twitter-tweet"><p>${quoted}</p>— Port (@port) May 3</blockquote>` +
				`<p>${sentence("ferry", 3)}</p><blockquote class="instagram-media"><p>Dawn over the breakwater</p></blockquote>` +
				`<p>${sentence("lamp", 3)}</p><div class="twitter-follow"><p>Follow us on Twitter</p></div></article>`,
		);
		const { markdown } = await htmlToMarkdown(html, BASE);
		expect(markdown).toContain(quoted);
		expect(markdown).toContain("Dawn over the breakwater");
		expect(markdown).not.toContain("Follow us on Twitter");
	});

	it("keeps a box named as the article's text though its name also says image (`article__body-text-image`)", async () => {
		const html = page(
			`<article><div class="article__body-text"><p>${sentence("harbour", 5)}</p></div>` +
				`<div class="article__body-text-image"><p>${sentence("ferry", 2)}</p><img src="/f.jpg" alt=""></div>` +
				`<div class="article__body-text"><p>${sentence("lamp", 5)}</p></div><div class="image-credit">Photo: Ada Example</div></article>`,
		);
		const { markdown } = await htmlToMarkdown(html, BASE);
		for (const topic of ["harbour", "ferry", "lamp"]) expect(markdown).toContain(`The ${topic} report, part 2`);
		expect(markdown).not.toContain("Ada Example");
	});
});
