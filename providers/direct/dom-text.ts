// Text of an element subtree (providers/direct/dom.ts trees): all of it concatenated, whether any is visible, and
// whitespace collapsed as a reader sees it.

import type { El, Node } from "./dom-types.ts";

/** All text under an element, concatenated (iterative: trees may be 512 deep and wide). */
export function textOf(element: El): string {
	// A leaf holding one text (most paragraphs, links and labels) is that text: no walk, no list.
	if (element.children.length === 1 && typeof element.children[0] === "string") return element.children[0];
	const parts: string[] = [];
	const stack: Node[] = [element];
	while (stack.length > 0) {
		const node = stack.pop()!;
		if (typeof node === "string") parts.push(node);
		else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
	}
	return parts.join("");
}

/**
 * True when the text is whitespace only, as `/\S/` reads it (no match), without a regex call: the spaces between
 * a page's blocks are about half its texts, and each is read on the way to the markdown.
 */
export function isBlank(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if ((code > 32 && code < 160) || !isSpaceCode(code)) return false;
	}
	return true;
}

/** What `\s` matches: ASCII tab to carriage return and space, and Unicode's spaces, line and paragraph separators. */
function isSpaceCode(code: number): boolean {
	if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
	if (code < 0x1680) return code === 0xa0;
	return (
		code === 0x1680 ||
		(code >= 0x2000 && code <= 0x200a) ||
		code === 0x2028 ||
		code === 0x2029 ||
		code === 0x202f ||
		code === 0x205f ||
		code === 0x3000 ||
		code === 0xfeff
	);
}

/** True when some text under the element is not whitespace (stops at the first; `collapse(textOf(x)) !== ""`). */
export function hasText(element: El): boolean {
	const stack: Node[] = [element];
	while (stack.length > 0) {
		const node = stack.pop()!;
		if (typeof node === "string") {
			if (!isBlank(node)) return true;
		} else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
	}
	return false;
}

/** Whitespace a collapse changes: a run of two, or any whitespace character other than a space. */
export const UNSPACED = /\s\s|[^\S ]/;

export function collapse(text: string): string {
	if (isBlank(text)) return "";
	// Most texts have single spaces only: the replace would copy them unchanged.
	return UNSPACED.test(text) ? text.replace(/\s+/g, " ").trim() : text.trim();
}

/** Whether the element's class or id matches `pattern` (words for posts, prices, ledes, boxes). */
export function named(element: El | undefined, pattern: RegExp): boolean {
	if (!element) return false;
	const { class: className, id } = element.attrs;
	return (className !== undefined && pattern.test(className)) || (id !== undefined && pattern.test(id));
}
