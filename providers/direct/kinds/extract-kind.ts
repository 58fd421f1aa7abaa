// What a reader of each page kind needs, taken from the unpruned tree (providers/direct/page-kind.ts read the kind):
// a listing's or collection's entries with their headings, a thread's posts in order with author and date, a service
// page's main region with its headed sections, without chrome. Articles, docs and products are read by the article
// reading (providers/direct/extract.ts; undefined here), a product's price and specifications added beside it.

import type { ParsedPage } from "../dom.ts";
import { collapse, named, textOf } from "../dom-text.ts";
import type { El, Node } from "../dom-types.ts";
import type { KindReading } from "../page-kind.ts";
import { block, descendants, inline, prunedCopy } from "./tree.ts";

export const KIND_EXTRACT_RULES = {
	/** A listing's region grows to an ancestor while that holds at most this many times its text (a heading, an intro). */
	regionGrowth: 1.6,
	/** A `<main>` holding this share of the page's text outside chrome is the region of a product, docs or service page. */
	mainShare: 0.5,
	/** Author names and dates longer than this are not a post's header. */
	maxHeaderChars: 80,
	/** A box holding a post's author and date with at most this many other characters is the post's header. */
	maxHeaderRest: 24,
	/** A run of links this short inside a post is its action bar. */
	maxActionChars: 40,
};

const AUTHOR_NAME = /(?:^|[\s_-])(?:author|username|user-name|user|poster|member|nick|name)(?:$|[\s_-])/i;
const DATE_PROPS = new Set(["datePublished", "dateCreated", "dateModified", "uploadDate"]);

/** The extraction's root for a page that is not an article; undefined for an article (or nothing to show). */
export function extractKind(page: ParsedPage, reading: KindReading): El | undefined {
	switch (reading.kind) {
		case "forum":
			return thread(page, reading);
		case "listing":
		case "collection":
			return listing(page, reading);
		case "service":
			return withHeading(page, reading, prunedCopy(region(page, reading), dropper(reading)));
		default:
			return undefined;
	}
}

const SPEC_NAME = /(?:^|[\s_-])(?:specs?|specifications?|attributes|tech-?specs|details|datasheet)(?:$|[\s_-])/i;
const PRICE_NAME = /(?:^|[\s_-])price(?:$|[\s_-])/i;

/**
 * A product's parts the article reading left out (`root` is what it chose): its description, its price and its
 * specification tables or lists, outermost ones outside chrome and still attached to the page.
 */
export function productParts(page: ParsedPage, reading: KindReading, root: El): El[] {
	const parts: El[] = [];
	let price = false;
	for (const element of page.elements) {
		if (reading.chrome[element.id] === 1 || related(element, root) || !attached(element, page.body)) continue;
		if (parts.some((part) => related(element, part))) continue;
		const prop = element.attrs.itemprop;
		const spec =
			(element.tag === "table" || element.tag === "dl") &&
			(named(element, SPEC_NAME) || named(element.parent, SPEC_NAME));
		const isPrice: boolean =
			!price && (prop === "price" || named(element, PRICE_NAME)) && collapse(textOf(element)).length <= 40;
		if (prop === "description" || prop === "additionalProperty" || spec || isPrice) {
			if (collapse(textOf(element)) === "") continue;
			price ||= isPrice;
			parts.push(element);
		}
	}
	return parts;
}

/** True when one of the two holds the other (or they are the same). */
function related(a: El, b: El): boolean {
	for (let at: El | undefined = a; at; at = at.parent) if (at === b) return true;
	for (let at: El | undefined = b; at; at = at.parent) if (at === a) return true;
	return false;
}

/** True when no ancestor up to `body` was taken out by the article reading. */
function attached(element: El, body: El): boolean {
	for (let at: El | undefined = element; at; at = at.parent) {
		if (at.removed) return false;
		if (at === body) return true;
	}
	return false;
}

function dropper(reading: KindReading): (element: El) => boolean {
	return (element) => reading.chrome[element.id] === 1;
}

