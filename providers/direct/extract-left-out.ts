// What main-content selection (providers/direct/extract.ts) leaves out of the content it chose, and says so: link
// lists inside it (related articles, tags) and, after its last content block, short lines that read as neither
// sentences nor code (labels, prompts, sign-offs). Closing sentences, code lines and sentences citing links stay.

import { collapse, hasText, isBlank, textOf } from "./dom-text.ts";
import type { El } from "./dom-types.ts";
import { isBlockIn, isHeadingTag, type Stats } from "./extract-measure.ts";

export const LEFT_OUT_RULES = {
	/** Inside the main content, a block with more link text than this is a link list. */
	maxListLinkDensity: 0.6,
	/** A line reads as a sentence from this many words on (and with its closing mark): `Parse parses s.` */
	sentenceWords: 3,
	/** Text without spaces (Chinese, Japanese) reads as a sentence from this many characters on. */
	sentenceChars: 8,
};

// Patterns are module constants: a regex literal inside a function is a new RegExp object at each evaluation.
/** The end of a sentence: its mark, then closing quotes or brackets. */
const SENTENCE_END = /[.!?…。！？][\s"'”’»)\]]*$/u;
/** Inline elements holding code: a line with one (`go get …`) is the article's. */
const CODE_TAGS = new Set(["code", "kbd", "samp"]);

/** What the extraction left out of the main content: how many blocks of each kind (counted, never quoted). */
export interface LeftOut {
	/** Short lines after the article (labels, prompts, sign-offs). */
	count: number;
	/** Link lists inside the article (related articles, tags, "read more" boxes). */
	lists: number;
}

/**
 * Inside the main content, link lists (related articles, tag lists, "read more" boxes) go, with a heading that
 * introduces one, said in `leftOut`. A block counts as a link list when most of its text is link text. An element
 * holding no block (dom.ts's `hasBlock`: an inline one, a paragraph, a list item) is not looked into: no list is
 * inside it, and its children are most of the content's.
 */
export function dropLinkLists(root: El, stats: Stats, leftOut: LeftOut): void {
	const stack: El[] = [root];
	while (stack.length > 0) {
		const element = stack.pop()!;
		let removed = false;
		/** The element child just before, when it is a heading with no text after it. */
		let heading: El | undefined;
		for (const child of element.children) {
			if (typeof child === "string") {
				if (heading !== undefined && !isBlank(child)) heading = undefined;
				continue;
			}
			const chars = stats.chars[child.id]!;
			const linkChars = stats.linkChars[child.id]!;
			const linkList = chars > 0 && linkChars / chars > LEFT_OUT_RULES.maxListLinkDensity;
			if (isBlockIn(stats, child) && linkList && !citesSources(child)) {
				child.removed = true;
				if (heading) heading.removed = true;
				removed = true;
				leftOut.lists++;
			} else if (child.hasBlock) stack.push(child);
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
 * they are the article's. Lists, tables and code stay, and so do the lines `keepOf()` says are the article's (its
 * declared text, the block model's judgement: extract.ts), asked only when short blocks follow the last content
 * block, and before any goes.
 */
export function dropTrailing(
	root: El,
	stats: Stats,
	leftOut: LeftOut,
	keepOf?: () => ((element: El) => boolean) | undefined,
): boolean {
	const after = blocksAfterContent(root, stats);
	if (after.length === 0) return false;
	const keep = keepOf?.();
	/** True once a kept block follows, up to the next heading: a heading leading it stays. */
	let keptAfter = false;
	let changed = false;
	for (const block of after) {
		const line = collapse(inlineTextOf(block, stats));
		const heading = isHeadingTag(block.tag);
		const kept: boolean = heading ? keptAfter : readsAsSentence(line) || holdsCode(block, stats) || !!keep?.(block);
		keptAfter = heading ? false : keptAfter || kept;
		if (kept) continue;
		block.children = block.children.filter((child) => typeof child !== "string" && isBlockIn(stats, child));
		changed = true;
		if (line !== "") leftOut.count++;
	}
	return changed;
}

/**
 * The blocks after the content's last content block (one with prose of its own, or structured content), last
 * first. Blocks are the elements with inline text of their own or structured ones (not looked into), in document
 * order; walked from the end, so that only the content's tail is read: most contents end with a content block.
 */
function blocksAfterContent(root: El, stats: Stats): El[] {
	const after: El[] = [];
	/** Reverse document order: an element's block children pushed first to last, then each is taken after them. */
	const stack: (El | { taken: El })[] = [root];
	while (stack.length > 0) {
		const step = stack.pop()!;
		if ("taken" in step) {
			const element = step.taken;
			if (stats.own[element.id]! > 0) return after;
			after.push(element);
			continue;
		}
		if (STRUCTURED.has(step.tag)) return after;
		if (stats.own[step.id] !== 0 || hasInlineText(step, stats)) stack.push({ taken: step });
		for (const child of step.children) if (typeof child !== "string" && isBlockIn(stats, child)) stack.push(child);
	}
	return after;
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
			if (!isBlank(child)) last = child;
		} else if (child.tag === "a") return false;
		else if (hasText(child)) last = textOf(child);
	}
	return last !== undefined && readsAsSentence(collapse(textOf(element)));
}

/** Ends with a sentence mark and has a few words (or, without spaces, a few characters). */
function readsAsSentence(line: string): boolean {
	if (!SENTENCE_END.test(line)) return false;
	const words = line.split(" ").length;
	return words >= LEFT_OUT_RULES.sentenceWords || (words === 1 && line.length >= LEFT_OUT_RULES.sentenceChars);
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
		if (typeof child === "string" ? !isBlank(child) : !isBlockIn(stats, child)) return true;
	}
	return false;
}
