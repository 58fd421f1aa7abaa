// Fits the per-block boilerplate model (providers/direct/block-model.ts) and judges it by site-grouped folds: for
// each fold, a logistic model fit on the other folds' edge blocks is applied to its pages, scored as the extraction
// scenario scores them (bench/extract.ts), before and after. The frozen split is never read. `--write` fits on every
// open fold and writes providers/direct/block-weights.ts with the threshold that won (chooseThreshold), or none (the
// model stays off). Run: EXTRACT_CORPUS=<dir> npx node bench/extract-blocks.ts [--write]

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { withReferenceList } from "../engine/link-references.ts";
import { BLOCK_FEATURES, type BlockModel } from "../providers/direct/block-model.ts";
import { BLOCK_WEIGHTS } from "../providers/direct/block-weights.ts";
import { decodeBody } from "../providers/direct/charset.ts";
import { convertHtml } from "../providers/direct/extract-page.ts";
import { assignFolds, corpusDirs, isFrozenSite, siteOf } from "./extract-cv.ts";
import { addCounts, type Counts, emptyCounts, markdownToText, normalise, scorePage, scores } from "./extract-score.ts";
import { round } from "./stats.ts";

export const FIT_DEFAULTS = {
	/** L2 penalty of the logistic fit. */
	l2: 1e-3,
	iterations: 400,
	learningRate: 0.5,
	/** Thresholds on the boilerplate probability the folds are judged at. */
	thresholds: [0.35, 0.4, 0.45, 0.5, 0.55],
	/** A block shorter than this is labelled only by a snippet it holds (never by one that holds it). */
	labelChars: 20,
};

interface Row {
	features: number[];
	/** 1 boilerplate (holds a snippet to drop), 0 content (holds a snippet to keep). */
	label: number;
}

interface OpenPage {
	url: string;
	html: string;
	keep: string[];
	drop: string[];
	fold: number;
	rows: Row[];
}

function label(text: string, keep: readonly string[], drop: readonly string[]): number | undefined {
	const holds = (snippet: string) =>
		text.includes(snippet) || (text.length >= FIT_DEFAULTS.labelChars && snippet.includes(text));
	const content = keep.some((s) => holds(normalise(s)));
	const boilerplate = drop.some((s) => holds(normalise(s)));
	return content === boilerplate ? undefined : boilerplate ? 1 : 0;
}

async function openPages(dirs = corpusDirs()): Promise<OpenPage[]> {
	const loaded: Omit<OpenPage, "fold">[] = [];
	for (const dir of dirs.filter((d) => existsSync(join(d, "annotations.json")))) {
		const notes = JSON.parse(readFileSync(join(dir, "annotations.json"), "utf8")) as Record<
			string,
			{ url: string; with: string[]; without: string[] }
		>;
		for (const [name, note] of Object.entries(notes)) {
			if (isFrozenSite(siteOf(note.url))) continue;
			const path = join(dir, "html", name);
			if (!existsSync(path)) continue;
			const raw = readFileSync(path);
			const html = (await decodeBody(name.endsWith(".gz") ? gunzipSync(raw) : raw, "text/html", true)).text;
			const rows: Row[] = [];
			try {
				convertHtml(
					html,
					note.url,
					{},
					{
						model: null,
						collect: (blocks) => {
							for (const block of blocks) {
								if (!block.edge) continue;
								const y = label(block.text, note.with, note.without);
								if (y !== undefined) rows.push({ features: block.features, label: y });
							}
						},
					},
				);
			} catch {}
			loaded.push({ url: note.url, html, keep: note.with, drop: note.without, rows });
		}
	}
	const folds = assignFolds(loaded.map((page) => siteOf(page.url)));
	return loaded.map((page) => ({ ...page, fold: folds.get(siteOf(page.url))! }));
}

/** Full-batch gradient descent on the log loss with an L2 penalty (bias not penalised), from zeros: reproducible. */
export function fitLogistic(rows: readonly Row[]): number[] {
	const n = BLOCK_FEATURES.length;
	const w = new Array<number>(n).fill(0);
	for (let step = 0; step < FIT_DEFAULTS.iterations; step++) {
		const grad = new Array<number>(n).fill(0);
		for (const row of rows) {
			let z = 0;
			for (let j = 0; j < n; j++) z += w[j]! * row.features[j]!;
			const error = 1 / (1 + Math.exp(-z)) - row.label;
			for (let j = 0; j < n; j++) grad[j]! += error * row.features[j]!;
		}
		for (let j = 0; j < n; j++) {
			const penalty = j === 0 ? 0 : FIT_DEFAULTS.l2 * w[j]!;
			w[j]! -= FIT_DEFAULTS.learningRate * (grad[j]! / (rows.length || 1) + penalty);
		}
	}
	return w;
}

