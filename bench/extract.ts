// Scenario "extract": main-content quality on annotated corpora (real pages with keep/drop annotations), ours
// (htmlToMarkdown rendered to the reader's text) against Readability alone (`textContent`) in the same run:
// precision, recall, F1 cross-validated by site and on a frozen split of sites (bench/extract-cv.ts), pages per
// second, characters shown per character of the reader's text (links as numbered references, and inline), the worst
// pages. Corpora are optional, named only by EXTRACT_CORPUS (folders joined by the path delimiter); none named or
// present → a note, no failure. The F1 goal is judged held out: block weights fit without the fold they score.

import { existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { withReferenceList } from "../engine/link-references.ts";
import { decodeBody } from "../providers/direct/charset.ts";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";
import { pageFacts } from "../providers/direct/page-types.ts";
import { pageHeader } from "../runtime/page-header.ts";
import { heldOutFolds } from "./extract-blocks.ts";
import {
	type CrossValidation,
	corpusDirs,
	crossValidate,
	type FrozenSplit,
	frozenSplit,
	isFrozenSite,
	type SitePage,
	siteOf,
} from "./extract-cv.ts";
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
	/** The sites outside the frozen split (the ones the folds are drawn from). */
	tune: Scores;
	/** The frozen split of sites (bench/extract-cv.ts). */
	holdout: Scores;
	pagesPerSec: number;
	/** Cross-validation by site over the sites outside the frozen split. */
	cv: CrossValidation;
	/** The frozen split's figure, with its size. */
	frozen: FrozenSplit;
}

export interface ExtractNumbers {
	pages: number;
	/** Each corpus folder read and its pages. */
	corpora: { dir: string; pages: number }[];
	/** Wall time of our conversions of every page (links as references), in seconds. */
	convertSeconds: number;
	ours: Side;
	readability?: Side;
	/**
	 * Characters shown in the default links mode (markdown, reference list and the metadata line included) per
	 * character of the reader's text.
	 */
	markupRatio: number;
	/** The same without the reference list after the text. */
	markupRatioBody: number;
	/** The same with links inline (`links: "inline"`, no list). */
	markupRatioInline: number;
	worst: { page: string; url: string; fp: number; fn: number }[];
	/**
	 * F1 by fold with each fold's block weights fit on the other folds only (bench/extract-blocks.ts): held out, where
	 * `ours.cv` scores every fold with the committed weights, fit on all of them. The goal is judged on this.
	 */
	heldOut: { meanF1: number; worstF1: number; folds: number[] };
}

export type ExtractReport = ScenarioReport<ExtractNumbers | { available: false }>;

export const EXTRACT_BENCH_DEFAULTS = { worstPages: 8, goalF1: 0.92, goalCvMeanF1: 0.94, goalMarkupRatio: 1.1 };

interface Run {
	all: Counts;
	pages: SitePage[];
	ms: number;
}

const newRun = (): Run => ({ all: emptyCounts(), pages: [], ms: 0 });

function record(run: Run, site: string, counts: Counts): void {
	addCounts(run.all, counts);
	run.pages.push({ site, counts });
}

function side(run: Run, pages: number): Side {
	const fix = (s: Scores): Scores => ({ precision: round(s.precision), recall: round(s.recall), f1: round(s.f1) });
	const frozen = frozenSplit(run.pages);
	const tune = emptyCounts();
	const cv = crossValidate(run.pages);
	for (const page of run.pages) if (!isFrozenSite(page.site)) addCounts(tune, page.counts);
	return {
		all: fix(scores(run.all)),
		tune: fix(scores(tune)),
		holdout: { precision: frozen.precision, recall: frozen.recall, f1: frozen.f1 },
		pagesPerSec: round(pages / (run.ms / 1000)),
		cv,
		frozen,
	};
}

export async function readabilityText(html: string): Promise<string> {
	const [{ parseHTML }, { Readability }] = await Promise.all([import("linkedom"), import("@mozilla/readability")]);
	const { document } = parseHTML(html) as unknown as { document: Document };
	try {
		return new Readability(document).parse()?.textContent ?? "";
	} catch {
		return "";
	}
}

