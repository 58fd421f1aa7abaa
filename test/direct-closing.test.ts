// The end of an article on pages the tests build (providers/direct/extract.ts): closing sections, the last entry
// of a reference page, an install line and link-rich sentences are the article's; sign-offs and labels after it
// are left out, and the result says what was left out.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";
import { callContext, fetchWith, send, startServer, type TestServer } from "./direct-helpers.ts";

const BASE = "https://blog.example/2026/caches";
const prose = (topic: string, n: number) =>
	Array.from(
		{ length: n },
		(_, i) => `The ${topic} note, part ${i + 1}, explains how the cache keeps its entries.`,
	).join(" ");
const menu = `<nav><ul>${Array.from({ length: 8 }, (_, i) => `<li><a href="/s${i}">Section ${i}</a></li>`).join("")}</ul></nav>`;
const page = (article: string) =>
	`<html><head><title>Caches</title></head><body>${menu}<article>${article}</article><footer>© 2026 Blog</footer></body></html>`;

describe("the end of an article", () => {
	it("keeps a closing section: its heading and its two short paragraphs", async () => {
		const html = page(
			`<h1>Caches</h1><p>${prose("eviction", 4)}</p><p>${prose("warm-up", 4)}</p><h2>Conclusion</h2><p>Caches pay off when reads repeat.</p><p>Measure before you tune.</p>`,
		);
		const { markdown } = await htmlToMarkdown(html, BASE);
		expect(markdown).toContain("## Conclusion");
		expect(markdown).toContain("Caches pay off when reads repeat.");
		expect(markdown).toContain("Measure before you tune.");
	});

	it("keeps the last function's description on a reference page", async () => {
		const entry = (name: string, text: string) =>
			`<h3 id="${name}">func ${name}</h3><pre>func ${name}(s string) (*Value, error)</pre><p>${text}</p>`;
		const html = page(
			`<h1>package value</h1><p>${prose("package", 4)}</p>${entry("Decode", prose("decode", 3))}${entry("Parse", "Parse parses s.")}`,
		);
		const { markdown } = await htmlToMarkdown(html, BASE);
		expect(markdown).toContain("func Parse");
		expect(markdown).toContain("Parse parses s.");
	});

	it("keeps an install line with code after the last paragraph", async () => {
		const html = page(
			`<h1>Caches</h1><p>${prose("eviction", 4)}</p><p>Install it with <code>go get example.com/cache</code></p>`,
		);
		const { markdown } = await htmlToMarkdown(html, BASE);
		expect(markdown).toContain("go get example.com/cache");
	});

	it("keeps a short sentence made mostly of links inside the article, with its references", async () => {
		const html = page(
			`<h1>Caches</h1><p>${prose("eviction", 4)}</p><p>See <a href="https://www.rfc-editor.org/rfc/rfc9111">RFC 9111, HTTP Caching</a> and <a href="https://www.rfc-editor.org/rfc/rfc9110">RFC 9110, HTTP Semantics</a>.</p><p>${prose("warm-up", 4)}</p>`,
		);
		const { markdown, references } = await htmlToMarkdown(html, BASE);
		expect(markdown).toContain("RFC 9111, HTTP Caching");
		expect(references?.urls ?? []).toContain("https://www.rfc-editor.org/rfc/rfc9111");
	});

	it("leaves out labels and prompts after the article, and says what it left out", async () => {
		const html = page(
			`<h1>Caches</h1><p>${prose("eviction", 4)}</p><p>${prose("warm-up", 4)}</p><div class="tail"><h3>Related posts</h3><p>Share your thoughts</p><p>Back to the list</p></div>`,
		);
		const converted = await htmlToMarkdown(html, BASE);
		expect(converted.markdown).toContain("The warm-up note, part 4");
		for (const gone of ["Related posts", "Share your thoughts", "Back to the list"]) {
			expect(converted.markdown).not.toContain(gone);
		}
		expect(converted.leftOut).toEqual({ count: 3, lists: 0 });
	});
});

describe("what direct's result says about it", () => {
	let server: TestServer;
	beforeAll(async () => {
		server = await startServer();
	});
	afterAll(async () => server.close());

	it("warns with how many short lines and link lists it left out, quoting none, and not when nothing was", async () => {
		const body = `<h1>Caches</h1><p>${prose("eviction", 4)}</p><p>${prose("warm-up", 4)}</p>`;
		server.route("/cut", send(page(`${body}<p>Share your thoughts</p><p>Back to the list</p>`)));
		server.route("/whole", send(page(`${body}<h2>Conclusion</h2><p>Measure before you tune.</p>`)));
		const cut = await fetchWith(`${server.origin}/cut`, callContext());
		const note = (cut.warnings ?? []).find((w) => w.includes("left out"));
		// Counted, never quoted: warnings stand outside the untrusted-content block, the page's words inside it.
		expect(note).toBe('left out 2 short lines after the article (format "html" has the whole page)');
		const related = `<h3>Related</h3><ul><li><a href="/a">Caches in Go</a></li><li><a href="/b">Warm caches</a></li></ul>`;
		server.route("/list", send(page(`${body}${related}<p>${prose("summary", 3)}</p>`)));
		const listed = await fetchWith(`${server.origin}/list`, callContext());
		expect(listed.content).not.toContain("Warm caches");
		expect(listed.warnings).toContainEqual(
			'left out 1 link list inside the article (format "html" has the whole page)',
		);
		const whole = await fetchWith(`${server.origin}/whole`, callContext());
		expect(whole.content).toContain("Measure before you tune.");
		expect((whole.warnings ?? []).filter((w) => w.includes("left out"))).toEqual([]);
	});
});
