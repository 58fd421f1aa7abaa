// The article's text as the page declares it in JSON-LD `articleBody` (metadata.ts), held as a check on the main
// content chosen from the tree (extract.ts): how much of it a subtree covers, and whether a block's text is in it.
// Texts are compared as lower-case words (markup, punctuation and spacing differ between the two).

import { parseFragment } from "./dom.ts";
import { textOf } from "./dom-text.ts";
import type { El } from "./dom-types.ts";
import { renderTree } from "./markdown.ts";

export const ARTICLE_BODY_RULES = {
	/** An `articleBody` shorter than this (in compared characters) is a teaser: it confirms nothing. */
	minChars: 200,
	/** A block's text must be at least this long to be confirmed: short labels match by chance. */
	confirmChars: 25,
	/** A block is looked up by its first and last this many compared characters (its middle may differ). */
	probeChars: 60,
	/** Sentences of `articleBody` shorter than this are not counted in its coverage. */
	chunkChars: 20,
	/** At most this many sentences are looked up for a coverage (a bound on a huge `articleBody`). */
	maxChunks: 400,
};

/**
 * Markup or a character reference in a declared body: some sites put the article's HTML into `articleBody` (`<p>…`,
 * `&quot;`), some that HTML escaped once more (`&lt;b&gt;`). A tag is one of an article's text tags, so a body that
 * writes about `<T>` in plain words stays as it is.
 */
const MARKUP =
	/<\/?(?:p|br|div|span|h[1-6]|strong|em|b|i|u|a|li|ul|ol|blockquote|figure|figcaption|img|iframe|table|tr|td)\b[^<>]{0,500}>|&(?:#\d{1,7}|#x[\da-f]{1,6}|[a-z][\da-z]{1,30});/i;

/** `articleBody` as the plain text it is declared as: markup put into it rendered to its text, paragraphs apart. */
export function articleBodyText(declared: string): string {
	let text = declared;
	// Twice at most: the first pass turns HTML escaped once more into HTML.
	for (let pass = 0; pass < 2 && MARKUP.test(text); pass++) {
		text = renderTree(parseFragment(text).body, {
			format: "text",
			links: "none",
		}).text;
	}
	return text;
}

/** `articleBody` prepared for lookups: its compared text and its sentences. */
export interface ArticleBody {
	text: string;
	chunks: string[];
	chunkChars: number;
}

/** Lower-case letters and digits, words separated by one space, markup removed. */
function comparable(text: string): string {
	return text
		.replace(/<[^>]{0,200}>/g, " ")
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, " ")
		.trim();
}

/** The check for a page's `articleBody`; undefined when there is none or it is too short to confirm anything. */
export function articleBodyCheck(articleBody: string | undefined): ArticleBody | undefined {
	if (!articleBody) return undefined;
	const text = comparable(articleBody);
	if (text.length < ARTICLE_BODY_RULES.minChars) return undefined;
	const chunks = articleBody
		.split(/[.!?…\n]+/)
		.map(comparable)
		.filter((chunk) => chunk.length >= ARTICLE_BODY_RULES.chunkChars)
		.slice(0, ARTICLE_BODY_RULES.maxChunks);
	return { text, chunks, chunkChars: chunks.reduce((sum, chunk) => sum + chunk.length, 0) };
}

/** The share of `articleBody`'s sentences (by characters) found in the element's text, 0 to 1. */
export function coverage(body: ArticleBody, element: El): number {
	if (body.chunkChars === 0) return 0;
	const text = comparable(textOf(element));
	let found = 0;
	for (const chunk of body.chunks) if (text.includes(chunk)) found += chunk.length;
	return found / body.chunkChars;
}

/** True when the element's text is long enough to tell and `articleBody` holds its start or its end. */
export function inArticleBody(body: ArticleBody, element: El): boolean {
	const text = comparable(textOf(element));
	if (text.length < ARTICLE_BODY_RULES.confirmChars) return false;
	const probe = ARTICLE_BODY_RULES.probeChars;
	return body.text.includes(text.slice(0, probe)) || body.text.includes(text.slice(-probe));
}