/** `baseline: false` (or EXTRACT_BASELINE=off) leaves Readability out: a tuning run at several times the speed. */
export async function benchExtract(
	options: { dirs?: string[]; baseline?: boolean } = { baseline: process.env.EXTRACT_BASELINE !== "off" },
): Promise<ExtractReport> {
	const dirs = (options.dirs ?? corpusDirs()).filter((dir) => existsSync(join(dir, "annotations.json")));
	if (dirs.length === 0) {
		const wanted = (options.dirs ?? corpusDirs()).join(delimiter);
		const where = wanted ? `no corpus at ${wanted}` : "no corpus named";
		const note = `extract: ${where} (set EXTRACT_CORPUS to folders with annotations.json and html/); skipped`;
		return { numbers: { available: false }, rows: [], goals: [], notes: [note] };
	}
	const ours = newRun();
	const base = newRun();
	const perPage: { page: string; url: string; fp: number; fn: number }[] = [];
	const corpora: { dir: string; pages: number }[] = [];
	let shown = 0;
	let shownBody = 0;
	let shownInline = 0;
	let text = 0;
	let pages = 0;
	for (const dir of dirs) {
		const annotations = JSON.parse(readFileSync(join(dir, "annotations.json"), "utf8")) as Record<string, Annotation>;
		const before = pages;
		for (const [name, note] of Object.entries(annotations)) {
			const path = join(dir, "html", name);
			if (!existsSync(path)) continue;
			pages++;
			const raw = readFileSync(path);
			const bytes = name.endsWith(".gz") ? gunzipSync(raw) : raw;
			const html = (await decodeBody(bytes, "text/html", true)).text;
			const site = siteOf(note.url);
			let started = performance.now();
			const { markdown, header } = await htmlToMarkdown(html, note.url).then(
				(page) => ({
					markdown: withReferenceList(page.markdown, page.references),
					header: pageHeader({ ...pageFacts(page), title: page.title, url: note.url }),
				}),
				() => ({ markdown: "", header: undefined }),
			);
			ours.ms += performance.now() - started;
			const plain = markdownToText(markdown);
			// The model reads the page's metadata line too (runtime/page-header.ts).
			shown += markdown.length + (header ? header.length + 1 : 0);
			shownBody += markdown.replace(REFERENCE_LIST_LINE, "").trimEnd().length;
			shownInline += await htmlToMarkdown(html, note.url, { links: "inline" }).then(
				(page) => page.markdown.length,
				() => 0,
			);
			text += plain.replace(/\s+/g, " ").trim().length;
			const counts = scorePage(plain, note.with, note.without);
			record(ours, site, counts);
			perPage.push({ page: dirs.length > 1 ? join(dir, name) : name, url: note.url, fp: counts.fp, fn: counts.fn });
			if (options.baseline === false) continue;
			started = performance.now();
			const baseText = await readabilityText(html);
			base.ms += performance.now() - started;
			record(base, site, scorePage(baseText, note.with, note.without));
		}
		corpora.push({ dir, pages: pages - before });
	}
	const numbers: ExtractNumbers = {
		pages,
		corpora,
		convertSeconds: round(ours.ms / 1000),
		ours: side(ours, pages),
		...(options.baseline === false ? {} : { readability: side(base, pages) }),
		markupRatio: round(shown / (text || 1), 4),
		markupRatioBody: round(shownBody / (text || 1), 4),
		markupRatioInline: round(shownInline / (text || 1), 4),
		worst: perPage.sort((a, b) => b.fp + b.fn - (a.fp + a.fn)).slice(0, EXTRACT_BENCH_DEFAULTS.worstPages),
		heldOut: await heldOutFolds(dirs),
	};
	return { numbers, rows: [], goals: goals(numbers), notes: notesOf(numbers) };
}

function describe(name: string, s: Side): string {
	const part = (label: string, x: Scores) => `${label} P ${x.precision} R ${x.recall} F1 ${x.f1}`;
	const { cv, frozen } = s;
	const folds = cv.folds.map((fold) => fold.f1).join(", ");
	return (
		`${name}: ${part("all", s.all)}; by site, ${cv.folds.length}-fold: F1 mean ${cv.meanF1} worst ${cv.worstF1}, ` +
		`P mean ${cv.meanPrecision} worst ${cv.worstPrecision}, R mean ${cv.meanRecall} worst ${cv.worstRecall} ` +
		`(folds ${folds}); frozen split (${frozen.sites} sites, ${frozen.pages} pages): ${part("", frozen).trim()}; ` +
		`${s.pagesPerSec} pages/s`
	);
}

function goals(n: ExtractNumbers) {
	const { goalF1, goalCvMeanF1, goalMarkupRatio } = EXTRACT_BENCH_DEFAULTS;
	const { cv } = n.ours;
	return [
		{ goal: `extraction F1 ≥ ${goalF1} (corpus)`, measured: `F1 ${n.ours.all.f1}`, met: n.ours.all.f1 >= goalF1 },
		{
			goal: `extraction F1 ≥ ${goalCvMeanF1}, mean of the folds by site`,
			measured:
				`held out (block weights fit without the fold): mean ${n.heldOut.meanF1}, worst fold ${n.heldOut.worstF1} ` +
				`(folds ${n.heldOut.folds.join(", ")}); ` +
				`with the committed weights, fit on every fold: mean ${cv.meanF1}, worst ${cv.worstF1}`,
			met: n.heldOut.meanF1 >= goalCvMeanF1,
		},
		{
			goal: `characters shown ≤ ${goalMarkupRatio}× the reader's text (default links mode, reference list included)`,
			measured: `${n.markupRatio}× (${n.markupRatioBody}× without the list)`,
			met: n.markupRatio <= goalMarkupRatio,
		},
	];
}

function notesOf(n: ExtractNumbers): string[] {
	const worst = n.worst.map((w) => `${w.page} fp ${w.fp} fn ${w.fn} ${w.url}`).join("; ");
	const corpora = n.corpora.map((c) => `${c.dir} (${c.pages})`).join(", ");
	return [
		`extract: ${n.pages} pages from ${corpora}, converted in ${n.convertSeconds} s; ${describe("ours", n.ours)}`,
		...(n.readability ? [`extract: ${describe("readability", n.readability)}`] : []),
		`extract: characters shown per character of the reader's text: ${n.markupRatio}× with links as references, ${n.markupRatioInline}× inline`,
		`extract: worst pages: ${worst}`,
	];
}
