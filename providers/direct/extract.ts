// Main-content selection on the element tree: page chrome is pruned (navigation, asides, hidden elements, boxes
// named like share bars, newsletters, comments, cookie notes), text blocks are weighed by length and link density
// (in the manner of jusText), and the element with the largest sum of weights is the main content. Linear passes.

import { besideContent, withBeside } from "./beside-content.ts";
import { chromeStrength, namesContent } from "./chrome-rules.ts";
import { BLOCKS, type El } from "./dom.ts";

export const EXTRACT_WEIGHTS = {
	/** A block whose share of link text is above this is navigation-like: it counts against its container. */
	maxLinkDensity: 0.5,
	/** Blocks at least this long (with little link text) are content. */
	longChars: 150,
	/** Shorter blocks count as content from this length when they read like sentences. */
	sentenceChars: 60,
	/** Inside the main content, a block with more link text than this is a link list. */
	maxListLinkDensity: 0.6,
	/** An element holding this share of the page's non-link text is never pruned as chrome. */
	protectShare: 0.5,
	/**
	 * Inside the main content, a box named like inner chrome (a byline, a widget, a paywall wrapper) is removed only
	 * when it holds at most this share of the content's prose weight: more, and it is a wrapper of the article.
	 */
	innerProseShare: 0.2,
	/** An element named as the article (`<article>`, `<main>`, `entry-content`, …) weighs this many times more. */
	contentNameBonus: 2,
};

/** Per-element figures, indexed by element id. */
interface Stats {
	chars: Float64Array;
	linkChars: Float64Array;
	/** Summed weight of the text blocks in the subtree. */
	score: Float64Array;
	/** Sentence punctuation marks in the text (a block that has some reads like prose). */
	marks: Float64Array;
	/** The weight of the element's own inline content (0 when it has none). */
	own: Float64Array;
}

export interface Extraction {
	root: El;
	/** False when no element held content-like text and the whole (pruned) body is used. */
	found: boolean;
}

/** Chooses the main content of `body`, pruning chrome in place; `elements` is every element by id (dom.ts). */
export function extractMain(body: El, elements: readonly El[]): Extraction {
	const stats = measure(body, elements);
	prune(body, stats, nonLink(stats, body), false);
	let scored = measure(body, elements);
	let best = body;
	let bestScore = 0;
	const named = new Set<El>();
	const stack: El[] = [body];
	while (stack.length > 0) {
		const element = stack.pop()!;
		const score = scored.score[element.id]! * (named.has(element) ? EXTRACT_WEIGHTS.contentNameBonus : 1);
		// Pre-order: on a tie the descendant (seen later) wins, so no chrome beside it comes along.
		if (score > 0 && score >= bestScore) [best, bestScore] = [element, score];
		let first: El | undefined;
		let count = 0;
		for (const child of element.children) {
			if (typeof child === "string") continue;
			stack.push(child);
			if (namesContent(child)) [first, count] = [child, count + 1];
		}
		// One article among siblings is the article; several (teasers, a page's content blocks) are parts of it.
		if (count === 1) named.add(first!);
	}
	if (bestScore <= 0) return { root: body, found: false };
	bestScore = scored.score[best.id]!;
	// A single text block is never the whole article: when its container weighs the same (the rest is headings
	// and short paragraphs, weight 0), the container is the main content, so its title and closing lines stay.
	while (
		scored.own[best.id]! > 0 &&
		best.parent &&
		best.parent !== body &&
		scored.score[best.parent.id] === bestScore
	) {
		best = best.parent;
	}
	prune(best, scored, nonLink(scored, best), true);
	scored = measure(best, elements);
	dropLinkLists(best, scored);
	dropTrailing(best, scored);
	const beside = besideContent(body, best);
	return { root: beside.length > 0 ? withBeside(best, beside) : best, found: true };
}

/**
 * Inside the main content, link lists (related articles, tag lists, "read more" boxes) go, with a heading that
 * introduces one. A block counts as a link list when most of its text is link text.
 */
function dropLinkLists(root: El, stats: Stats): void {
	const stack: El[] = [root];
	while (stack.length > 0) {
		const element = stack.pop()!;
		let removed = false;
		let previous: El | undefined;
		for (const child of element.children) {
			if (typeof child === "string") {
				if (/\S/.test(child)) previous = undefined;
				continue;
			}
			const chars = stats.chars[child.id]!;
			const linkChars = stats.linkChars[child.id]!;
			if (isBlockElement(child) && chars > 0 && linkChars / chars > EXTRACT_WEIGHTS.maxListLinkDensity) {
				child.removed = true;
				if (previous && /^h[1-6]$/.test(previous.tag)) previous.removed = true;
				removed = true;
			} else stack.push(child);
			previous = child;
		}
		if (removed) element.children = element.children.filter((child) => typeof child === "string" || !child.removed);
	}
}

/** Structured content whose blocks are short by nature: never trimmed as trailing chrome. */
const STRUCTURED = new Set(["li", "td", "th", "pre", "dd", "dt", "tr", "table", "ul", "ol", "dl"]);

/**
 * After the last content block, short non-content blocks are notes, prompts and sign-offs ("Sources:", "Share
 * your thoughts", "Back to the list"): their inline text goes. Lists, tables and code stay.
 */
