// The per-block boilerplate model (providers/direct/block-model.ts): the features a chosen content's leaf blocks
// are described by, that only blocks at the content's edges are judged (a long block in the site's or the author's
// own words is not the article's last), that a model drops what it scores as boilerplate and keeps what articleBody
// confirms, and that the fit (bench/extract-blocks.ts) is reproducible and chooses its threshold by mean and worst fold.

import { describe, expect, it } from "vitest";
import { chooseThreshold, fitLogistic } from "../bench/extract-blocks.ts";
import { BLOCK_FEATURES, type BlockModel, blockRows, dropBoilerplate } from "../providers/direct/block-model.ts";
import { parsePage } from "../providers/direct/dom.ts";
import { collapse, textOf } from "../providers/direct/dom-text.ts";
import type { El } from "../providers/direct/dom-types.ts";
import { measure, newStats } from "../providers/direct/extract-measure.ts";
import { convertHtml } from "../providers/direct/extract-page.ts";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";
import { regexCalls } from "./helpers/regex-calls.ts";

const prose = (topic: string) =>
	`The ${topic} was measured twice, and the second reading matched the first one closely enough to keep it.`.repeat(2);

/** An article box: a teaser before it, three long paragraphs, a heading leading a run of links, a repeated note. */
const HTML = `<html><body><div id="story">
<div class="teaser-box"><p>Read our other stories about the harbour</p></div>
<p>${prose("tide")}</p><p>Note from the desk</p><p>${prose("wind")}</p><p>${prose("rain")}</p>
<h3>More from the harbour</h3><p><a href="/a">Ferry times for the winter season</a></p><p><a href="/b">The lighthouse keeper's log</a></p>
<p>Note from the desk</p></div></body></html>`;

function content() {
	const page = parsePage(HTML);
	const stats = newStats(page.elements.length);
	measure(page.body, page.elements, stats);
	const root = page.elements.find((element) => element.attrs.id === "story")!;
	return { root, stats };
}

const feature = (features: readonly number[], name: (typeof BLOCK_FEATURES)[number]) =>
	features[BLOCK_FEATURES.indexOf(name)];

