// The way out when an extraction comes back empty or too thin on a page that has visible text: the page's readable
// text with its navigation pruned (nav, header, footer, aside, menus, cookie and share boxes), and when that prunes
// everything (a page whose text sits in its header or footer), the text without the link-dense parts only.

import type { ParsedPage } from "./dom.ts";
import { collapse, textOf } from "./dom-text.ts";
import type { El } from "./dom-types.ts";
import { measure, newStats } from "./extract-measure.ts";
import { isNonArticleChrome } from "./kinds/signals.ts";
import { prunedCopy } from "./kinds/tree.ts";

export const PAGE_TEXT_RULES = {
	/** An extraction with fewer characters than this (collapsed) is thin… */
	thinChars: 100,
	/** …when the page's visible text is at least this many times longer. */
	thinFactor: 2,
	/** A part whose text is links for more than this share is navigation, even at the second try. */
	maxLinkShare: 0.5,
};

/** True when an extraction of `chars` characters misses most of a page with `pageChars` of visible text. */
export function isThin(chars: number, pageChars: number): boolean {
	return chars < PAGE_TEXT_RULES.thinChars && pageChars >= Math.max(1, chars) * PAGE_TEXT_RULES.thinFactor;
}

/**
 * Characters of text under `root` (whitespace runs counted once, as the tree builder counts them), counted up to
 * `limit` only: the thin check runs on every page and must not build the text of a long one.
 */
export function charsUpTo(root: El, limit: number): number {
	let chars = 0;
	const stack: El[] = [root];
	while (stack.length > 0 && chars < limit) {
		const element = stack.pop()!;
		chars += element.textChars;
		for (const child of element.children) {
			if (typeof child !== "string") stack.push(child);
			else if (element.textChars === 0) chars += collapse(child).length;
		}
	}
	return Math.min(chars, limit);
}

/** The page's text without its navigation; `page` must be a fresh parse (the article reading prunes in place). */
export function pageText(page: ParsedPage): El {
	const { body, elements } = page;
	const stats = newStats(elements.length);
	measure(body, elements, stats);
	const pageChars = stats.chars[body.id]!;
	const pageProse = pageChars - stats.linkChars[body.id]!;
	const pruned = prunedCopy(body, (element) => isNonArticleChrome(element, stats, pageProse));
	if (collapse(textOf(pruned)).length >= Math.min(PAGE_TEXT_RULES.thinChars, pageChars / PAGE_TEXT_RULES.thinFactor)) {
		return pruned;
	}
	const hidden = (element: El) => "hidden" in element.attrs || element.attrs["aria-hidden"] === "true";
	return prunedCopy(body, (element) => {
		const links = stats.linkChars[element.id]! > stats.chars[element.id]! * PAGE_TEXT_RULES.maxLinkShare;
		return hidden(element) || (links && isNonArticleChrome(element, stats, pageProse));
	});
}
