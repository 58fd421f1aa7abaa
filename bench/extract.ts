// Scenario "extract": main-content quality on the development corpus (real pages with keep/drop annotations),
// ours (htmlToMarkdown rendered to the reader's text) against Readability alone (`textContent`) in the same run:
// precision, recall, F1 on a tuning part and a held-out 30%, pages per second, characters shown per character of
// the reader's text (links as numbered references, and inline) and the worst pages.
// The corpus is optional: EXTRACT_CORPUS, else a corpora folder beside the repository; absent → a note, no failure.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { withReferenceList } from "../engine/link-references.ts";
import { decodeBody } from "../providers/direct/charset.ts";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";
import {
	addCounts,
	type Counts,
	emptyCounts,
	markdownToText,
	REFERENCE_LIST_LINE,
	type Scores,
	scorePage,
	scores,
} from "./extract-score.ts";
import { round, type ScenarioReport } from "./stats.ts";

interface Annotation {
	url: string;
	with: string[];
	without: string[];
}

interface Side {
	all: Scores;
	tune: Scores;
	holdout: Scores;
	pagesPerSec: number;
}

export interface ExtractNumbers {
	pages: number;
	ours: Side;
	readability?: Side;
	/** Characters shown in the default links mode (markdown, reference list included) per character of the reader's text. */
	markupRatio: number;
	/** The same without the reference list after the text. */
	markupRatioBody: number;
	/** The same with links inline (`links: "inline"`, no list). */
	markupRatioInline: number;
	worst: { page: string; url: string; fp: number; fn: number }[];
}

export type ExtractReport = ScenarioReport<ExtractNumbers | { available: false }>;

export const EXTRACT_BENCH_DEFAULTS = { holdoutPercent: 30, worstPages: 8, goalF1: 0.92, goalMarkupRatio: 1.1 };

/** The corpus folder: EXTRACT_CORPUS, else the optional corpora checkout beside the repository. */
export function corpusDir(): string {
	return process.env.EXTRACT_CORPUS ?? join(import.meta.dirname, "..", "..", "shared", "corpora", "trafilatura-eval");
}

/** A fixed 30% of the pages, chosen by a hash of the file name, is held out of tuning. */
export function isHeldOut(name: string): boolean {
	let hash = 0x811c9dc5;
	for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193) >>> 0;
	return hash % 100 < EXTRACT_BENCH_DEFAULTS.holdoutPercent;
}

interface Run {
	all: Counts;
	tune: Counts;
	holdout: Counts;
	ms: number;
}

const newRun = (): Run => ({ all: emptyCounts(), tune: emptyCounts(), holdout: emptyCounts(), ms: 0 });

function record(run: Run, name: string, counts: Counts): void {
	addCounts(run.all, counts);
	addCounts(isHeldOut(name) ? run.holdout : run.tune, counts);
}

function side(run: Run, pages: number): Side {
	const fix = (s: Scores): Scores => ({ precision: round(s.precision), recall: round(s.recall), f1: round(s.f1) });
	return {
		all: fix(scores(run.all)),
		tune: fix(scores(run.tune)),
		holdout: fix(scores(run.holdout)),
		pagesPerSec: round(pages / (run.ms / 1000)),
	};
}

async function readabilityText(html: string): Promise<string> {
	const [{ parseHTML }, { Readability }] = await Promise.all([import("linkedom"), import("@mozilla/readability")]);
	const { document } = parseHTML(html) as unknown as { document: Document };
	try {
		return new Readability(document).parse()?.textContent ?? "";
	} catch {
		return "";
	}
}

export async function benchExtract(options: { dir?: string; baseline?: boolean } = {}): Promise<ExtractReport> {
	const dir = options.dir ?? corpusDir();
	const file = join(dir, "annotations.json");
	if (!existsSync(file)) {
		const note = `extract: no corpus at ${dir} (set EXTRACT_CORPUS to a folder with annotations.json and html/); skipped`;
		return { numbers: { available: false }, rows: [], goals: [], notes: [note] };
	}
	const annotations = JSON.parse(readFileSync(file, "utf8")) as Record<string, Annotation>;
	const ours = newRun();
	const base = newRun();
	const perPage: { page: string; url: string; fp: number; fn: number }[] = [];
	let shown = 0;
	let shownBody = 0;
	let shownInline = 0;
	let text = 0;
	let pages = 0;
	for (const [name, note] of Object.entries(annotations)) {
		const path = join(dir, "html", name);
		if (!existsSync(path)) continue;
		pages++;
		const html = (await decodeBody(gunzipSync(readFileSync(path)), "text/html", true)).text;
		let started = performance.now();
		const markdown = await htmlToMarkdown(html, note.url).then(
			(page) => withReferenceList(page.markdown, page.references),
			() => "",
		);
		ours.ms += performance.now() - started;
		const plain = markdownToText(markdown);
		shown += markdown.length;
		shownBody += markdown.replace(REFERENCE_LIST_LINE, "").trimEnd().length;
		shownInline += await htmlToMarkdown(html, note.url, { links: "inline" }).then(
			(page) => page.markdown.length,
			() => 0,
		);
		text += plain.replace(/\s+/g, " ").trim().length;
		const counts = scorePage(plain, note.with, note.without);
		record(ours, name, counts);
		perPage.push({ page: name, url: note.url, fp: counts.fp, fn: counts.fn });
		if (options.baseline === false) continue;
		started = performance.now();
		const baseText = await readabilityText(html);
		base.ms += performance.now() - started;
		record(base, name, scorePage(baseText, note.with, note.without));
	}
	const numbers: ExtractNumbers = {
		pages,
		ours: side(ours, pages),
		...(options.baseline === false ? {} : { readability: side(base, pages) }),
		markupRatio: round(shown / (text || 1), 4),
		markupRatioBody: round(shownBody / (text || 1), 4),
		markupRatioInline: round(shownInline / (text || 1), 4),
		worst: perPage.sort((a, b) => b.fp + b.fn - (a.fp + a.fn)).slice(0, EXTRACT_BENCH_DEFAULTS.worstPages),
	};
	return { numbers, rows: [], goals: goals(numbers), notes: notesOf(numbers) };
}

function describe(name: string, s: Side): string {
	const part = (label: string, x: Scores) => `${label} P ${x.precision} R ${x.recall} F1 ${x.f1}`;
	return `${name}: ${part("all", s.all)}; ${part("tune", s.tune)}; ${part("held-out", s.holdout)}; ${s.pagesPerSec} pages/s`;
}

function goals(n: ExtractNumbers) {
	const { goalF1, goalMarkupRatio } = EXTRACT_BENCH_DEFAULTS;
	return [
		{ goal: `extraction F1 ≥ ${goalF1} (corpus)`, measured: `F1 ${n.ours.all.f1}`, met: n.ours.all.f1 >= goalF1 },
		{
			goal: `characters shown ≤ ${goalMarkupRatio}× the reader's text (default links mode, reference list included)`,
			measured: `${n.markupRatio}× (${n.markupRatioBody}× without the list)`,
			met: n.markupRatio <= goalMarkupRatio,
		},
	];
}

function notesOf(n: ExtractNumbers): string[] {
	const worst = n.worst.map((w) => `${w.page} fp ${w.fp} fn ${w.fn} ${w.url}`).join("; ");
	return [
		`extract: ${n.pages} pages; ${describe("ours", n.ours)}`,
		...(n.readability ? [`extract: ${describe("readability", n.readability)}`] : []),
		`extract: characters shown per character of the reader's text: ${n.markupRatio}× with links as references, ${n.markupRatioInline}× inline`,
		`extract: worst pages: ${worst}`,
	];
}
