// What the link list costs: each rule that keeps a target out of the list, or makes it shorter, without losing what
// a reader needs to follow it — the page itself, tracking parameters, share-by-mail buttons, images inside links,
// percent escapes of letters, and same-site targets shown as paths under one line naming the site.

import { describe, expect, it } from "vitest";
import { LINK_LIST_DEFAULTS, PATHS_LINE, pathsLine, withReferenceList } from "../engine/link-references.ts";
import { TRACKING_PARAM, withoutTrackingParams } from "../engine/url-tracking.ts";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";
import type { MarkdownPage } from "../providers/direct/page-types.ts";

const PAGE = "https://site.example/guide/start.html";
const filler = (words: number) => Array.from({ length: words }, (_, i) => `word${i}`).join(" ");
const article = (inner: string) =>
	`<html><head><title>T</title></head><body><article><h1>T</h1><p>${filler(120)}</p>${inner}<p>${filler(80)}</p></article></body></html>`;
/** Prose around the links, so that a paragraph of them reads as content rather than a link list. */
const prose = filler(60);
/** The page as one window: its text and, with references, the whole list after it. */
const whole = (page: MarkdownPage) => withReferenceList(page.markdown, page.references);
const render = async (inner: string, links?: "references" | "inline" | "none", page = PAGE) =>
	whole(await htmlToMarkdown(article(inner), page, links ? { links } : {}));
/** The reference list: the lines after the text that define targets (and the line naming the paths' site). */
const listOf = (markdown: string) =>
	markdown.split("\n").filter((line) => /^\[\d+\]: /.test(line) || PATHS_LINE.test(line));

describe("link targets", () => {
	it("lists no link to the page itself, with or without a fragment, and keeps the link's text", async () => {
		const md = await render(
			`<p>${prose} See <a href="${PAGE}">this page</a>, <a href="start.html#part-2">part two</a>, <a href="?utm_source=x#top">the top</a> and <a href="/other">another</a>.</p>`,
		);
		expect(md).toContain("See this page, part two, the top and [another][1].");
		expect(listOf(md)).toEqual(["[1]: https://site.example/other"]);
	});

	it("drops click and campaign tracking parameters, so two links that differ only by them share one number", async () => {
		const md = await render(
			`<p>${prose} <a href="https://news.example/a?id=7&utm_source=feed&utm_medium=rss">one</a> and <a href="https://news.example/a?fbclid=XyZ&id=7">again</a>; <a href="https://news.example/b?gclid=1">b</a>; <a href="https://news.example/c?ref=home">c</a></p>`,
		);
		expect(md).toContain("[one][1] and [again][1]; [b][2]; [c][3]");
		expect(listOf(md)).toEqual([
			"[1]: https://news.example/a?id=7",
			"[2]: https://news.example/b",
			"[3]: https://news.example/c?ref=home",
		]);
		expect(
			await render(`<p>${prose} <a href="https://news.example/a?utm_campaign=x">inline</a></p>`, "inline"),
		).toContain("[inline](https://news.example/a)");
	});

	it("lists no target for a mail link that names nobody (a share-by-mail button); an address stays", async () => {
		const md = await render(
			`<p>${prose} <a href="mailto:?subject=Look&body=x">Email this</a>, <a href="mailto:desk@news.example">write to us</a></p>`,
		);
		expect(md).toContain("Email this, [write to us][1]");
		expect(listOf(md)).toEqual(["[1]: mailto:desk@news.example"]);
	});

	it("shows letters as themselves instead of percent escapes; escapes of spaces, slashes and symbols stay", async () => {
		const md = await render(
			`<p>${prose} <a href="https://wiki.example/wiki/K%C3%B6ln">Köln</a>, <a href="https://wiki.example/item/蔡健雅">蔡</a>, <a href="https://wiki.example/q?a=b%2Fc%20d&e=%E2%80%94">q</a></p>`,
		);
		const list = listOf(md);
		expect(list).toEqual([
			"[1]: https://wiki.example/wiki/Köln",
			"[2]: https://wiki.example/item/蔡健雅",
			"[3]: https://wiki.example/q?a=b%2Fc%20d&e=%E2%80%94",
		]);
		// Parsing a shown target again gives the page's URL byte for byte.
		expect(new URL(list[0]!.slice(5)).href).toBe("https://wiki.example/wiki/K%C3%B6ln");
		expect(new URL(list[1]!.slice(5)).href).toBe(new URL("https://wiki.example/item/蔡健雅").href);
	});

	it("shows an image inside a link as its alt text: the link's target is the one listed", async () => {
		const md = await render(
			`<p>${prose} <a href="/photos/42"><img src="/thumbs/42.jpg" alt="The harbour at dawn"></a> and <img src="/img/map.png" alt="Map"></p>`,
		);
		expect(md).toContain("[The harbour at dawn][1] and ![Map][2]");
		expect(listOf(md)).toEqual(["[1]: https://site.example/photos/42", "[2]: https://site.example/img/map.png"]);
		// A link with nothing to follow leaves its image alone.
		expect(
			await render(`<p>${prose} <a href="javascript:zoom()"><img src="/img/big.png" alt="Big"></a></p>`),
		).toContain("![Big][1]");
	});
});

