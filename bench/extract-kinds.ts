// Scenario "extract-kinds": the non-article dev set (bench/fixtures/extract-kinds/, made by
// bench/extract-kinds-corpus.ts) scored per page kind by the development corpus's snippet method (bench/extract-score.ts):
// ours (htmlToMarkdown rendered to the reader's text) against Readability alone, and which way ours read each page.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { withReferenceList } from "../engine/link-references.ts";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";
import { readabilityText } from "./extract.ts";
import { KINDS_DIR } from "./extract-kinds-corpus.ts";
import { addCounts, type Counts, emptyCounts, markdownToText, scorePage, scores } from "./extract-score.ts";
import { round, type ScenarioReport } from "./stats.ts";

interface Annotation {
	url: string;
	kind: string;
	with: string[];
	without: string[];
}

export interface KindFigures {
	pages: number;
	ours: { precision: number; recall: number; f1: number };
	readability: { precision: number; recall: number; f1: number };
	/** Pages ours read as their own kind (the extraction's `extractedAs`). */
	detected: number;
}

export async function benchExtractKinds(dir = KINDS_DIR): Promise<ScenarioReport<Record<string, KindFigures>>> {
	const annotations = JSON.parse(readFileSync(join(dir, "annotations.json"), "utf8")) as Record<string, Annotation>;
	const runs = new Map<string, { ours: Counts; base: Counts; pages: number; detected: number }>();
	for (const [name, note] of Object.entries(annotations)) {
		const html = gunzipSync(readFileSync(join(dir, "html", name))).toString("utf8");
		const run = runs.get(note.kind) ?? { ours: emptyCounts(), base: emptyCounts(), pages: 0, detected: 0 };
		runs.set(note.kind, run);
		const page = await htmlToMarkdown(html, note.url);
		const text = markdownToText(withReferenceList(page.markdown, page.references));
		addCounts(run.ours, scorePage(text, note.with, note.without));
		addCounts(run.base, scorePage(await readabilityText(html), note.with, note.without));
		run.pages++;
		if (page.extractedAs === note.kind) run.detected++;
	}
	const numbers: Record<string, KindFigures> = {};
	const fix = (c: Counts) => {
		const s = scores(c);
		return { precision: round(s.precision), recall: round(s.recall), f1: round(s.f1) };
	};
	for (const [kind, run] of runs) {
		numbers[kind] = { pages: run.pages, ours: fix(run.ours), readability: fix(run.base), detected: run.detected };
	}
	const notes = Object.entries(numbers).map(
		([kind, n]) =>
			`extract-kinds: ${kind} (${n.pages} pages, ${n.detected} read as ${kind}): ours F1 ${n.ours.f1} (P ${n.ours.precision} R ${n.ours.recall}), readability F1 ${n.readability.f1} (P ${n.readability.precision} R ${n.readability.recall})`,
	);
	return { numbers, rows: [], goals: [], notes };
}
