// Text of an element subtree (providers/direct/dom.ts trees): all of it concatenated, whether any is visible, and
// whitespace collapsed as a reader sees it.

import type { El, Node } from "./dom-types.ts";

/** All text under an element, concatenated (iterative: trees may be 512 deep and wide). */
export function textOf(element: El): string {
	const parts: string[] = [];
	const stack: Node[] = [element];
	while (stack.length > 0) {
		const node = stack.pop()!;
		if (typeof node === "string") parts.push(node);
		else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
	}
	return parts.join("");
}

const NON_SPACE = /\S/;

/** True when some text under the element is not whitespace (stops at the first; `collapse(textOf(x)) !== ""`). */
export function hasText(element: El): boolean {
	const stack: Node[] = [element];
	while (stack.length > 0) {
		const node = stack.pop()!;
		if (typeof node === "string") {
			if (NON_SPACE.test(node)) return true;
		} else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
	}
	return false;
}

export function collapse(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

/** Whether the element's class or id matches `pattern` (words for posts, prices, ledes, boxes). */
export function named(element: El | undefined, pattern: RegExp): boolean {
	if (!element) return false;
	const { class: className, id } = element.attrs;
	return (className !== undefined && pattern.test(className)) || (id !== undefined && pattern.test(id));
}
