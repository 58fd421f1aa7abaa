// Element-tree pieces the per-kind extractions build their output from: a copy of a subtree without the elements a
// mask drops (the page tree stays as it is, so the article reading can still run on it), and synthetic blocks.

import type { El, Node } from "../dom-types.ts";

/** A copy of `root`'s subtree without the elements `drop` names (by id); strings are shared, elements are new. */
export function prunedCopy(root: El, drop: (element: El) => boolean): El {
	const top: El = { ...root, children: [] };
	const stack: [El, El][] = [[root, top]];
	while (stack.length > 0) {
		const [from, to] = stack.pop()!;
		for (const child of from.children) {
			if (typeof child === "string") to.children.push(child);
			else if (!child.removed && !drop(child)) {
				const copy: El = { ...child, parent: to, children: [] };
				to.children.push(copy);
				stack.push([child, copy]);
			}
		}
	}
	return top;
}

/** A block element holding `children` in the order given (a page's parts, rendered one after another). */
export function block(tag: string, children: Node[], id = 0): El {
	return { id, tag, attrs: {}, children, parent: undefined, hasBlock: true, textChars: 0, textMarks: 0 };
}

/** An inline element holding text (`strong` for an author's name, say). */
export function inline(tag: string, text: string): El {
	return { id: 0, tag, attrs: {}, children: [text], parent: undefined, hasBlock: false, textChars: 0, textMarks: 0 };
}

/** Every element of the subtree, root first, in document order. */
export function* descendants(root: El): Generator<El> {
	const stack: El[] = [root];
	while (stack.length > 0) {
		const element = stack.pop()!;
		yield element;
		for (let i = element.children.length - 1; i >= 0; i--) {
			const child = element.children[i]!;
			if (typeof child !== "string") stack.push(child);
		}
	}
}
