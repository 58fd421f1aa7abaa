// Main-content selection on the element tree: page chrome is pruned (navigation, asides, hidden elements, boxes
// named like share bars, newsletters, comments, cookie notes), text blocks are weighed by length and link density
// (in the manner of jusText), and the element with the largest sum of weights is the main content. Linear passes.

import { type ArticleBody, coverage, inArticleBody } from "./article-body.ts";
import { besideContent, ledeBefore, withBeside } from "./beside-content.ts";
import { type BlockModel, type BlockRow, blockRows, dropBoilerplate, judgedContent } from "./block-model.ts";
import { namesContent } from "./chrome-rules.ts";
import type { El } from "./dom-types.ts";
import { dropLabels } from "./extract-labels.ts";
import { dropLinkLists, dropTrailing, type LeftOut } from "./extract-left-out.ts";
import { chromeIn, remeasure, type Stats, WEIGHT_RULES } from "./extract-measure.ts";

export const EXTRACT_WEIGHTS = {
	...WEIGHT_RULES,
	/** An element holding this share of the page's non-link text is never pruned as chrome. */
	protectShare: 0.5,
	/**
	 * Inside the main content, a box named like inner chrome (a byline, a widget, a paywall wrapper) is removed only
	 * when it holds at most this share of the content's prose weight: more, and it is a wrapper of the article.
	 */
	innerProseShare: 0.2,
	/** An element named as the article (`<article>`, `<main>`, `entry-content`, …) weighs this many times more. */
	contentNameBonus: 2,
	/** The chosen content holds "most" of a declared `articleBody` from this share of its sentences. */
	bodyCovered: 0.5,
	/** Widening to an ancestor must add at least this share of `articleBody`'s sentences. */
	widenGain: 0.25,
	/** How many levels up the chosen content may be widened. */
	widenLevels: 6,
	/**
	 * An element with more text than this many times `articleBody`'s is not looked up in it (it is not one of its
	 * boxes or blocks): what a page with a declared body costs stays bounded by that body's length.
	 */
	bodyTextFactor: 4,
};

export interface Extraction {
	root: El;
	/** False when no element held content-like text and the whole (pruned) body is used. */
	found: boolean;
	/** Short lines after the article that were left out (labels, prompts, sign-offs). */
	leftOut: LeftOut;
}

/** The per-block pass of an extraction: the model (none: no block dropped) and, for its fit, who reads the blocks. */
export interface BlockPass {
	model: BlockModel | null;
	collect?: (rows: BlockRow[]) => void;
}

/**
 * Chooses the main content of `body`, pruning chrome in place; `elements` is every element by id (dom.ts).
 * `stats`: the page's figures already measured on this unpruned tree (page-kind.ts), taken over and changed here.
 * `declared`: the page's JSON-LD `articleBody`, which confirms or widens the choice; `blocks`: the per-block model.
 */
export function extractMain(
	body: El,
	elements: readonly El[],
	stats: Stats,
	declared: ArticleBody | undefined,
	blocks: BlockPass,
): Extraction {
	const chrome = chromeOf(elements, stats);
	remeasure(prune(body, stats, chrome, nonLink(stats, body), false), elements, stats);
	let best = body;
	let bestScore = 0;
	/** 1 for an element named as the article (`namesContent`) and alone so among its siblings. */
	const named = new Uint8Array(elements.length);
	const stack: El[] = [body];
	while (stack.length > 0) {
		const element = stack.pop()!;
		const score = stats.score[element.id]! * (named[element.id] === 1 ? EXTRACT_WEIGHTS.contentNameBonus : 1);
		// Pre-order: on a tie the descendant (seen later) wins, so no chrome beside it comes along.
		if (score > 0 && score >= bestScore) {
			best = element;
			bestScore = score;
		}
		// An element holding no block (a paragraph, a link) has only inline children, which weigh nothing (own weight
		// is a block's) and are never named as the article: its children are most of the page's, and none can win.
		if (!element.hasBlock) continue;
		let first: El | undefined;
		let count = 0;
		for (const child of element.children) {
			if (typeof child === "string") continue;
			stack.push(child);
			if (namesContent(child)) {
				first = child;
				count++;
			}
		}
		// One article among siblings is the article; several (teasers, a page's content blocks) are parts of it.
		if (count === 1) named[first!.id] = 1;
	}
	if (bestScore <= 0) return { root: body, found: false, leftOut: { count: 0, lists: 0 } };
	bestScore = stats.score[best.id]!;
	// A single text block is never the whole article: when its container weighs the same (the rest is headings
	// and short paragraphs, weight 0), the container is the main content, so its title and closing lines stay.
	while (stats.own[best.id]! > 0 && best.parent && best.parent !== body && stats.score[best.parent.id] === bestScore) {
		best = best.parent;
	}
	// The page's declared article text confirms or extends the choice: blocks it holds are kept from the inner
	// pruning, the labels and the trailing lines. Not from the link lists: on the development corpus's folds, the
	// related-reading lists many sites put into `articleBody` cost more precision than the kept lists won recall.
	const boxed = (element: El) =>
		declared !== undefined && stats.chars[element.id]! <= declared.text.length * EXTRACT_WEIGHTS.bodyTextFactor;
	if (declared) best = widened(best, body, declared, boxed);
	const keep = declared ? (element: El) => boxed(element) && inArticleBody(declared, element) : undefined;
	remeasure(prune(best, stats, chrome, nonLink(stats, best), true, keep), elements, stats);
	const leftOut: LeftOut = { count: 0, lists: 0 };
	dropLinkLists(best, stats, leftOut);
	dropLabels(best, stats, leftOut, keep);
	const model = blocks.model;
	/** The article's block rows as the model judged them for the trailing lines, while the tree is as it was. */
	let rows: BlockRow[] | undefined;
	const trimmed = dropTrailing(best, stats, leftOut, () => {
		// The block model's judgement is one more pass over the article's blocks: made only for a page with short
		// blocks after its last content block.
		if (!model || model.threshold > 1) return keep;
		rows = blockRows(best, stats);
		const judged = judgedContent(rows, model);
		return (element) => judged.has(element) || !!keep?.(element);
	});
	if (trimmed) rows = undefined;
	if (blocks.collect) {
		rows ??= blockRows(best, stats);
		blocks.collect(rows);
	}
	if (model) leftOut.count += dropBoilerplate(best, stats, model, keep, rows);
	const beside = besideContent(body, best);
	const lede = ledeBefore(body, best);
	if (lede && !beside.includes(lede)) beside.push(lede);
	return { root: beside.length > 0 ? withBeside(best, beside) : best, found: true, leftOut };
}

