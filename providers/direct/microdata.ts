// schema.org microdata in a page's body (`itemprop` on elements, as parsePage in providers/direct/dom.ts keeps it):
// the author names, dates, publisher and language an article marks up, for metadata.ts. `<meta itemprop>` tags are
// read with the other meta tags (dom.ts); this reads the elements. One pass over the elements, bounded.

import { collapse } from "./dom-text.ts";
import type { El, Node } from "./dom-types.ts";

export interface Microdata {
	authors: string[];
	published?: string;
	modified?: string;
	publisher?: string;
	language?: string;
}

const LIMITS = {
	/** A name longer than this is a block of text marked up whole (a bio), not a name. */
	nameChars: 120,
	authors: 10,
	/** Marked elements looked at per page, and nodes visited under each: an item wrapping the page costs no more. */
	marked: 500,
	visits: 200,
};

/** The microdata of a page, read before the extraction prunes the tree. */
export function readMicrodata(elements: readonly El[]): Microdata {
	const found: Microdata = { authors: [] };
	let seen = 0;
	for (const element of elements) {
		const props = element.attrs.itemprop;
		if (!props) continue;
		if (++seen > LIMITS.marked) break;
		for (const prop of props.toLowerCase().split(/\s+/)) {
			if (prop === "author" || prop === "creator") addName(found.authors, nameOf(element));
			else if (prop === "datepublished" || prop === "datecreated") found.published ??= dateOf(element);
			else if (prop === "datemodified") found.modified ??= dateOf(element);
			else if (prop === "publisher") found.publisher ??= nameOf(element);
			else if (prop === "inlanguage") found.language ??= shortText(element);
		}
	}
	return found;
}

function addName(names: string[], name: string | undefined): void {
	if (name && names.length < LIMITS.authors && !names.includes(name)) names.push(name);
}

/** An item's `name` property (a person or organisation marked up as an item), else its own short text. */
function nameOf(element: El): string | undefined {
	const stack: Node[] = [element];
	for (let visits = 0; stack.length > 0 && visits < LIMITS.visits; visits++) {
		const node = stack.pop()!;
		if (typeof node === "string") continue;
		if (node !== element && /(?:^|\s)name(?:\s|$)/i.test(node.attrs.itemprop ?? "")) return shortText(node);
		pushChildren(stack, node);
	}
	return shortText(element);
}

/** `<time datetime>` as marked, else the element's text. */
function dateOf(element: El): string | undefined {
	return element.attrs.datetime?.trim() || shortText(element);
}

/** The element's text when it is short; reading stops past the limit or the visit budget (then undefined). */
function shortText(element: El): string | undefined {
	let raw = "";
	const stack: Node[] = [element];
	for (let visits = 0; stack.length > 0; visits++) {
		if (visits >= LIMITS.visits || raw.length > LIMITS.nameChars * 4) return undefined;
		const node = stack.pop()!;
		if (typeof node === "string") raw += node;
		else pushChildren(stack, node);
	}
	const text = collapse(raw);
	return text && text.length <= LIMITS.nameChars ? text : undefined;
}

/** Pushes an element's first children (as many as a walk may visit), last first, so they pop in document order. */
function pushChildren(stack: Node[], element: El): void {
	for (let i = Math.min(element.children.length, LIMITS.visits) - 1; i >= 0; i--) stack.push(element.children[i]!);
}