function score(pages: readonly OpenPage[], model: BlockModel | null): Counts {
	const counts = emptyCounts();
	for (const page of pages) {
		let text = "";
		try {
			const out = convertHtml(page.html, page.url, {}, { model });
			text = markdownToText(withReferenceList(out.markdown, out.references));
		} catch {}
		addCounts(counts, scorePage(text, page.keep, page.drop));
	}
	return counts;
}

const fixed = (c: Counts) => {
	const s = scores(c);
	return { p: round(s.precision), r: round(s.recall), f1: round(s.f1) };
};

const meanOf = (list: readonly { f1: number }[]) => round(list.reduce((sum, x) => sum + x.f1, 0) / list.length);
const worstOf = (list: readonly { f1: number }[]) => Math.min(...list.map((x) => x.f1));

/**
 * The threshold the folds choose: among those that raise the mean F1 over the model off without lowering the worst
 * fold, the one with the highest mean plus worst fold (the goal is judged by both; the lower threshold on a tie).
 */
export function chooseThreshold(
	before: readonly { f1: number }[],
	judged: readonly { threshold: number; folds: readonly { f1: number }[] }[],
): number | undefined {
	let best: { threshold: number; score: number } | undefined;
	for (const { threshold, folds } of judged) {
		if (meanOf(folds) <= meanOf(before) || worstOf(folds) < worstOf(before)) continue;
		const score = round(meanOf(folds) + worstOf(folds), 4);
		if (!best || score > best.score || (score === best.score && threshold < best.threshold))
			best = { threshold, score };
	}
	return best?.threshold;
}

/**
 * F1 by open fold at the committed threshold, each fold scored with weights fit on the other folds only: the held-out
 * figure the extraction goal is judged on (the committed weights were fit on every open fold).
 */
export async function heldOutFolds(
	dirs?: string[],
	threshold = BLOCK_WEIGHTS.threshold,
): Promise<{ meanF1: number; worstF1: number; folds: number[] }> {
	const folds = foldFits(await openPages(dirs)).map(({ held, weights }) => fixed(score(held, { weights, threshold })));
	return { meanF1: meanOf(folds), worstF1: worstOf(folds), folds: folds.map((fold) => fold.f1) };
}

/** Each open fold's pages with the weights fit on the other folds' blocks only. */
function foldFits(pages: readonly OpenPage[]): { held: OpenPage[]; weights: number[] }[] {
	const fits: { held: OpenPage[]; weights: number[] }[] = [];
	for (let k = 0; pages.some((page) => page.fold === k); k++) {
		const weights = fitLogistic(pages.filter((page) => page.fold !== k).flatMap((page) => page.rows));
		fits.push({ held: pages.filter((page) => page.fold === k), weights });
	}
	return fits;
}

async function main(): Promise<void> {
	const pages = await openPages();
	const rows = pages.flatMap((page) => page.rows);
	console.log(
		`${pages.length} open pages, ${rows.length} labelled blocks (${rows.filter((r) => r.label).length} boilerplate)`,
	);
	const table: Record<string, ReturnType<typeof fixed>[]> = { before: [] };
	for (const t of FIT_DEFAULTS.thresholds) table[`t${t}`] = [];
	for (const { held, weights } of foldFits(pages)) {
		table.before!.push(fixed(score(held, null)));
		for (const threshold of FIT_DEFAULTS.thresholds)
			table[`t${threshold}`]!.push(fixed(score(held, { weights, threshold })));
	}
	for (const [name, list] of Object.entries(table)) {
		const folds = list.map((x) => `P ${x.p} R ${x.r} F1 ${x.f1}`).join(" | ");
		console.log(`${name}: mean F1 ${meanOf(list)} worst ${worstOf(list)} :: ${folds}`);
	}
	const { before, ...judged } = table;
	const best = chooseThreshold(
		before!,
		Object.entries(judged).map(([name, folds]) => ({ threshold: Number(name.slice(1)), folds })),
	);
	console.log(best !== undefined ? `chosen threshold ${best}` : "no threshold wins on the folds: the model stays off");
	if (process.argv.includes("--write")) {
		const weights = fitLogistic(rows).map((w) => round(w, 4));
		const file = join(import.meta.dirname, "..", "providers", "direct", "block-weights.ts");
		const head = readFileSync(file, "utf8").split("export const")[0];
		const body = `export const BLOCK_WEIGHTS: BlockModel = {\n\t// ${BLOCK_FEATURES.join(", ")}\n\tweights: [${weights.join(", ")}],\n\tthreshold: ${best ?? 2},\n};\n`;
		writeFileSync(file, head + body);
		console.log(`wrote ${file}`);
	}
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
