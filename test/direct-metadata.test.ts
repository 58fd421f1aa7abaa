// A page's metadata in every direct fetch: title, authors, published and modified dates, site name, language and
// canonical URL read from meta tags, JSON-LD, microdata and `<html lang>`, carried as result fields and said on one
// header line inside the untrusted block (none when the page says nothing), cleaned of control characters.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FetchResult } from "../engine/result-types.ts";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";
import { formatFetch } from "../runtime/format.ts";
import { fetchWith, send, startServer, type TestServer } from "./direct-helpers.ts";

const prose = "The harbour clock was rebuilt in the spring, and its hands now turn the other way round. ".repeat(12);
const doc = (head: string, body: string, lang = "") =>
	`<!doctype html><html${lang}><head><title>Tide clock</title>${head}</head><body><nav><a href="/">Home</a></nav>
<article><h1>Tide clock</h1>${body}<p>${prose}</p></article></body></html>`;

const PAGES = {
	meta: doc(
		`<meta name="author" content="Ada Byron"><meta property="article:published_time" content="2024-03-01T09:00:00Z">
<meta property="article:modified_time" content="2024-05-02T10:30:00Z"><meta property="og:site_name" content="Harbour Gazette">
<meta property="og:locale" content="en_GB"><link rel="canonical" href="/news/tide-clock">`,
		"",
	),
	jsonLd: doc(
		`<script type="application/ld+json">${JSON.stringify({
			"@context": "https://schema.org",
			"@graph": [
				{ "@type": "WebSite", name: "Gazette Online" },
				{
					"@type": "NewsArticle",
					headline: "Tide clock",
					author: [
						{ "@type": "Person", name: "Ada Byron" },
						{ "@type": "Person", name: "Carl Gauss" },
					],
					datePublished: "2024-03-01",
					dateModified: "2024-05-02",
					inLanguage: "de-AT",
				},
			],
		})}</script>`,
		"",
	),
	microdata: doc(
		"",
		`<div itemprop="author" itemscope itemtype="https://schema.org/Person">By <span itemprop="name">Grace Hopper</span></div>
<time itemprop="datePublished" datetime="2023-11-20">20 Nov</time><time itemprop="dateModified" datetime="2023-12-01T08:00:00Z">1 Dec</time>`,
		' lang="fr"',
	),
	none: doc("", ""),
	hostile: doc(
		`<meta name="author" content="Eve\u0007 \u202eMallory\u202c\u0000"><meta property="og:site_name" content="Site\u001b[31m red">`,
		"",
	),
};

describe("metadata read from the page", () => {
	it("reads authors, both dates, site name, language and the canonical URL from meta tags and <link>", async () => {
		const page = await htmlToMarkdown(PAGES.meta, "https://gazette.example/news/tide-clock?utm=x");
		expect(page).toMatchObject({
			author: "Ada Byron",
			authors: ["Ada Byron"],
			publishedAt: "2024-03-01T09:00:00.000Z",
			modifiedAt: "2024-05-02T10:30:00.000Z",
			siteName: "Harbour Gazette",
			language: "en-GB",
			canonicalUrl: "https://gazette.example/news/tide-clock",
		});
	});

	it("reads every author of a JSON-LD article, its dates and language, and the site from its WebSite node", async () => {
		const page = await htmlToMarkdown(PAGES.jsonLd, "https://gazette.example/a");
		expect(page).toMatchObject({
			author: "Ada Byron, Carl Gauss",
			authors: ["Ada Byron", "Carl Gauss"],
			publishedAt: "2024-03-01T00:00:00.000Z",
			modifiedAt: "2024-05-02T00:00:00.000Z",
			siteName: "Gazette Online",
			language: "de-AT",
		});
		expect(page.canonicalUrl).toBeUndefined();
	});

	it("reads microdata (an author item's name, <time datetime>) and <html lang>", async () => {
		const page = await htmlToMarkdown(PAGES.microdata, "https://gazette.example/m");
		expect(page).toMatchObject({
			authors: ["Grace Hopper"],
			publishedAt: "2023-11-20T00:00:00.000Z",
			modifiedAt: "2023-12-01T08:00:00.000Z",
			language: "fr",
		});
	});

	it("sets none of the fields for a page that declares nothing", async () => {
		const page = await htmlToMarkdown(PAGES.none, "https://gazette.example/n");
		for (const key of ["author", "authors", "publishedAt", "modifiedAt", "siteName", "language", "canonicalUrl"]) {
			expect(page).not.toHaveProperty(key);
		}
	});

	it("removes control and bidi characters from the page's values", async () => {
		const page = await htmlToMarkdown(PAGES.hostile, "https://gazette.example/h");
		expect(page.authors).toEqual(["Eve Mallory"]);
		expect(page.siteName).toBe("Site[31m red");
	});
});

describe("metadata in the fetch result and the text the model reads", () => {
	let server: TestServer;
	beforeAll(async () => {
		server = await startServer();
		for (const [name, html] of Object.entries(PAGES)) server.route(`/${name}`, send(html));
	});
	afterAll(() => server.close());

	const shown = (result: Awaited<ReturnType<typeof fetchWith>>, url: string): string =>
		formatFetch({
			...result,
			provider: "direct",
			url,
			truncated: false,
			attempts: [],
			warnings: [],
			latencyMs: 1,
		} as FetchResult);

	it("carries the fields and says them on one line under the title, inside the untrusted block", async () => {
		const url = `${server.origin}/jsonLd`;
		const result = await fetchWith(url);
		expect(result).toMatchObject({
			authors: ["Ada Byron", "Carl Gauss"],
			siteName: "Gazette Online",
			language: "de-AT",
		});
		const text = shown(result, url);
		const header = "By Ada Byron, Carl Gauss · 2024-03-01, updated 2024-05-02 · Gazette Online · de-AT";
		expect(text).toContain(`# Tide clock\n${header}\n`);
		const begin = text.indexOf("<<<BEGIN UNTRUSTED WEB CONTENT");
		expect(begin).toBeGreaterThan(-1);
		expect(text.indexOf(header)).toBeGreaterThan(begin);
		expect(text.indexOf(header)).toBeLessThan(text.indexOf("<<<END UNTRUSTED WEB CONTENT>>>"));
	});

	it("names a canonical URL other than the page's own, and no header line at all for a page without metadata", async () => {
		const meta = `${server.origin}/meta`;
		expect(shown(await fetchWith(meta), meta)).toContain(
			`By Ada Byron · 2024-03-01, updated 2024-05-02 · Harbour Gazette · en-GB · canonical ${server.origin}/news/tide-clock\n`,
		);
		const none = `${server.origin}/none`;
		const text = shown(await fetchWith(none), none);
		expect(text).toMatch(/# Tide clock\n\n/);
		expect(text).not.toMatch(/^By |\d{4}-\d{2}-\d{2}|updated/m);
	});
});
