// Pages that are not articles (providers/direct/page-kind.ts, kinds/): each kind is read as such and its reader gets
// what the kind holds (a listing's entries with their links, a thread's posts in order with author and date, a
// product's price and specifications, docs with their code, a service page's sections); and a page whose extraction
// comes back empty falls back to its readable text, said in `extractedAs` and a warning.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevKind, kindPage } from "../bench/extract-kinds-corpus.ts";
import type { FetchResult } from "../engine/result-types.ts";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";
import { formatFetch } from "../runtime/format.ts";
import { fetchWith, send, startServer, type TestServer } from "./direct-helpers.ts";

const KINDS: DevKind[] = ["listing", "collection", "forum", "product", "documentation", "service"];

describe("page kinds", () => {
	for (const kind of KINDS) {
		it(`reads a ${kind} page as a ${kind}: every part its reader needs, none of the chrome`, async () => {
			const page = kindPage(kind, 7);
			const converted = await htmlToMarkdown(page.html, page.url);
			expect(converted.extractedAs).toBe(kind);
			const flat = converted.markdown.replace(/\s+/g, " ").replace(/\\/g, "");
			for (const snippet of page.with) expect(flat).toContain(snippet);
			for (const snippet of page.without) expect(flat).not.toContain(snippet);
		});
	}

	it("lists a listing's entries with their links as numbered references", async () => {
		const page = kindPage("listing", 3);
		const converted = await htmlToMarkdown(page.html, page.url);
		const targets = converted.references?.urls ?? [];
		expect(converted.markdown).toMatch(/\[[^\]]+ no\. 300\]\[\d+\]/);
		expect(targets.some((t) => t.includes("/notes/3-0"))).toBe(true);
	});

	it("renders a listing in every format: text without markup or links, links inline, or none", async () => {
		const page = kindPage("listing", 5);
		const text = await htmlToMarkdown(page.html, page.url, { format: "text" });
		expect(text.extractedAs).toBe("listing");
		expect(text.markdown).not.toMatch(/\]\[\d+\]|\]\(|^#/m);
		expect(text.references).toBeUndefined();
		for (const snippet of page.with) expect(text.markdown.replace(/\s+/g, " ")).toContain(snippet);
		const inline = await htmlToMarkdown(page.html, page.url, { links: "inline" });
		expect(inline.markdown).toContain("](https://listing.example/notes/5-0)");
		const none = await htmlToMarkdown(page.html, page.url, { links: "none" });
		expect(none.markdown).not.toMatch(/\]\[\d+\]|\]\(/);
	});

	it("gives a thread's posts in order, each led by its author and date", async () => {
		const page = kindPage("forum", 2);
		const { markdown } = await htmlToMarkdown(page.html, page.url);
		const users = [...markdown.matchAll(/^\*\*(\w+)\*\* · (\d{4}-\d{2}-\d{2}T[\d:.]+Z)$/gm)];
		const posts = page.with.slice(1).filter((_, i) => i % 2 === 0);
		expect(users.map((m) => m[1])).toEqual(posts);
		const texts = page.with.slice(1).filter((_, i) => i % 2 === 1);
		const at = texts.map((text) => markdown.indexOf(text));
		expect(at.every((position, i) => position > 0 && (i === 0 || position > at[i - 1]!))).toBe(true);
	});

	it("keeps an article an article: a story with a comment thread is not read as a forum", async () => {
		const prose = "The council met on Monday and agreed to repair the old harbour bridge before the winter storms. ";
		const comments = Array.from(
			{ length: 5 },
			(_, i) =>
				`<li class="comment thread-even"><span class="comment-author">reader${i}</span><p>I agree with point ${i}, well said.</p></li>`,
		).join("");
		const html = `<html><head><title>Bridge</title></head><body><article><h1>Bridge</h1><p>${prose.repeat(6)}</p><p>${prose.repeat(4)}</p></article><ol class="commentlist">${comments}</ol></body></html>`;
		const converted = await htmlToMarkdown(html, "https://paper.example/bridge");
		expect(converted.extractedAs).toBe("article");
		expect(converted.markdown).not.toContain("I agree with point 2");
	});
});

const sentence = (what: string) =>
	`${what} is open from nine to five on weekdays, and the staff answer questions by phone.`;

