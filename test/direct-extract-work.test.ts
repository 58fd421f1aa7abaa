// What the passes over the chosen main content (providers/direct/extract-left-out.ts, extract-labels.ts) read of the tree beside what
// they remove: counted as the elements whose children a pass reads (the tree's own field, counted on read), so a
// pass that walks less than the whole content is held to it (bench/fetch.ts times the 1 MB page they run on).

import { describe, expect, it } from "vitest";
import { besideContent } from "../providers/direct/beside-content.ts";
import { parseFragment, parsePage } from "../providers/direct/dom.ts";
import type { El } from "../providers/direct/dom-types.ts";
import { extractMain } from "../providers/direct/extract.ts";
import { dropLabels } from "../providers/direct/extract-labels.ts";
import { dropLinkLists, dropTrailing, type LeftOut } from "../providers/direct/extract-left-out.ts";
import { measure, newStats } from "../providers/direct/extract-measure.ts";
import { renderTree } from "../providers/direct/markdown.ts";

const prose = (i: number) =>
	`Paragraph ${i} of the article, with <a href="/p${i}">a <em>link</em></a> and <code>code()</code>, read as prose. `.repeat(
		3,
	);

/** An article of `count` sections, each a heading, two paragraphs and a list, its last lines given by `tail`. */
function article(count: number, tail: string) {
	const sections = Array.from(
		{ length: count },
		(_, i) =>
			`<section><h2>Part ${i}</h2><p>${prose(i)}</p><p>${prose(i + 1)}</p><ul><li>One <strong>item</strong></li><li>Two</li></ul></section>`,
	);
	const page = parseFragment(`<article>${sections.join("")}${tail}</article>`);
	const stats = newStats(page.elements.length);
	measure(page.body, page.elements, stats);
	const root = page.elements.find((element) => element.tag === "article")!;
	return { page, root, stats };
}

/** Elements whose `children` were read while `run` ran, counted by making the field a counting accessor. */
function childrenReads(elements: readonly El[], run: () => void): Set<El> {
	const read = new Set<El>();
	const held = new Map<El, El["children"]>();
	for (const element of elements) {
		held.set(element, element.children);
		Object.defineProperty(element, "children", {
			configurable: true,
			enumerable: true,
			get: () => {
				read.add(element);
				return held.get(element);
			},
			set: (value: El["children"]) => {
				held.set(element, value);
			},
		});
	}
	try {
		run();
	} finally {
		for (const [element, value] of held) {
			Object.defineProperty(element, "children", { value, writable: true, enumerable: true, configurable: true });
		}
	}
	return read;
}

const noLeftOut = (): LeftOut => ({ count: 0, lists: 0 });

describe("the link-list and labels passes", () => {
	it("never look into an element holding no block (a paragraph, a link in it), but for a short block's text", () => {
		const { page, root, stats } = article(40, "");
		const leftOut = noLeftOut();
		const read = childrenReads(page.elements, () => {
			dropLinkLists(root, stats, leftOut);
			dropLabels(root, stats, leftOut);
		});
		// The labels pass reads the text of a block short enough to be a label (a heading, an item, with its inline
		// elements); nothing else of an element holding no block is read.
		const blockOf = (element: El) => {
			let at = element;
			while (at.parent && at.tag !== "p" && at.tag !== "li" && at.tag !== "h2") at = at.parent;
			return at;
		};
		const long = [...read].filter((element) => !element.hasBlock && stats.chars[blockOf(element).id]! > 60);
		expect(long).toEqual([]);
		// The article, its sections and their lists (the elements holding blocks), and 40 x 4 short blocks' texts.
		expect(read.size).toBe(1 + 40 * 2 + 40 * 4);
		expect(leftOut).toEqual({ count: 0, lists: 0 });
	});

	it("still drop the link lists and labels inside a box of blocks, as before", () => {
		const closing = "<p>The harbour office is open every day but Sunday, from nine in the morning.</p>";
		const tail =
			`<div><div><p><a href="/x">Ferry times</a> <a href="/y">Tide tables</a></p></div><p>Share this</p>${closing}</div>` +
			`<div><p>Related articles</p><p><a href="/r1">The old lighthouse</a></p><p><a href="/r2">The harbour wall</a></p>${closing}</div>`;
		const { root, stats } = article(3, tail);
		const leftOut = noLeftOut();
		dropLinkLists(root, stats, leftOut);
		dropLabels(root, stats, leftOut);
		const text = renderTree(root, { format: "markdown", links: "none" }).text;
		expect(leftOut).toEqual({ count: 2, lists: 3 });
		for (const gone of ["Ferry times", "Share this", "Related articles", "lighthouse", "harbour wall"]) {
			expect(text).not.toContain(gone);
		}
		expect(text.split("The harbour office is open").length).toBe(3);
	});
});

