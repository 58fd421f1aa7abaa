// A `<noscript>` long enough to be content is what a reader without JavaScript sees: Blogger-style pages keep the
// post there beside a script template, so it is extracted and counts as visible text; a short notice is left out.

import { describe, expect, it } from "vitest";
import { convertPage } from "../providers/direct/convert.ts";
import { inlineConverter } from "../providers/direct/convert-run.ts";
import { DOM_DEFAULTS, parsePage } from "../providers/direct/dom.ts";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";

const POST = Array.from(
	{ length: 6 },
	(_, i) => `<p>Paragraph ${i + 1} of the post explains, in plain words, how the new protection works for readers.</p>`,
).join("\n");
/** A blog page whose post is a script template for the app and, for readers without JavaScript, a noscript copy. */
const blogPage = `<html><head><title>Safer browsing</title></head><body>
<div class="header"><a href="/">The Security Blog</a></div>
<div class="post"><h2 class="title">Safer browsing</h2>
<script type="text/template">${POST}</script>
<noscript><h3>Posted on 12 May</h3>\n${POST}</noscript>
</div>
<noscript><img src="https://ads.example/pixel" alt=""></noscript>
<noscript>Please enable JavaScript to view the comments.</noscript>
</body></html>`;

describe("noscript content", () => {
	it("extracts a post kept in a <noscript> and leaves a short notice out", async () => {
		const { markdown } = await htmlToMarkdown(blogPage, "https://blog.example/2020/05/safer.html");
		expect(markdown).toContain("### Posted on 12 May");
		for (let i = 1; i <= 6; i++) expect(markdown).toContain(`Paragraph ${i} of the post explains`);
		expect(markdown).not.toContain("enable JavaScript");
	});

	it("counts a kept noscript's text as visible, so its page is not taken for a JavaScript-only one", async () => {
		const page = parsePage(blogPage);
		expect(page.textLength).toBeGreaterThan(6 * 80);
		expect(page.noscriptText.startsWith("Posted on 12 May Paragraph 1")).toBe(true);
		// Outside the noscripts the page shows under 40 characters beside a script: JavaScript-only, but for them.
		const url = "https://blog.example/x";
		const raw = { url, finalUrl: url, status: 200, headers: { "content-type": "text/html" }, truncated: false };
		const page2 = { ...raw, maxBytes: 1 << 20, body: Buffer.from(blogPage) };
		const result = await convertPage(page2, "direct", { converter: inlineConverter() });
		expect(result.content).toContain("Paragraph 6 of the post");
	});

	it("takes a short noscript out of the tree with its elements, keeping ids contiguous", () => {
		const short = "x".repeat(DOM_DEFAULTS.noscriptContentChars - 1);
		const page = parsePage(`<p>a</p><noscript><div id="app"><b>${short}</b></div></noscript><p>b</p>`);
		expect(page.body.children.map((child) => (typeof child === "string" ? child : child.tag))).toEqual(["p", "p"]);
		expect(page.elements.map((element) => element.id)).toEqual([0, 1, 2]);
		expect([page.elementCount, page.textLength, page.emptyMount]).toEqual([3, 2, false]);
		const long = parsePage(`<p>a</p><noscript><b>${"x".repeat(DOM_DEFAULTS.noscriptContentChars)}</b></noscript>`);
		expect(long.body.children.map((child) => (typeof child === "string" ? child : child.tag))).toEqual([
			"p",
			"noscript",
		]);
		expect(long.textLength).toBe(1 + DOM_DEFAULTS.noscriptContentChars);
	});
});