function dropTrailing(root: El, stats: Stats): void {
	const blocks: El[] = [];
	const stack: El[] = [root];
	while (stack.length > 0) {
		const element = stack.pop()!;
		if (STRUCTURED.has(element.tag)) {
			blocks.push(element);
			continue;
		}
		if (stats.own[element.id] !== 0 || hasInlineText(element)) blocks.push(element);
		for (let i = element.children.length - 1; i >= 0; i--) {
			const child = element.children[i]!;
			if (typeof child !== "string" && isBlockElement(child)) stack.push(child);
		}
	}
	let last = -1;
	for (let i = 0; i < blocks.length; i++) if (stats.own[blocks[i]!.id]! > 0 || STRUCTURED.has(blocks[i]!.tag)) last = i;
	for (let i = last + 1; i < blocks.length; i++) {
		const block = blocks[i]!;
		block.children = block.children.filter((child) => typeof child !== "string" && isBlockElement(child));
	}
}

function hasInlineText(element: El): boolean {
	for (const child of element.children) {
		if (typeof child === "string" ? /\S/.test(child) : !isBlockElement(child)) return true;
	}
	return false;
}

function nonLink(stats: Stats, element: El): number {
	return stats.chars[element.id]! - stats.linkChars[element.id]!;
}

/**
 * Removes chrome elements under `root` (page chrome only, or inner chrome too), except those holding most of the
 * root's non-link text (a page wrapped in a form).
 */
function prune(root: El, stats: Stats, pageText: number, inner: boolean): void {
	const stack: El[] = [root];
	while (stack.length > 0) {
		const element = stack.pop()!;
		let removed = false;
		for (const child of element.children) {
			if (typeof child === "string") continue;
			const strength = chromeStrength(child);
			const chrome = strength === "page" || (inner && strength === "inner" && !wrapsContent(child, stats, root));
			if (chrome && nonLink(stats, child) < pageText * EXTRACT_WEIGHTS.protectShare) {
				child.removed = true;
				removed = true;
			} else stack.push(child);
		}
		// Arrays are rebuilt only where something goes: most elements keep theirs (less garbage on big pages).
		if (removed) element.children = element.children.filter((child) => typeof child === "string" || !child.removed);
	}
}

/**
 * An inner-chrome name on an element that holds content blocks with a fair share of the content's prose is a
 * wrapper of the article (`elementor-widget`, `paywall-container`), not a byline or a note.
 */
function wrapsContent(element: El, stats: Stats, root: El): boolean {
	if (!element.hasBlock || stats.own[element.id]! > 0) return false;
	return stats.score[element.id]! > stats.score[root.id]! * EXTRACT_WEIGHTS.innerProseShare;
}

function isBlockElement(element: El): boolean {
	return element.hasBlock === true || BLOCKS.has(element.tag);
}

function lastDescendant(element: El): El {
	for (let last: El | undefined = element; last; ) {
		element = last;
		last = undefined;
		for (let i = element.children.length - 1; i >= 0 && !last; i--) {
			const child = element.children[i]!;
			if (typeof child !== "string") last = child;
		}
	}
	return element;
}

/**
 * Per element: text and link-text length, and the summed weight of the text blocks it holds (a block is the inline
 * content directly inside a block element). Post-order without recursion.
 */
function measure(root: El, elements: readonly El[]): Stats {
	const size = elements.length;
	const stats: Stats = {
		chars: new Float64Array(size),
		linkChars: new Float64Array(size),
		score: new Float64Array(size),
		marks: new Float64Array(size),
		own: new Float64Array(size),
	};
	// Ids are in document order, so a subtree is the run of ids from its root to its last descendant and children
	// come after their parent: walking the ids down visits children first, with no traversal. Elements pruned out of
	// the run are measured too, but nothing attached reads them.
	for (let at = lastDescendant(root).id; at >= root.id; at--) {
		const element = elements[at]!;
		let chars = 0;
		let linkChars = 0;
		let score = 0;
		let inlineChars = 0;
		let inlineLinks = 0;
		let marks = 0;
		let inlineMarks = 0;
		chars += element.textChars;
		inlineChars += element.textChars;
		marks += element.textMarks;
		inlineMarks += element.textMarks;
		for (const child of element.children) {
			if (typeof child === "string") continue;
			const id = child.id;
			chars += stats.chars[id]!;
			linkChars += stats.linkChars[id]!;
			score += stats.score[id]!;
			marks += stats.marks[id]!;
			if (!isBlockElement(child)) {
				inlineChars += stats.chars[id]!;
				inlineLinks += stats.linkChars[id]!;
				inlineMarks += stats.marks[id]!;
			}
		}
		if (element.tag === "a") {
			linkChars = chars;
			inlineLinks = inlineChars;
		}
		if (isBlockElement(element) && inlineChars > 0) {
			stats.own[element.id] = weight(element, inlineChars, inlineLinks, inlineMarks);
			score += stats.own[element.id]!;
		}
		const id = element.id;
		stats.chars[id] = chars;
		stats.linkChars[id] = linkChars;
		stats.score[id] = score;
		stats.marks[id] = marks;
	}
	return stats;
}

function weight(element: El, chars: number, linkChars: number, marks: number): number {
	const density = linkChars / chars;
	if (density > EXTRACT_WEIGHTS.maxLinkDensity) return -chars;
	if (/^h[1-6]$/.test(element.tag)) return 0;
	if (chars >= EXTRACT_WEIGHTS.longChars) return chars * (1 - density);
	if (chars >= EXTRACT_WEIGHTS.sentenceChars && marks > 0) return chars * (1 - density);
	return 0;
}