describe("the choice of the main content", () => {
	it("reads no long paragraph's children: an element holding no block weighs what its own text does", () => {
		const { page, stats } = article(40, "");
		let chosen: El | undefined;
		const read = childrenReads(page.elements, () => {
			chosen = extractMain(page.body, page.elements, stats, undefined, { model: null }).root;
		});
		expect(chosen?.tag).toBe("article");
		expect([...read].filter((element) => element.tag === "p" || element.tag === "a")).toEqual([]);
	});
});

describe("the boxes beside the content", () => {
	it("are looked for in no element holding no block: an ingredient list is a box of blocks", () => {
		const ingredients = '<div class="recipe-ingredients"><ul><li>2 eggs</li><li>100 g flour</li></ul></div>';
		const { page, root } = article(20, "");
		const box = parseFragment(`${ingredients}<main><p>Step one.</p></main>`);
		const main = box.elements.find((element) => element.tag === "main")!;
		const read = childrenReads([...page.elements, ...box.elements], () => {
			expect(
				besideContent(page.body, root.children.find((child): child is El => typeof child !== "string")!),
			).toHaveLength(0);
			expect(besideContent(box.body, main).map((element) => element.attrs.class)).toEqual(["recipe-ingredients"]);
		});
		expect([...read].filter((element) => element.tag === "p" || element.tag === "a")).toEqual([]);
	});
});

describe("the trailing-lines pass", () => {
	it("reads only the content's end when its last block is content: not the article's other blocks", () => {
		const { page, root, stats } = article(40, "");
		const before = renderTree(root, { format: "markdown", links: "none" }).text;
		const leftOut = noLeftOut();
		const read = childrenReads(page.elements, () => dropTrailing(root, stats, leftOut));
		// The path down to the last section's list and its items, not the forty sections.
		expect(read.size).toBeLessThan(10);
		expect(leftOut.count).toBe(0);
		expect(renderTree(root, { format: "markdown", links: "none" }).text).toBe(before);
	});

	it("still drops the short lines after the last content block, and keeps a closing sentence before them", () => {
		const tail = "<p>That is how it works, in the end.</p><div><p>Share this</p><p>Back to the list</p></div>";
		const { root, stats } = article(5, tail);
		const leftOut = noLeftOut();
		dropTrailing(root, stats, leftOut);
		const text = renderTree(root, { format: "markdown", links: "none" }).text;
		expect(leftOut.count).toBe(2);
		expect(text).toContain("That is how it works, in the end.");
		expect(text).not.toContain("Share this");
		expect(text).not.toContain("Back to the list");
	});
});

describe("a page whose reading stopped deep (past DOM_DEFAULTS.maxParseDepth)", () => {
	it("still tells its open elements which hold blocks, so the main content is chosen as on a page that closes them", () => {
		const para = (i: number, who: string) =>
			`<p>Paragraph ${i} of the ${who} tells a long story, with several sentences. It goes on for a while, and then it says more.</p>`;
		const story = Array.from({ length: 8 }, (_, i) => para(i, "article")).join("");
		const other = Array.from({ length: 3 }, (_, i) => para(i, "sidebar")).join("");
		const head = `<html><body><div id="page"><div id="wrap"><div class="story">${story}</div><div class="other">${other}</div><div>`;
		const chosen = (html: string) => {
			const page = parsePage(html);
			const stats = newStats(page.elements.length);
			measure(page.body, page.elements, stats);
			return { page, main: extractMain(page.body, page.elements, stats, undefined, { model: null }).root };
		};
		const closed = chosen(`${head}x</div></div></div></body></html>`);
		const stopped = chosen(`${head}${"<span>".repeat(5000)}x</body></html>`);
		expect(stopped.page.stoppedDeep).toBe(true);
		expect(closed.main.attrs.class).toBe("story");
		expect(stopped.main.attrs.class).toBe("story");
		expect(stopped.page.elements.find((element) => element.attrs.id === "wrap")?.hasBlock).toBe(true);
	});
});
