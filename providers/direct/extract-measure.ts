// The figures main-content selection (providers/direct/extract.ts) decides on, per element: text and link-text
// length, punctuation, and the summed weight of the text blocks it holds (jusText-like: long, few links, prose).
// Measured once for the whole page; after a pruning pass only the ancestors of what was removed are measured again.

import { type ChromeStrength, chromeStrength } from "./chrome-rules.ts";
import { BLOCKS } from "./dom-tags.ts";
import type { El } from "./dom-types.ts";

export const WEIGHT_RULES = {
	/** A block whose share of link text is above this is navigation-like: it counts against its container. */
	maxLinkDensity: 0.5,
	/** Blocks at least this long (with little link text) are content. */
	longChars: 150,
	/** Shorter blocks count as content from this length when they read like sentences. */
	sentenceChars: 60,
};

/** Per-element figures, indexed by element id. */
export interface Stats {
	chars: Float64Array;
	linkChars: Float64Array;
	/** Summed weight of the text blocks in the subtree. */
	score: Float64Array;
	/** Sentence punctuation marks in the text (a block that has some reads like prose). */
	marks: Float64Array;
	/** The weight of the element's own inline content (0 when it has none). */
	own: Float64Array;
	/** 1 for a block element (a block tag, or one holding a block), 2 for an inline one, 0 not yet known. */
	kind: Uint8Array;
	/** The element's `chromeStrength` (chrome-rules.ts): 1 none, 2 page, 3 inner; 0 not yet judged. */
	chrome: Uint8Array;
	/** Marks elements to measure again (`remeasure`); all clear between calls. */
	dirty: Uint8Array;
}

export function newStats(size: number): Stats {
	return {
		chars: new Float64Array(size),
		linkChars: new Float64Array(size),
		score: new Float64Array(size),
		marks: new Float64Array(size),
		own: new Float64Array(size),
		kind: new Uint8Array(size),
		chrome: new Uint8Array(size),
		dirty: new Uint8Array(size),
	};
}

/** A block element: its tag is one, or it holds one (so it renders as one). Cached per element. */
export function isBlockIn(stats: Stats, element: El): boolean {
	let kind = stats.kind[element.id]!;
	if (kind === 0) {
		kind = element.hasBlock === true || BLOCKS.has(element.tag) ? 1 : 2;
		stats.kind[element.id] = kind;
	}
	return kind === 1;
}

const STRENGTHS: readonly ChromeStrength[] = [undefined, undefined, "page", "inner"];

/**
 * An element's `chromeStrength`, judged once per page: the kind reading (page-kind.ts), the article reading's
 * prunings (extract.ts) and the page-text fallback all ask it of the same elements.
 */
export function chromeIn(stats: Stats, element: El): ChromeStrength {
	let code = stats.chrome[element.id]!;
	if (code === 0) {
		const strength = chromeStrength(element);
		code = strength === "page" ? 2 : strength === "inner" ? 3 : 1;
		stats.chrome[element.id] = code;
	}
	return STRENGTHS[code];
}

/**
 * Measures every element under `root`. Ids are in document order, so a subtree is the run of ids from its root to
 * its last descendant and children come after their parent: walking the ids down visits children first, with no
 * traversal. Elements pruned out of the run are measured too, but nothing attached reads them.
 */
export function measure(root: El, elements: readonly El[], stats: Stats): void {
	for (let at = lastDescendant(root).id; at >= root.id; at--) measureOne(elements[at]!, stats);
}

/**
 * Measures again the elements whose children were taken out (`changed`) and their ancestors, children before
 * parents; the rest of the tree is unchanged, so its figures are what a full `measure` would compute.
 */
export function remeasure(changed: readonly El[], elements: readonly El[], stats: Stats): void {
	const dirty = stats.dirty;
	let low = elements.length;
	let high = -1;
	for (const element of changed) {
		for (let at: El | undefined = element; at && dirty[at.id] === 0; at = at.parent) {
			dirty[at.id] = 1;
			low = Math.min(low, at.id);
			high = Math.max(high, at.id);
		}
	}
	for (let id = high; id >= low; id--) {
		if (dirty[id] === 0) continue;
		dirty[id] = 0;
		measureOne(elements[id]!, stats);
	}
}

/** An element's figures from its own text and its children's figures. */
function measureOne(element: El, stats: Stats): void {
	let chars = element.textChars;
	let linkChars = 0;
	let score = 0;
	let inlineChars = element.textChars;
	let inlineLinks = 0;
	let marks = element.textMarks;
	let inlineMarks = element.textMarks;
	for (const child of element.children) {
		if (typeof child === "string") continue;
		const id = child.id;
		chars += stats.chars[id]!;
		linkChars += stats.linkChars[id]!;
		score += stats.score[id]!;
		marks += stats.marks[id]!;
		if (!isBlockIn(stats, child)) {
			inlineChars += stats.chars[id]!;
			inlineLinks += stats.linkChars[id]!;
			inlineMarks += stats.marks[id]!;
		}
	}
	if (element.tag === "a") {
		linkChars = chars;
		inlineLinks = inlineChars;
	}
	const id = element.id;
	let own = 0;
	if (inlineChars > 0 && isBlockIn(stats, element)) {
		own = weight(element, inlineChars, inlineLinks, inlineMarks);
		score += own;
	}
	stats.own[id] = own;
	stats.chars[id] = chars;
	stats.linkChars[id] = linkChars;
	stats.score[id] = score;
	stats.marks[id] = marks;
}

function weight(element: El, chars: number, linkChars: number, marks: number): number {
	const density = linkChars / chars;
	if (density > WEIGHT_RULES.maxLinkDensity) return -chars;
	if (isHeadingTag(element.tag)) return 0;
	if (chars >= WEIGHT_RULES.longChars) return chars * (1 - density);
	if (chars >= WEIGHT_RULES.sentenceChars && marks > 0) return chars * (1 - density);
	return 0;
}

/** `h1` to `h6` (what /^h[1-6]$/ matches), without a regex call per element. */
export function isHeadingTag(tag: string): boolean {
	if (tag.length !== 2 || tag.charCodeAt(0) !== 104) return false;
	const digit = tag.charCodeAt(1);
	return digit >= 49 && digit <= 54;
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
