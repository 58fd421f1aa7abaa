// Blocks that belong with the main content though they sit beside it: a recipe's ingredient list is often a box of
// its own next to the steps, and its short lines (amounts and names, no sentences) weigh nothing as prose, so the
// weighing in providers/direct/extract.ts leaves it out. Found by name (class or id), in one pass over the tree.

import { BLOCKS } from "./dom-tags.ts";
import type { El } from "./dom-types.ts";

export const BESIDE_DEFAULTS = {
	/** More boxes named so than this are teasers (a list of recipe cards), not one recipe's list: none is taken. */
	maxBlocks: 3,
};

const INGREDIENTS = /(?:^|[\s_-])ingredients?(?:$|[\s_-])/i;

/** Outermost elements named as ingredients outside `root` and not holding it, in document order. */
export function besideContent(body: El, root: El): El[] {
	const found: El[] = [];
	const stack: El[] = [body];
	while (stack.length > 0) {
		const element = stack.pop()!;
		if (element === root) continue;
		if (element !== body && named(element) && !holds(element, root)) {
			found.push(element);
			if (found.length > BESIDE_DEFAULTS.maxBlocks) return [];
			continue;
		}
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
function named(element: El): boolean {
	if (!BLOCKS.has(element.tag) && !element.hasBlock) return false;
	const { class: className, id } = element.attrs;
	return (className !== undefined && INGREDIENTS.test(className)) || (id !== undefined && INGREDIENTS.test(id));
}

function holds(element: El, root: El): boolean {
	for (let at = root.parent; at; at = at.parent) if (at === element) return true;
	return false;
}
