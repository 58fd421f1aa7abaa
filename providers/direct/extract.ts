// Main-content selection on the element tree: page chrome is pruned (navigation, asides, hidden elements, boxes
// named like share bars, newsletters, comments, cookie notes), text blocks are weighed by length and link density
// (in the manner of jusText), and the element with the largest sum of weights is the main content. Linear passes.

import { besideContent, withBeside } from "./beside-content.ts";
import { chromeStrength, namesContent } from "./chrome-rules.ts";
import { collapse, textOf } from "./dom-text.ts";
import type { El } from "./dom-types.ts";
import { isBlockIn, isHeadingTag, measure, newStats, remeasure, type Stats, WEIGHT_RULES } from "./extract-measure.ts";

export const EXTRACT_WEIGHTS = {
	...WEIGHT_RULES,
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
	/** A line reads as a sentence from this many words on (and with its closing mark): `Parse parses s.` */
	sentenceWords: 3,
	/** Text without spaces (Chinese, Japanese) reads as a sentence from this many characters on. */
	sentenceChars: 8,
	/** Each line left out after the article is quoted up to this many characters in `leftOut`. */
	leftOutChars: 60,
	/** At most this many lines left out are quoted. */
	leftOutLines: 5,
};

// Patterns are module constants: a regex literal inside a function is a new RegExp object at each evaluation.
const NON_SPACE = /\S/;
/** The end of a sentence: its mark, then closing quotes or brackets. */
const SENTENCE_END = /[.!?…。！？][\s"'”’»)\]]*$/u;
/** Inline elements holding code: a line with one (`go get …`) is the article's. */
const CODE_TAGS = new Set(["code", "kbd", "samp"]);

export interface Extraction {
	root: El;
	/** False when no element held content-like text and the whole (pruned) body is used. */
	found: boolean;
	/** Short lines after the article that were left out (labels, prompts, sign-offs). */
	leftOut: LeftOut;
}

/** What the extraction left out of the main content: how many blocks of each kind, and the first few to quote. */
export interface LeftOut {
	/** Short lines after the article (labels, prompts, sign-offs). */
	count: number;
	/** Link lists inside the article (related articles, tags, "read more" boxes). */
	lists: number;
	/** The text of the first few, clipped, in the order they were left out. */
	lines: string[];
}

/** Chooses the main content of `body`, pruning chrome in place; `elements` is every element by id (dom.ts). */
export function extractMain(body: El, elements: readonly El[]): Extraction {
	const stats = newStats(elements.length);
	const chrome = chromeOf(elements);
	measure(body, elements, stats);
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
	if (bestScore <= 0) return { root: body, found: false, leftOut: { count: 0, lists: 0, lines: [] } };
	bestScore = stats.score[best.id]!;
	// A single text block is never the whole article: when its container weighs the same (the rest is headings
	// and short paragraphs, weight 0), the container is the main content, so its title and closing lines stay.
	while (stats.own[best.id]! > 0 && best.parent && best.parent !== body && stats.score[best.parent.id] === bestScore) {
		best = best.parent;
	}
	remeasure(prune(best, stats, chrome, nonLink(stats, best), true), elements, stats);
	const leftOut: LeftOut = { count: 0, lists: 0, lines: [] };
	dropLinkLists(best, stats, leftOut);
	dropTrailing(best, stats, leftOut);
	const beside = besideContent(body, best);
	return { root: beside.length > 0 ? withBeside(best, beside) : best, found: true, leftOut };
}

/**
 * Inside the main content, link lists (related articles, tag lists, "read more" boxes) go, with a heading that
 * introduces one, said in `leftOut`. A block counts as a link list when most of its text is link text.
 */
function dropLinkLists(root: El, stats: Stats, leftOut: LeftOut): void {
	const stack: El[] = [root];
	while (stack.length > 0) {
		const element = stack.pop()!;
		let removed = false;
		/** The element child just before, when it is a heading with no text after it. */
		let heading: El | undefined;
		for (const child of element.children) {
			if (typeof child === "string") {
				if (heading !== undefined && NON_SPACE.test(child)) heading = undefined;
				continue;
			}
			const chars = stats.chars[child.id]!;
			const linkChars = stats.linkChars[child.id]!;
			const linkList = chars > 0 && linkChars / chars > EXTRACT_WEIGHTS.maxListLinkDensity;
			if (isBlockIn(stats, child) && linkList && !citesSources(child)) {
				child.removed = true;
				if (heading) heading.removed = true;
				removed = true;
				leftOut.lists++;
				quote(leftOut, () => collapse(`${heading ? `${textOf(heading)}: ` : ""}${blockText(child, stats)}`));
			} else stack.push(child);
			heading = isHeadingTag(child.tag) ? child : undefined;
		}
		if (removed) element.children = element.children.filter((child) => typeof child === "string" || !child.removed);
	}
}

/** Structured content whose blocks are short by nature: never trimmed as trailing chrome. */
const STRUCTURED = new Set(["li", "td", "th", "pre", "dd", "dt", "tr", "table", "ul", "ol", "dl"]);

/**
 * After the last content block, short blocks that read as neither sentences nor code are labels, prompts and
 * sign-offs ("Related posts", "Share your thoughts", "Back to the list"): their inline text goes, said in `leftOut`.
 * A closing sentence ("Measure before you tune."), a line with code (`go get …`) and a heading leading one stay:
 * they are the article's. Lists, tables and code stay.
 */
function dropTrailing(root: El, stats: Stats, leftOut: LeftOut): void {
	const blocks: El[] = [];
	const stack: El[] = [root];
	while (stack.length > 0) {
		const element = stack.pop()!;
		if (STRUCTURED.has(element.tag)) {
			blocks.push(element);
			continue;
		}
		if (stats.own[element.id] !== 0 || hasInlineText(element, stats)) blocks.push(element);
		for (let i = element.children.length - 1; i >= 0; i--) {
			const child = element.children[i]!;
			if (typeof child !== "string" && isBlockIn(stats, child)) stack.push(child);
		}
	}
	let last = -1;
	for (let i = 0; i < blocks.length; i++) if (stats.own[blocks[i]!.id]! > 0 || STRUCTURED.has(blocks[i]!.tag)) last = i;
	/** Found from the end: quoted in document order. */
	const dropped: string[] = [];
	/** True once a kept block follows, up to the next heading: a heading leading it stays. */
	let keptAfter = false;
	for (let i = blocks.length - 1; i > last; i--) {
		const block = blocks[i]!;
		const line = collapse(inlineTextOf(block, stats));
		const heading = isHeadingTag(block.tag);
		const keep: boolean = heading ? keptAfter : readsAsSentence(line) || holdsCode(block, stats);
		keptAfter = heading ? false : keptAfter || keep;
		if (keep) continue;
		block.children = block.children.filter((child) => typeof child !== "string" && isBlockIn(stats, child));
		if (line !== "") dropped.push(line);
	}
	leftOut.count += dropped.length;
	for (let i = dropped.length - 1; i >= 0; i--) quote(leftOut, () => dropped[i]!);
}

/** The text under an element with a space around each block in it (list items are words apart). */
function blockText(element: El, stats: Stats): string {
	let text = "";
	for (const child of element.children) {
		if (typeof child === "string") text += child;
		else text += isBlockIn(stats, child) ? ` ${blockText(child, stats)} ` : blockText(child, stats);
	}
	return text;
}

/** Adds the text of a block left out to the quotes, clipped, while there is room (the text is made only then). */
function quote(leftOut: LeftOut, text: () => string): void {
	const { leftOutLines, leftOutChars } = EXTRACT_WEIGHTS;
	if (leftOut.lines.length >= leftOutLines) return;
	const line = text();
	leftOut.lines.push(line.length > leftOutChars ? `${line.slice(0, leftOutChars - 1)}…` : line);
}

/**
 * A paragraph that is a sentence of its own around its links ("See RFC 9111 and RFC 9110."): its last words are
 * not a link's, so it is the article's, not a "read more" line or a list of headlines.
 */
function citesSources(element: El): boolean {
	if (element.tag !== "p") return false;
	let last: string | undefined;
	for (let i = element.children.length - 1; i >= 0 && last === undefined; i--) {
		const child = element.children[i]!;
		if (typeof child === "string") {
			if (NON_SPACE.test(child)) last = child;
		} else if (child.tag === "a") return false;
		else if (NON_SPACE.test(textOf(child))) last = textOf(child);
	}
	return last !== undefined && readsAsSentence(collapse(textOf(element)));
}

/** Ends with a sentence mark and has a few words (or, without spaces, a few characters). */
function readsAsSentence(line: string): boolean {
	if (!SENTENCE_END.test(line)) return false;
	const words = line.split(" ").length;
	return words >= EXTRACT_WEIGHTS.sentenceWords || (words === 1 && line.length >= EXTRACT_WEIGHTS.sentenceChars);
}

/** The element's own inline text: its text children and its inline elements' text, not its blocks'. */
function inlineTextOf(element: El, stats: Stats): string {
	let text = "";
	for (const child of element.children) {
		if (typeof child === "string") text += child;
		else if (!isBlockIn(stats, child)) text += textOf(child);
	}
	return text;
}

function holdsCode(element: El, stats: Stats): boolean {
	const stack: El[] = [];
	for (const child of element.children) if (typeof child !== "string" && !isBlockIn(stats, child)) stack.push(child);
	while (stack.length > 0) {
		const at = stack.pop()!;
		if (CODE_TAGS.has(at.tag)) return true;
		for (const child of at.children) if (typeof child !== "string") stack.push(child);
	}
	return false;
}

function hasInlineText(element: El, stats: Stats): boolean {
	for (const child of element.children) {
		if (typeof child === "string" ? NON_SPACE.test(child) : !isBlockIn(stats, child)) return true;
	}
	return false;
}

function nonLink(stats: Stats, element: El): number {
	return stats.chars[element.id]! - stats.linkChars[element.id]!;
}

/** The elements named or placed as chrome (`chromeStrength`), in document order, each judged once per page. */
interface Chrome {
	elements: El[];
	inner: Uint8Array;
}

function chromeOf(elements: readonly El[]): Chrome {
	const chrome: Chrome = { elements: [], inner: new Uint8Array(elements.length) };
	for (let id = 1; id < elements.length; id++) {
		const element = elements[id]!;
		const strength = chromeStrength(element);
		if (strength === undefined) continue;
		chrome.elements.push(element);
		if (strength === "inner") chrome.inner[id] = 1;
	}
	return chrome;
}

/**
 * Removes chrome elements under `root` (page chrome only, or inner chrome too), except those holding most of the
 * root's non-link text (a page wrapped in a form). Only chrome elements are looked at, and each is removed when
 * still attached under `root`: what a walk down from `root` would remove. Returns the elements that lost children.
 */
function prune(root: El, stats: Stats, chrome: Chrome, pageText: number, inner: boolean): El[] {
	const parents = new Set<El>();
	const limit = pageText * EXTRACT_WEIGHTS.protectShare;
	for (const element of chrome.elements) {
		if (element.id <= root.id || element.removed) continue;
		const isInner = chrome.inner[element.id] === 1;
		if (isInner && !(inner && !wrapsContent(element, stats, root))) continue;
		if (nonLink(stats, element) >= limit || !attachedUnder(element, root)) continue;
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