describe("the per-block boilerplate model", () => {
	it("describes each leaf block by its features and judges only the blocks at the content's edges", () => {
		const { root, stats } = content();
		const rows = blockRows(root, stats, true);
		const by = (start: string) => rows.find((row) => row.text.startsWith(start))!;
		expect(rows.map((row) => row.features.length)).toEqual(rows.map(() => BLOCK_FEATURES.length));
		expect(feature(by("Read our other").features, "boilerClass")).toBe(1);
		expect(feature(by("The tide").features, "boilerClass")).toBe(0);
		expect(feature(by("More from the harbour").features, "headingBeforeLinks")).toBe(1);
		expect(feature(by("Ferry times").features, "linkRun")).toBe(1);
		expect(feature(by("Ferry times").features, "linkDensity")).toBe(1);
		expect(feature(by("Note from the desk").features, "repeated")).toBe(1);
		expect(feature(by("The tide").features, "repeated")).toBe(0);
		// The heading is at the edge but never judged: headings, code, table cells and captions are the article's.
		expect(rows.filter((row) => row.edge).map((row) => row.text)).toEqual([
			"Read our other stories about the harbour",
			"Ferry times for the winter season",
			"The lighthouse keeper's log",
			"Note from the desk",
		]);
	});

	it("drops the edge blocks a model scores as boilerplate, never a block inside the article, a heading or one kept", () => {
		// A model that calls every short block boilerplate: the weights say "fewer characters, more boilerplate".
		const weights = BLOCK_FEATURES.map((name) => (name === "bias" ? 6 : name === "logChars" ? -12 : 0));
		const model: BlockModel = { weights, threshold: 0.5 };
		const { root, stats } = content();
		const kept = (element: El) => collapse(textOf(element)) === "The lighthouse keeper's log";
		expect(dropBoilerplate(root, stats, model, kept)).toBe(3);
		const text = collapse(textOf(root));
		// The note inside the article stays; its repeat at the end goes.
		expect(text.split("Note from the desk")).toHaveLength(2);
		expect(text).toContain("Note from the deskThe wind");
		expect(text).toContain("The lighthouse keeper's log");
		for (const gone of ["Read our other", "Ferry times"]) expect(text).not.toContain(gone);
		expect(text).toContain("More from the harbour");
		expect(text.endsWith("The lighthouse keeper's log")).toBe(true);
	});

	it("takes out a heading left at the content's end once the blocks it led are dropped, and keeps one still leading", () => {
		const weights = BLOCK_FEATURES.map((name) => (name === "bias" ? -6 : name === "boilerClass" ? 12 : 0));
		const html = `<html><body><div id="story"><p>${prose("tide")}</p><h3>The tide tables</h3><p>${prose("wind")}</p>
<h3>Our sister papers</h3><div class="promo-card"><p>The Harbour Echo, every Friday</p></div>
<div class="promo-card"><p>The Coast Weekly, every Monday</p></div></div></body></html>`;
		const page = parsePage(html);
		const stats = newStats(page.elements.length);
		measure(page.body, page.elements, stats);
		const root = page.elements.find((element) => element.attrs.id === "story")!;
		expect(dropBoilerplate(root, stats, { weights, threshold: 0.5 })).toBe(3);
		const text = collapse(textOf(root));
		expect(text).not.toContain("Our sister papers");
		expect(text).not.toContain("Harbour Echo");
		expect(text).toContain("The tide tables");
		expect(text.endsWith("keep it.")).toBe(true);
	});

	it("the committed model takes a bio and a subscription box after the article out, and keeps its closing line", async () => {
		const closing = "The harbour master will publish the next readings in spring.";
		const bio = "Ada Byron writes about tides, weather and the sea for the Gazette since 2011.";
		const box = "Subscribe: 2 issues a week, 4.99 EUR a month, cancel at any time.";
		const html = `<html><head><title>Tide</title></head><body><article><h1>Tide</h1><p>${prose("tide")}</p>
<p>${prose("wind")}</p><p>${prose("rain")}</p><p>${closing}</p><p class="small">${bio}</p>
<div class="box-note"><p>${box}</p></div></article></body></html>`;
		const url = "https://gazette.example/tide";
		const off = convertHtml(html, url, {}, { model: null }).markdown;
		for (const line of [closing, bio, box]) expect(off).toContain(line);
		const { markdown } = await htmlToMarkdown(html, url);
		expect(markdown).toContain(closing);
		expect(markdown).not.toContain(bio);
		expect(markdown).not.toContain(box);
	});

	it("a long block in the site's or the author's own words after the article does not end it: it is judged and dropped", async () => {
		const closing = "The harbour master will publish the next readings in spring, after the second survey.";
		const bio =
			"Ada Byron is a reporter for the Gazette. She studied oceanography in Kiel and writes about tides, weather and the harbour's fishing fleet, which she has followed since 2011.";
		const pitch =
			"To read every story about the harbour, subscribe to the Gazette: our journalists cover the coast every day, and a subscription keeps them there. Sign up for the newsletter too.";
		const html = `<html><head><title>Tide</title></head><body><article><h1>Tide</h1><p>${prose("tide")}</p>
<p>${prose("wind")}</p><p>${prose("rain")}</p><p>${closing}</p><p>${pitch}</p><p class="author-note">${bio}</p></article></body></html>`;
		const page = parsePage(html);
		const stats = newStats(page.elements.length);
		measure(page.body, page.elements, stats);
		const rows = blockRows(page.elements.find((element) => element.tag === "article")!, stats);
		const row = rows.find((r) => r.text.startsWith("To read every story"))!;
		expect(row.text.length).toBeGreaterThan(150);
		expect(row.edge).toBe(true);
		expect(feature(row.features, "promoWords")).toBe(1);
		const note = rows.find((r) => r.text.startsWith("Ada Byron"))!;
		expect([note.text.length > 150, note.edge, feature(note.features, "bioWords")]).toEqual([true, true, 1]);
		expect(rows.find((r) => r.text.startsWith("The rain"))!.edge).toBe(false);
		const { markdown } = await htmlToMarkdown(html, "https://gazette.example/tide");
		expect(markdown).toContain(closing);
		expect(markdown).not.toContain("subscribe to the Gazette");
		expect(markdown).not.toContain("Ada Byron");
	});

	it("reads a category label, a rating and a byline by their class names, and the model drops the label above the article", async () => {
		const html = `<html><head><title>Tide</title></head><body><article><div class="post--category">Coast and weather</div>
<h1>Tide</h1><p class="entry-byline">By Ada Byron</p><p>${prose("tide")}</p><p>${prose("wind")}</p><p>${prose("rain")}</p>
<div class="star-rating">Rated 4 of 5</div></article></body></html>`;
		const page = parsePage(html);
		const stats = newStats(page.elements.length);
		measure(page.body, page.elements, stats);
		const rows = blockRows(page.elements.find((element) => element.tag === "article")!, stats, true);
		const boiler = (start: string) => feature(rows.find((row) => row.text.startsWith(start))!.features, "boilerClass");
		expect([boiler("Coast and weather"), boiler("By Ada"), boiler("Rated 4"), boiler("The tide")]).toEqual([
			1, 1, 1, 0,
		]);
		const { markdown } = await htmlToMarkdown(html, "https://gazette.example/tide");
		expect(markdown).not.toContain("Coast and weather");
		expect(markdown).toContain("The rain was measured");
	});

	it("a short line after the article the model judges content stays, though it reads as no sentence", () => {
		// A model that calls only blocks in boxes named like boilerplate what they are.
		const weights = BLOCK_FEATURES.map((name) => (name === "bias" ? -6 : name === "boilerClass" ? 12 : 0));
		const signOff = "Recipe and photos by Ada Byron";
		const html = `<html><head><title>Tide</title></head><body><article><h1>Tide</h1><p>${prose("tide")}</p>
<p>${prose("wind")}</p><p>${prose("rain")}</p><p>${signOff}</p><div class="promo-box"><p>Our sister papers</p></div>
</article></body></html>`;
		const url = "https://gazette.example/tide";
		// Without a model the trailing lines' pass (extract-left-out.ts) takes both lines out: neither is a sentence.
		const off = convertHtml(html, url, {}, { model: null });
		expect(off.markdown).not.toContain(signOff);
		const page = convertHtml(html, url, {}, { model: { weights, threshold: 0.5 } });
		expect(page.markdown).toContain(signOff);
		expect(page.markdown).not.toContain("Our sister papers");
		expect(page.markdown).toContain("The rain was measured");
	});

	it("a model whose threshold is over 1 judges nothing and builds no block rows: the extraction reads as with none", async () => {
		// Building the rows tests each long block's text for a site's or an author's own words: the regex calls show it.
		const weights = BLOCK_FEATURES.map((name) => (name === "bias" ? 6 : name === "logChars" ? -12 : 0));
		const off: BlockModel = { weights, threshold: 2 };
		const { root, stats } = content();
		expect(await regexCalls("test", () => expect(dropBoilerplate(root, stats, off)).toBe(0))).toEqual([]);
		// A short line after the article asks the trailing lines' pass (extract-left-out.ts) for the model's judgement.
		const html = `<html><head><title>Tide</title></head><body><article><h1>Tide</h1><p>${prose("tide")}</p>
<p>${prose("wind")}</p><p>${prose("rain")}</p><p>Recipe and photos by Ada Byron</p></article></body></html>`;
		const url = "https://gazette.example/tide";
		const convert = (model: BlockModel | null) => () => convertHtml(html, url, {}, { model }).markdown;
		await regexCalls("test", convert(null));
		const none = await regexCalls("test", convert(null));
		const over = await regexCalls("test", convert(off));
		expect(over.length).toBeGreaterThan(0);
		expect(over).toEqual(none);
		expect(convert(off)()).toBe(convert(null)());
	});

	it("fits the same weights from the same blocks, and they separate what the labels separate", () => {
		const n = BLOCK_FEATURES.length;
		const row = (short: number, label: number) => ({
			features: BLOCK_FEATURES.map((name, j) => (j === 0 ? 1 : name === "short" ? short : 0)),
			label,
		});
		const rows = [...Array.from({ length: 20 }, () => row(1, 1)), ...Array.from({ length: 20 }, () => row(0, 0))];
		const first = fitLogistic(rows);
		expect(fitLogistic(rows)).toEqual(first);
		expect(first).toHaveLength(n);
		expect(first[BLOCK_FEATURES.indexOf("short")]).toBeGreaterThan(1);
	});

	it("the fit's threshold is the one with the best mean plus worst fold among those not lowering the worst fold", () => {
		const folds = (...f1: number[]) => f1.map((f) => ({ f1: f }));
		const before = folds(0.93, 0.92);
		const judged = [
			{ threshold: 0.45, folds: folds(0.94, 0.93) },
			// A higher mean bought with a lower worst fold.
			{ threshold: 0.5, folds: folds(0.95, 0.925) },
			{ threshold: 0.55, folds: folds(0.99, 0.91) },
		];
		expect(chooseThreshold(before, judged)).toBe(0.45);
		expect(chooseThreshold(before, [judged[2]!])).toBeUndefined();
	});
});
