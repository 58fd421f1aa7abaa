// Scoring of main-content extraction by the development corpus's method: snippets a page must keep ("with") and
// must drop ("without") are looked up in the whitespace-normalised text a reader sees; counts are summed over pages.
// Also the markdown → reader's text rendering that the scoring (and the markup ratio) is measured on.

import { PATHS_LINE } from "../engine/link-references.ts";

/** True and false positives and negatives of one page or of a whole run. */
export interface Counts {
	tp: number;
	fp: number;
	fn: number;
	tn: number;
}

export interface Scores {
	precision: number;
	recall: number;
	f1: number;
}

export const emptyCounts = (): Counts => ({ tp: 0, fp: 0, fn: 0, tn: 0 });

export function addCounts(total: Counts, page: Counts): void {
	total.tp += page.tp;
	total.fp += page.fp;
	total.fn += page.fn;
	total.tn += page.tn;
}

export function normalise(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

/** Scores one page's extracted text (already rendered to plain text) against its annotation. */
export function scorePage(text: string, keep: readonly string[], drop: readonly string[]): Counts {
	const haystack = normalise(text);
	const counts = emptyCounts();
	for (const snippet of keep) {
		if (haystack.includes(normalise(snippet))) counts.tp++;
		else counts.fn++;
	}
	for (const snippet of drop) {
		if (haystack.includes(normalise(snippet))) counts.fp++;
		else counts.tn++;
	}
	return counts;
}

export function scores(counts: Counts): Scores {
	const precision = counts.tp / (counts.tp + counts.fp || 1);
	const recall = counts.tp / (counts.tp + counts.fn || 1);
	const f1 = (2 * counts.tp) / (2 * counts.tp + counts.fp + counts.fn || 1);
	return { precision, recall, f1 };
}

/** A line of the reference list after the text: `[3]: https://…`, `[4]: /path`, or the line naming the paths' site. */
export const REFERENCE_LIST_LINE = new RegExp(`^\\[\\d+\\]: .*$|${PATHS_LINE.source}`, "gm");

/**
 * Markdown as a reader sees it rendered: link and image targets, reference definitions, emphasis and code marks,
 * heading and quote markers, table pipes and backslash escapes removed. List markers stay (a reader sees bullets).
 */
export function markdownToText(markdown: string): string {
	return markdown
		.replace(/^```+.*$/gm, "")
		.replace(REFERENCE_LIST_LINE, "")
		.replace(/!?\[((?:\\.|[^\]\\])*)\]\((?:[^()\s]|\([^()]*\))*\)/g, "$1")
		.replace(/!?\[((?:\\.|[^\]\\])*)\]\[\d+\]/g, "$1")
		.replace(/^#{1,6} /gm, "")
		.replace(/^(?:> ?)+/gm, "")
		.replace(/^\|(?: -+ \|)+$/gm, "")
		.replace(/(^|\s)\|(?=\s|$)/gm, "$1")
		.replace(/\*\*|__|(?<![\w\\])[_*](?=\S)|(?<=\S)[_*](?!\w)|`/g, "")
		.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1");
}
