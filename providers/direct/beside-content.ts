// Blocks that belong with the main content though they sit beside it: a recipe's ingredient list is often a box of
// its own next to the steps, and its short lines (amounts and names, no sentences) weigh nothing as prose, so the
// weighing in providers/direct/extract.ts leaves it out; an article's standfirst sits in its header, above the text
// box chosen. Found by name (class or id), in one pass over the tree and one over what precedes the content.

import { BLOCKS } from "./dom-tags.ts";
import { collapse, named, textOf } from "./dom-text.ts";
import type { El } from "./dom-types.ts";

export const BESIDE_DEFAULTS = {
	/** More boxes named so than this are teasers (a list of recipe cards), not one recipe's list: none is taken. */
	maxBlocks: 3,
	/** A standfirst is looked for before the content under this many of its ancestors (an article's header). */
	ledeLevels: 3,
	/** A box so named with less text is a label ("Summary"), not a standfirst. */
	ledeMinChars: 40,
};

const INGREDIENTS = /(?:^|[\s_-])ingredients?(?:$|[\s_-])/i;

/** Outermost elements named as ingredients outside `root` and not holding it, in document order. */
export function besideContent(body: El, root: El): El[] {
	const found: El[] = [];
	const stack: El[] = [body];
	while (stack.length > 0) {
		const element = stack.pop()!;
		if (element === root) continue;
		if (element !== body && namedIngredients(element) && !holds(element, root)) {
			found.push(element);
			if (found.length > BESIDE_DEFAULTS.maxBlocks) return [];
			continue;
		}
		// Inside an element holding no block (a paragraph) is no box: an inline span so named is a word in a step.
		if (!element.hasBlock) continue;
		for (let i = element.children.length - 1; i >= 0; i--) {
			const child = element.children[i]!;
			if (typeof child !== "string") stack.push(child);
		}
	}
	return found;
}

/** The main content and the blocks beside it under one element, in document order (parents stay as they are). */
export function withBeside(root: El, beside: El[]): El {
	const children = [...beside, root].sort((a, b) => a.id - b.id);
	return { ...root, tag: "div", attrs: {}, children, hasBlock: true };
}

/** A box (a block element) named as ingredients; an inline span so named is a word in a step. */
function namedIngredients(element: El): boolean {
	return (BLOCKS.has(element.tag) || element.hasBlock === true) && named(element, INGREDIENTS);
}

/** Class or id words of an article's standfirst: the lines under its title that sum it up. */
const LEDE =
	/(?:^|[\s_-])(?:lead|lede|deck|intro|chapo|standfirst|sub-?title|subhead(?:line)?|summary|bajada|dek|teaser|excerpt|abstract)(?:$|[\s_-])/i;

/**
 * The standfirst before `root`: the nearest element named as one among what precedes it under its nearest
 * ancestors (the sibling boxes of its header). Each level's earlier siblings are other elements than the level
 * below's, and a named element is not looked into: one walk over at most the page.
 */
export function ledeBefore(body: El, root: El): El | undefined {
	let child = root;
	for (let level = 0; level < BESIDE_DEFAULTS.ledeLevels && child.parent && child !== body; level++) {
		const parent = child.parent;
		const at = parent.children.indexOf(child);
		for (let i = at - 1; i >= 0; i--) {
			const sibling = parent.children[i]!;
			if (typeof sibling === "string") continue;
			const found = namedLede(sibling);
			if (found) return found;
		}
		child = parent;
	}
	return undefined;
}

/** The last element named as a standfirst under `top` (the nearest to the content after it), with enough text. */
function namedLede(top: El): El | undefined {
	// Children are pushed in order, so the last ones come off the stack first: the first found is the last on the page.
	const stack: El[] = [top];
	while (stack.length > 0) {
		const element = stack.pop()!;
		if (named(element, LEDE)) {
			if (collapse(textOf(element)).length >= BESIDE_DEFAULTS.ledeMinChars) return element;
			continue;
		}
		for (const child of element.children) if (typeof child !== "string") stack.push(child);
	}
	return undefined;
}

function holds(element: El, root: El): boolean {
	for (let at = root.parent; at; at = at.parent) if (at === element) return true;
	return false;
}
