// Code blocks read a `<pre>` as a browser lays it out: `<br>` and block elements break lines, a table row is one line
// with its cells apart by a tab, the whitespace between table tags is not text, and spaces at a line's end go.

import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";

const filler = (words: number) => Array.from({ length: words }, (_, i) => `word${i}`).join(" ");
const article = (inner: string) =>
	`<html><head><title>T</title></head><body><article><h1>T</h1><p>${filler(120)}</p>${inner}<p>${filler(80)}</p></article></body></html>`;
/** The first fenced block of the page's markdown, fences included. */
async function codeOf(pre: string): Promise<string> {
	const { markdown } = await htmlToMarkdown(article(pre), "https://site.example/");
	return /^```[\s\S]*?^```$/m.exec(markdown)?.[0] ?? "";
}

describe("preformatted text", () => {
	it("breaks lines at <br>, keeping indentation", async () => {
		expect(await codeOf("<pre><code>a = 1<br>b = 2<br/>  c = 3</code></pre>")).toBe("```\na = 1\nb = 2\n  c = 3\n```");
	});

	it("breaks lines at block elements (a highlighter's line divs), without doubling a newline between them", async () => {
		expect(await codeOf('<pre><code class="language-py"><div>def f():</div><div>    return 1</div></code></pre>')).toBe(
			"```py\ndef f():\n    return 1\n```",
		);
		expect(await codeOf("<pre><code><div>x</div>\n<div>y</div></code></pre>")).toBe("```\nx\ny\n```");
	});

	it("reads a table row as one line: empty cells leave no gap, cells with text are a tab apart", async () => {
		// A line-number table: the number cells are empty (the numbers are drawn by CSS).
		const numbered =
			'<pre><code><table><tbody>\n  <tr><td data-line-number="1"></td><td>if (x) {</td></tr>\n  <tr><td data-line-number="2"></td><td>    go();</td></tr>\n</tbody></table></code></pre>';
		expect(await codeOf(numbered)).toBe("```\nif (x) {\n    go();\n```");
		// A results table laid out inside a <pre>: the markup's indentation between tags is not shown text.
		const results =
			"<pre> <table>\n    <tbody>\n        <tr>\n            <td>&nbsp;</td>\n            <td><strong>4 x 100 m</strong></td>\n            <td>19.05.2007</td>\n        </tr>\n        <tr><td>1.</td>   <td>Club</td>   <td>53,09</td></tr>\n    </tbody>\n</table></pre>";
		expect(await codeOf(results)).toBe("```\n4 x 100 m\t19.05.2007\n1.\tClub\t53,09\n```");
	});

	it("drops spaces at the ends of lines and keeps text as written elsewhere", async () => {
		expect(await codeOf("<pre>plain   \n  indented\t\n\n  two blank above</pre>")).toBe(
			"```\nplain\n  indented\n\n  two blank above\n```",
		);
	});
});