/** Pages whose text sits only in what the article reading prunes as chrome: it gave "" on each. */
const BARE_PAGES: Record<string, string> = {
	"text only in boxes named as chrome": `<html><body><div class="sidebar-left"><p>${sentence("The library")}</p></div><div class="sidebar-right"><p>${sentence("The museum")}</p></div><div class="promo"><p>${sentence("The pool")}</p></div></body></html>`,
	"text in a header, a footer and an aside": `<html><body><header><p>${sentence("Our office")}</p><p>${sentence("Our shop")}</p></header><footer><p>${sentence("The depot")}</p><p>${sentence("The yard")}</p></footer><aside><p>${sentence("The hall")}</p></aside></body></html>`,
	"text in navigation-named blocks of divs": `<html><body><nav class="main-navigation"><div>${sentence("The office")}</div></nav><div role="navigation"><div>${sentence("The shop")}</div></div><div class="related"><div>${sentence("The depot")}</div></div></body></html>`,
	"text in a table layout of chrome cells": `<html><body><table class="menu"><tr><td><a href="/">Home</a></td><td>${sentence("The club")}</td></tr></table><div class="footer"><table><tr><td>${sentence("The pitch")}</td></tr></table></div></body></html>`,
};

describe("never no text for a page that shows some", () => {
	for (const [what, html] of Object.entries(BARE_PAGES)) {
		it(`falls back to the page's readable text: ${what}`, async () => {
			const converted = await htmlToMarkdown(html, "https://bare.example/");
			expect(converted.extractedAs).toBe("page-text");
			const shown = (text: string) => text.split("is open from nine to five").length - 1;
			expect(shown(html)).toBeGreaterThan(0);
			expect(shown(converted.markdown)).toBe(shown(html));
		});
	}

	it("prunes navigation from the fallback when text is left without it", async () => {
		const menu = Array.from({ length: 6 }, (_, i) => `<a href="/m${i}">Menu entry ${i}</a>`).join(" ");
		const html = `<html><body><nav>${menu}</nav><div class="sidebar"><p>${sentence("The archive")}</p></div><div class="ad-box">${sentence("The fair")}</div><footer>${sentence("The desk")}</footer></body></html>`;
		const converted = await htmlToMarkdown(html, "https://bare.example/");
		expect(converted.extractedAs).toBe("page-text");
		expect(converted.markdown).toContain("The archive is open");
		expect(converted.markdown).not.toContain("Menu entry 3");
	});
});

describe("through the direct provider", () => {
	let server: TestServer;
	beforeAll(async () => {
		server = await startServer();
		server.route("/bare", send(BARE_PAGES["text in a header, a footer and an aside"]!));
		server.route("/listing", send(kindPage("listing", 4).html));
	});
	afterAll(() => server.close());

	it("says which way the page was read, and that the fallback was taken", async () => {
		const bare = await fetchWith(`${server.origin}/bare`);
		expect(bare.extractedAs).toBe("page-text");
		expect(bare.content).toContain("The yard is open");
		expect(bare.warnings?.join("\n")).toMatch(/no main content found|too little text/);
		const listing = await fetchWith(`${server.origin}/listing`);
		expect(listing.extractedAs).toBe("listing");
		expect(listing.references).toBeDefined();
	});
});

describe("bounds", () => {
	it("reads a 20,000-entry listing and a JSON-LD array of 300,000 items without failing", async () => {
		const entries = Array.from(
			{ length: 20_000 },
			(_, i) => `<li><h3><a href="/e/${i}">Entry ${i}</a></h3><span>note ${i}</span></li>`,
		).join("");
		const ld = `<script type="application/ld+json">{"@type":"ItemList","itemListElement":[${Array(300_000).fill("1").join(",")}]}</script>`;
		const html = `<html><head><title>Index</title>${ld}</head><body><main><h1>Index</h1><ul>${entries}</ul></main></body></html>`;
		const converted = await htmlToMarkdown(html, "https://index.example/");
		expect(converted.extractedAs).toBe("listing");
		expect(converted.markdown).toContain("Entry 19999");
		expect(converted.references?.urls.length).toBe(20_000);
	});
});

describe("what the model reads", () => {
	it("names the way a page that is not an article was read in the header line, and nothing for an article", () => {
		const result: FetchResult = {
			provider: "direct",
			url: "https://forum.example/t/1",
			content: "**alice** · 2025-03-01\n\nHello.",
			extraction: "verbatim",
			extractedAs: "forum",
			truncated: false,
			attempts: [],
			warnings: [],
			latencyMs: 1,
		};
		expect(formatFetch(result).split("\n")[1]).toMatch(
			/^extraction: verbatim · read as a forum thread \(its posts in order\) · /,
		);
		expect(formatFetch({ ...result, extractedAs: "article" }).split("\n")[1]).not.toContain("read as");
		expect(formatFetch({ ...result, extractedAs: "page-text" })).toContain("read as the page's readable text");
	});
});