/** The page's `<main>` (or `role="main"`, or a Product's microdata element) when it holds most of the text; else the body. */
function region(page: ParsedPage, reading: KindReading): El {
	let best: El | undefined;
	for (const element of page.elements) {
		const main =
			element.tag === "main" || element.attrs.role === "main" || /Product$/.test(element.attrs.itemtype ?? "");
		if (main && reading.chrome[element.id] === 0 && (!best || reading.clean[element.id]! > reading.clean[best.id]!)) {
			best = element;
		}
	}
	const enough = best && reading.clean[best.id]! >= reading.clean[page.body.id]! * KIND_EXTRACT_RULES.mainShare;
	return enough ? best! : page.body;
}

/** The entries' container, grown to an ancestor that adds only a heading or an intro. */
function listing(page: ParsedPage, reading: KindReading): El | undefined {
	const first = reading.items[0]?.parent;
	if (!first) return undefined;
	let root: El = first;
	while (root.parent && root !== page.body) {
		const up: El = root.parent;
		if (reading.clean[up.id]! > reading.clean[root.id]! * KIND_EXTRACT_RULES.regionGrowth) break;
		root = up;
	}
	return withHeading(page, reading, prunedCopy(root, dropper(reading)));
}

/** Each post as a line naming its author and date, then its text without them. */
function thread(page: ParsedPage, reading: KindReading): El {
	const parts: Node[] = [];
	for (const post of reading.items) {
		const date = findHeader(post, (e) => e.tag === "time" || DATE_PROPS.has(e.attrs.itemprop ?? ""));
		// The name, not a box holding it and the date ("user-info").
		const author = findHeader(
			post,
			(e) => (e.attrs.itemprop === "author" || named(e, AUTHOR_NAME)) && (!date || !holds(e, date)),
		);
		const line: Node[] = [];
		if (author) line.push(inline("strong", collapse(textOf(author))));
		if (date) line.push(`${author ? " · " : ""}${date.attrs.datetime ?? collapse(textOf(date))}`);
		if (line.length > 0) parts.push(block("p", line));
		const skip = new Set([author, date, headerBox(author, date)]);
		parts.push(prunedCopy(post, (e) => reading.chrome[e.id] === 1 || skip.has(e) || isActionBar(e, reading)));
	}
	return withHeading(page, reading, block("div", parts));
}

/** The box holding a post's author and date when little else is in it ("alice wrote on 3 May"): said in the line. */
function headerBox(author: El | undefined, date: El | undefined): El | undefined {
	if (!author || !date) return undefined;
	for (let at = author.parent; at; at = at.parent) {
		if (!holds(at, date)) continue;
		const rest = collapse(textOf(at)).length - collapse(textOf(author)).length - collapse(textOf(date)).length;
		return rest <= KIND_EXTRACT_RULES.maxHeaderRest ? at : undefined;
	}
	return undefined;
}

/** A post's bar of short links (Quote, Like, Reply): no words of the post. */
function isActionBar(element: El, reading: KindReading): boolean {
	const chars = reading.stats.chars[element.id]!;
	return chars > 0 && chars <= KIND_EXTRACT_RULES.maxActionChars && reading.stats.linkChars[element.id] === chars;
}

/** True when `inner` is `outer` or inside it. */
function holds(outer: El, inner: El): boolean {
	for (let at: El | undefined = inner; at; at = at.parent) if (at === outer) return true;
	return false;
}

/** The first element of the post (itself excluded) that `test` accepts and is short enough to be a name or a date. */
function findHeader(post: El, test: (element: El) => boolean): El | undefined {
	for (const element of descendants(post)) {
		if (element === post || !test(element)) continue;
		const text = collapse(textOf(element));
		if (text !== "" && text.length <= KIND_EXTRACT_RULES.maxHeaderChars) return element;
	}
	return undefined;
}

/** The page's first `<h1>` outside chrome above `content` when the content does not hold it. */
function withHeading(page: ParsedPage, reading: KindReading, content: El): El {
	let heading: El | undefined;
	for (const element of page.elements) {
		if (element.tag === "h1" && reading.chrome[element.id] === 0) {
			heading = element;
			break;
		}
	}
	if (!heading) return content;
	for (const element of descendants(content)) if (element.id === heading.id && element.tag === "h1") return content;
	return block("div", [prunedCopy(heading, () => false), content]);
}