/**
 * The chosen content widened to the nearest ancestor holding most of the page's declared `articleBody` when it
 * holds little of it (a page whose article is split into boxes, one of them chosen); at most a few levels up.
 */
function widened(best: El, body: El, declared: ArticleBody, boxed: (element: El) => boolean): El {
	if (!boxed(best)) return best;
	const have = coverage(declared, best);
	if (have >= EXTRACT_WEIGHTS.bodyCovered) return best;
	let at = best;
	for (let level = 0; level < EXTRACT_WEIGHTS.widenLevels && at.parent && at !== body; level++) {
		at = at.parent;
		if (!boxed(at)) return best;
		if (coverage(declared, at) >= Math.max(EXTRACT_WEIGHTS.bodyCovered, have + EXTRACT_WEIGHTS.widenGain)) return at;
	}
	return best;
}

function nonLink(stats: Stats, element: El): number {
	return stats.chars[element.id]! - stats.linkChars[element.id]!;
}

/** The elements named or placed as chrome (`chromeStrength`), in document order; stats keeps each one's strength. */
function chromeOf(elements: readonly El[], stats: Stats): El[] {
	const chrome: El[] = [];
	for (let id = 1; id < elements.length; id++) {
		const element = elements[id]!;
		if (chromeIn(stats, element) !== undefined) chrome.push(element);
	}
	return chrome;
}

/**
 * Removes chrome elements under `root` (page chrome only, or inner chrome too), except those holding most of the
 * root's non-link text (a page wrapped in a form). Only chrome elements are looked at, and each is removed when
 * still attached under `root`: what a walk down from `root` would remove. Returns the elements that lost children.
 */
function prune(
	root: El,
	stats: Stats,
	chrome: El[],
	pageText: number,
	inner: boolean,
	keep?: (element: El) => boolean,
): El[] {
	const parents = new Set<El>();
	const limit = pageText * EXTRACT_WEIGHTS.protectShare;
	for (const element of chrome) {
		if (element.id <= root.id || element.removed) continue;
		const isInner = chromeIn(stats, element) === "inner";
		if (isInner && !(inner && !wrapsContent(element, stats, root))) continue;
		if (nonLink(stats, element) >= limit || !attachedUnder(element, root)) continue;
		if (keep?.(element)) continue;
		element.removed = true;
		parents.add(element.parent!);
	}
	// Arrays are rebuilt only where something goes: most elements keep theirs (less garbage on big pages).
	for (const parent of parents) {
		parent.children = parent.children.filter((child) => typeof child === "string" || !child.removed);
	}
	return [...parents];
}

/** True when no ancestor of `element` up to `root` was removed (and `root` is one of its ancestors). */
function attachedUnder(element: El, root: El): boolean {
	for (let at = element.parent; at; at = at.parent) {
		if (at === root) return true;
		if (at.removed) return false;
	}
	return false;
}

/**
 * An inner-chrome name on an element that holds content blocks with a fair share of the content's prose is a
 * wrapper of the article (`elementor-widget`, `paywall-container`), not a byline or a note.
 */
function wrapsContent(element: El, stats: Stats, root: El): boolean {
	if (!element.hasBlock || stats.own[element.id]! > 0) return false;
	return stats.score[element.id]! > stats.score[root.id]! * EXTRACT_WEIGHTS.innerProseShare;
}
