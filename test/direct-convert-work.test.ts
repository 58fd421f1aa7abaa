// What converting a big page does beside its result: the work the conversion pays per element and per text,
// guarded by counts of the regex calls it makes (bench/fetch.ts times the 1 MB page through the worker).

import { describe, expect, it } from "vitest";
import { scaledCorpus } from "../bench/fetch.ts";
import { isBlank } from "../providers/direct/dom-text.ts";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";
import { regexCalls } from "./helpers/regex-calls.ts";

const regexTests = (run: () => Promise<unknown>) => regexCalls("test", run);

describe("converting a big page", () => {
	it("judges each element's chrome once: an inline style is read once, though the kind and article readings ask", async () => {
		const sections = 200;
		const section = (i: number) =>
			`<div style="color: #${i}0${i}">\n  <h2>Part ${i}</h2>\n  <p>Paragraph ${i} of the story, long enough to read as prose. It has sentences, and commas.</p>\n</div>\n` +
			`<div style="display: none"><p>Hidden note ${i}, never shown to a reader of the page.</p></div>\n`;
		const html = `<html><body><article>\n${Array.from({ length: sections }, (_, i) => section(i)).join("")}</article></body></html>`;
		let markdown = "";
		const calls = await regexTests(async () => {
			markdown = (await htmlToMarkdown(html, "https://example.com/story")).markdown;
		});
		// The hidden boxes are still taken out and the shown ones kept: the style was read, once.
		expect(markdown).toContain("Paragraph 199 of the story");
		expect(markdown).not.toContain("Hidden note");
		const styles = calls.filter((call) => call.source.includes("display") && call.text.startsWith("color"));
		expect(styles).toHaveLength(sections);
	});

	it("tests no whitespace-only text with a regex: the spaces between the blocks of the bench's page", async () => {
		const html = scaledCorpus(256 * 1024);
		const calls = await regexTests(() => htmlToMarkdown(html, "https://bench.example/page"));
		expect(calls.length).toBeGreaterThan(1000);
		expect(calls.filter((call) => call.text !== "" && isBlank(call.text))).toEqual([]);
	});
});

describe("the labels pass", () => {
	it("tests each short block against the stock phrases once, not once per phrase list", async () => {
		const rows = Array.from({ length: 100 }, (_, i) => `<tr><td>Name ${i}</td><td>Value ${i}</td></tr>`).join("\n");
		const prose = "A paragraph of the article, long enough to read as prose, with sentences. ".repeat(4);
		const html = `<html><body><article><h1>Story</h1><p>${prose}</p>\n<table>\n${rows}\n</table><p>${prose}</p></article></body></html>`;
		let markdown = "";
		const calls = await regexTests(async () => {
			markdown = (await htmlToMarkdown(html, "https://example.com/story")).markdown;
		});
		expect(markdown).toContain("| Name 99 | Value 99 |");
		// RELATED, STOCK, CREDIT and META_LINE (extract-labels.ts) each name one of these words.
		const phrases = calls.filter((call) => /related|about the author|fotos|aktualisiert/.test(call.source));
		const perText = new Map<string, number>();
		for (const call of phrases) perText.set(call.text, (perText.get(call.text) ?? 0) + 1);
		expect(perText.get("Name 42")).toBe(1);
		expect(Math.max(...perText.values())).toBe(1);
	});

	it("runs the photo-agency credit pattern only on a short block with a slash in it", async () => {
		const rows = Array.from({ length: 100 }, (_, i) => `<tr><td>Name ${i}</td><td>Value ${i}</td></tr>`).join("\n");
		const prose = "A paragraph of the article, long enough to read as prose, with sentences. ".repeat(4);
		const credit = "<p>Judy Eddy/WENN.com</p>";
		const html = `<html><body><article><h1>Story</h1><p>${prose}</p>\n<table>\n${rows}\n</table>${credit}<p>${prose}</p></article></body></html>`;
		let markdown = "";
		const calls = await regexTests(async () => {
			markdown = (await htmlToMarkdown(html, "https://example.com/story")).markdown;
		});
		expect(markdown).toContain("| Name 99 | Value 99 |");
		expect(markdown).not.toContain("WENN");
		// The pattern (AGENCY_CREDIT, extract-labels.ts) scans back and forth for the slash on every text it is given.
		const agency = calls.filter((call) => call.source.includes("getty images"));
		expect(agency.map((call) => call.text)).toEqual(["Judy Eddy/WENN.com"]);
	});
});

describe("isBlank", () => {
	it("reads a text as /\\S/ does, for every UTF-16 code unit alone and around text", () => {
		for (let code = 0; code <= 0xffff; code++) {
			const char = String.fromCharCode(code);
			for (const text of [char, `${char}${char}`, ` ${char}\n`, `${char}a`, `\t${char}`]) {
				if (isBlank(text) !== !/\S/.test(text))
					throw new Error(`isBlank disagrees with /\\S/ on U+${code.toString(16)}`);
			}
		}
		expect(isBlank("")).toBe(true);
		expect(isBlank(" \n\t\u00a0\u2003\u3000\ufeff")).toBe(true);
		expect(isBlank(" \n x")).toBe(false);
	});
});