describe("same-site targets as paths", () => {
	const many = Array.from({ length: 6 }, (_, i) => `<a href="/guide/chapter-${i}">chapter ${i}</a>`).join(", ");

	it("lists the page's own site's targets as paths under one line naming the site, others in full", async () => {
		const md = await render(
			`<p>${prose} ${many} and <a href="https://elsewhere.example/x">elsewhere</a> and <a href="//site.example//odd">odd</a>.</p>`,
		);
		const list = listOf(md);
		expect(list[0]).toBe(pathsLine("https://site.example"));
		expect(list.slice(1)).toEqual([
			...Array.from({ length: 6 }, (_, i) => `[${i + 1}]: /guide/chapter-${i}`),
			"[7]: https://elsewhere.example/x",
			// A path that starts with two slashes would read as another host: shown in full.
			"[8]: https://site.example//odd",
		]);
		expect(md.endsWith(list.join("\n"))).toBe(true);
		// Each path and the site line give back the full target.
		expect(new URL(list[1]!.slice(5), PATHS_LINE.exec(list[0]!)![1]).href).toBe("https://site.example/guide/chapter-0");
	});

	it("keeps full URLs when the site line would save less than it costs twice over, and in inline mode", async () => {
		const few = await render(`<p>${prose} <a href="/a">a</a> and <a href="/b">b</a></p>`);
		expect(listOf(few)).toEqual(["[1]: https://site.example/a", "[2]: https://site.example/b"]);
		const origin = "https://site.example";
		expect(2 * origin.length).toBeLessThanOrEqual(LINK_LIST_DEFAULTS.pathsPayOff * (pathsLine(origin).length + 1));
		const inline = await render(`<p>${prose} ${many}</p>`, "inline");
		expect(inline).toContain("[chapter 0](https://site.example/guide/chapter-0)");
		expect(inline).not.toMatch(PATHS_LINE);
	});

	it("shows paths only on the page's own site, where they also resolve against the page's URL", async () => {
		// Targets resolve against a <base href> on another site: in full, with no site line.
		const html = article(`<p>${prose} ${many}</p>`).replace("<head>", '<head><base href="https://cdn.example/v1/">');
		const md = whole(await htmlToMarkdown(html, PAGE));
		expect(listOf(md)[0]).toBe("[1]: https://cdn.example/guide/chapter-0");
		expect(md).not.toMatch(/^Paths are on/m);
	});
});

describe("tracking parameters", () => {
	it("removes only tracking names, whatever their case or escapes, and keeps the others as written", () => {
		expect(withoutTrackingParams("?b=1&utm_medium=2&FBCLID=3&gclid=4&c=%20")).toBe("?b=1&c=%20");
		expect(withoutTrackingParams("?utm%5Fsource=x")).toBe("");
		expect(withoutTrackingParams("?ref=a&utm=b&mc_cid=c&msclkid=d")).toBe("?ref=a&utm=b");
		expect(withoutTrackingParams("?%E0%A4%A=1")).toBe("?%E0%A4%A=1");
		expect(withoutTrackingParams("")).toBe("");
		for (const name of ["utm_source", "fbclid", "gclid", "msclkid", "mc_eid", "_hsenc", "igshid", "yclid"]) {
			expect(TRACKING_PARAM.test(name), name).toBe(true);
		}
		for (const name of ["id", "page", "ref", "q", "utm"]) expect(TRACKING_PARAM.test(name), name).toBe(false);
	});
});
