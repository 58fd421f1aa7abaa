// What kind of page this is (article, listing, collection, documentation, forum thread, product, service/landing),
// read from its schema.org types (JSON-LD, microdata `itemtype`) and its structure (repeated sibling blocks, code,
// specification tables, headed sections), in one pass over the element tree before the extraction prunes it.

import type { ParsedPage } from "./dom.ts";
import { named } from "./dom-text.ts";
import type { El } from "./dom-types.ts";
import { measure, newStats, type Stats } from "./extract-measure.ts";
import { isNonArticleChrome, schemaTypes } from "./kinds/signals.ts";

export type PageKind = "article" | "listing" | "collection" | "documentation" | "forum" | "product" | "service";

export interface KindReading {
	kind: PageKind;
	/** Listing and collection items, or a thread's posts, in document order. */
	items: El[];
	/** Figures per element (characters, link characters, prose weight), measured on the unpruned tree. */
	stats: Stats;
	/** 1 for an element that is page chrome or inside some (kinds/signals.ts). */
	chrome: Uint8Array;
	/** Characters of text outside chrome, per element. */
	clean: Float64Array;
}

export const KIND_RULES = {
	/** A group of this many siblings of one shape (tag and class), each with a link, is a list of items. */
	minItems: 4,
	/** An item longer than this is a section of prose, not a list entry. */
	maxItemChars: 700,
	/** A listing's items hold at least this share of the page's text outside its chrome. */
	listingShare: 0.6,
	/** A paragraph this long is article prose: a page that has one is not read as a listing or a service page. */
	proseChars: 400,
	/** A thread has at least this many posts. */
	minPosts: 2,
	/** Code blocks (`<pre>`) from which a page with a docs-like type or sidebar is documentation. */
	minCodeBlocks: 2,
	/** Headed sections from which a page without prose, date or article element is a service or landing page. */
	minSections: 3,
	/** An entry without a heading or an image has at least this much text beside its links. */
	entryTextChars: 20,
	/** Collection items are cards: an image and at most this much text each. */
	cardChars: 160,
};

const ARTICLE_TYPES = /^(?:NewsArticle|BlogPosting|Article|ReportageNewsArticle|OpinionNewsArticle|Report|Recipe)$/;
const FORUM_TYPES = /^(?:DiscussionForumPosting|QAPage)$/;
const LISTING_TYPES = /^(?:ItemList|CollectionPage|SearchResultsPage|OfferCatalog)$/;
const DOCS_TYPES = /^(?:TechArticle|APIReference|SoftwareSourceCode)$/;
const POST_NAME = /(?:^|[\s_-])(?:post|posts|message|reply|replies|topic|thread|answer|postbit)(?:$|[\s_-])/i;
const COMMENT_NAME = /comment/i;
const OPENING_NAME = /(?:^|[\s_-])(?:question|topic|opening|first-?post)(?:$|[\s_-])/i;
/** A slider of teasers beside an article, never a page's list. */
const CAROUSEL = /slider|swiper|carousel|slick|owl-|glide/i;
const ENTRY_PARTS = new Set(["h2", "h3", "h4", "img", "picture"]);
const POST_TYPES = /(?:DiscussionForumPosting|Comment|Answer|Question|SocialMediaPosting)$/;
const PRICE_NAME = /(?:^|[\s_-])(?:price|pricing|plans?|tiers?)(?:$|[\s_-])/i;
const SPEC_NAME = /(?:^|[\s_-])(?:specs?|specifications?|attributes|tech-?specs|features)(?:$|[\s_-])/i;

/** Reads the page's kind; the figures it measured are handed on to the kind's extraction. */
export function detectKind(page: ParsedPage, dated = false): KindReading {
	const { body, elements } = page;
	const stats = newStats(elements.length);
	measure(body, elements, stats);
	const chrome = new Uint8Array(elements.length);
	const bodyText = stats.chars[body.id]! - stats.linkChars[body.id]!;
	const types = schemaTypes(page.jsonLd);
	const seen = { pre: 0, sections: 0, sectionTags: 0, longProse: 0, articles: 0, specs: 0, prices: 0 };
	const postTyped: El[] = [];
	let longest: El | undefined;
	/** Elements outside chrome with children enough to hold a group, in document order (largestGroup's parents). */
	const parents: El[] = body.children.length >= KIND_RULES.minPosts ? [body] : [];
	for (let id = 1; id < elements.length; id++) {
		const element = elements[id]!;
		if (element.parent && (chrome[element.parent.id] === 1 || isNonArticleChrome(element, stats, bodyText))) {
			chrome[id] = 1;
			continue;
		}
		if (element.children.length >= KIND_RULES.minPosts) parents.push(element);
		const type = element.attrs.itemtype?.split("/").pop();
		if (type) types.add(type);
		if (type && POST_TYPES.test(type)) postTyped.push(element);
		const tag = element.tag;
		if (tag === "pre") seen.pre++;
		else if (tag === "h2" || tag === "h3") seen.sections++;
		else if (tag === "section") seen.sectionTags++;
		else if (tag === "article") seen.articles++;
		else if (tag === "p") {
			const prose = nonLinkChars(element, stats);
			if (prose >= KIND_RULES.proseChars) seen.longProse++;
			if (!longest || prose > nonLinkChars(longest, stats)) longest = element;
		} else if ((tag === "dl" || tag === "table") && named(element, SPEC_NAME)) seen.specs++;
		if (element.attrs.itemprop === "price" || named(element, PRICE_NAME)) seen.prices++;
	}
	const clean = cleanChars(elements, chrome);
	const reading = (kind: PageKind, items: El[] = []): KindReading => ({ kind, items, stats, chrome, clean });
	const has = (pattern: RegExp) => [...types].some((type) => pattern.test(type));
	const pageText = clean[body.id]!;
	const group = largestGroup(parents, stats, chrome);

	// A thread's opening post has the shape of its replies; an article's comments do not hold its longest paragraph.
	const threadProse =
		group?.posts === true &&
		group.chars >= pageText * KIND_RULES.listingShare &&
		(!longest || inside(longest, group.items));
	if (has(FORUM_TYPES) || (!has(ARTICLE_TYPES) && threadProse)) {
		const posts =
			postTyped.length >= KIND_RULES.minPosts
				? outermost(postTyped)
				: group?.posts
					? [...openingPosts(group.items[0]!, stats), ...group.items]
					: [];
		if (posts.length >= KIND_RULES.minPosts) return reading("forum", posts);
	}
	if (types.has("Product") && !has(LISTING_TYPES)) return reading("product");
	if (has(ARTICLE_TYPES)) return reading(has(DOCS_TYPES) ? "documentation" : "article");
	const listed =
		group && group.items.length >= KIND_RULES.minItems && group.chars >= pageText * KIND_RULES.listingShare;
	if (listed && seen.longProse === 0) {
		const cards = group.items.every((item) => holds(item, IMAGES) && nonLinkChars(item, stats) <= KIND_RULES.cardChars);
		return reading(cards ? "collection" : "listing", group.items);
	}
	if (has(DOCS_TYPES) || (seen.pre >= KIND_RULES.minCodeBlocks && seen.longProse === 0))
		return reading("documentation");
	if (seen.specs > 0 && seen.prices > 0 && seen.articles === 0) return reading("product");
	// Articles have dates; a landing page has headed sections (or plans and prices) and no long paragraph.
	const plain = seen.longProse === 0 && seen.articles === 0 && !dated;
	const landing = seen.prices > 0 || seen.sectionTags >= KIND_RULES.minSections;
	if (plain && landing && seen.sections >= KIND_RULES.minSections) return reading("service");
	return reading("article");
}

interface Group {
	items: El[];
	chars: number;
	/** Items named as posts (class or id), each with prose of its own. */
	posts: boolean;
}

/**
 * The largest set of sibling elements of one shape (tag and class) outside chrome, each with a link and short:
 * the entries of a listing or the posts of a thread. `parents`: the elements outside chrome with two children or
 * more, in document order; each one's children are looked at once.
 */
function largestGroup(parents: readonly El[], stats: Stats, chrome: Uint8Array): Group | undefined {
	let best: Group | undefined;
	for (const parent of parents) {
		const groups = shapeGroups(parent, stats, chrome);
		if (groups.length === 0 || named(parent, CAROUSEL)) continue;
		for (const items of groups) {
			const shape = `${items[0]!.tag} ${items[0]!.attrs.class ?? ""}`;
			// An article's comments (`comment thread-even`) are not a thread's posts, whatever else names them.
			const postNamed = POST_NAME.test(shape) && !COMMENT_NAME.test(shape);
			const posts = postNamed && items.every((i) => stats.marks[i.id]! > 0);
			if (items.length < KIND_RULES.minItems && !posts) continue;
			if (!posts && !items.every((item) => isEntry(item, stats))) continue;
			const chars = items.reduce((sum, item) => sum + stats.chars[item.id]!, 0);
			if (!best || chars > best.chars) best = { items, chars, posts };
		}
	}
	return best;
}

/**
 * Shapes told apart in place per parent before a map is made: most parents have a few (a list, a row of cards). A
 * slot holds its first child's position only (its tag and class are read off that child): a class kept here would
 * be a slice of the page and keep the whole page alive until the next one.
 */
const SHAPE_SLOTS = 16;
const slotFirst = new Int32Array(SHAPE_SLOTS);
const slotCount = new Int32Array(SHAPE_SLOTS);
const NO_GROUPS: El[][] = [];

/** A child that can be one of a group's items: an element outside chrome, with text. */
function grouped(child: El | string, stats: Stats, chrome: Uint8Array): child is El {
	return typeof child !== "string" && chrome[child.id] !== 1 && stats.chars[child.id] !== 0;
}

/**
 * A parent's children outside chrome and with text, grouped by shape (tag and class) in the order each shape first
 * appears; a shape met once is no group (a group has `minPosts` items or more). No key string or list is made for
 * a child until its shape proves to repeat, so the parents of a big page cost no garbage.
 */
function shapeGroups(parent: El, stats: Stats, chrome: Uint8Array): El[][] {
	const children = parent.children;
	let slots = 0;
	for (let i = 0; i < children.length; i++) {
		const child = children[i]!;
		if (!grouped(child, stats, chrome)) continue;
		const className = child.attrs.class ?? "";
		let slot = 0;
		while (slot < slots && !sameShape(children[slotFirst[slot]!] as El, child.tag, className)) slot++;
		if (slot === slots) {
			if (slots === SHAPE_SLOTS) return shapeGroupsByKey(parent, stats, chrome);
			slotFirst[slot] = i;
			slotCount[slot] = 0;
			slots++;
		}
		slotCount[slot]!++;
	}
	let groups = NO_GROUPS;
	for (let slot = 0; slot < slots; slot++) {
		if (slotCount[slot]! < KIND_RULES.minPosts) continue;
		const items = new Array<El>(slotCount[slot]!);
		const first = children[slotFirst[slot]!] as El;
		const className = first.attrs.class ?? "";
		for (let i = slotFirst[slot]!, n = 0; n < items.length; i++) {
			const child = children[i]!;
			if (!grouped(child, stats, chrome)) continue;
			if (sameShape(child, first.tag, className)) items[n++] = child;
		}
		if (groups === NO_GROUPS) groups = [];
		groups.push(items);
	}
	return groups;
}

function sameShape(element: El, tag: string, className: string): boolean {
	return element.tag === tag && (element.attrs.class ?? "") === className;
}

/** `shapeGroups` for a parent with more shapes than slots, by a map from each shape's key. */
function shapeGroupsByKey(parent: El, stats: Stats, chrome: Uint8Array): El[][] {
	const shapes = new Map<string, El[]>();
	for (const child of parent.children) {
		if (!grouped(child, stats, chrome)) continue;
		const shape = `${child.tag} ${child.attrs.class ?? ""}`;
		const list = shapes.get(shape);
		if (list) list.push(child);
		else shapes.set(shape, [child]);
	}
	return [...shapes.values()].filter((items) => items.length >= KIND_RULES.minPosts);
}

/**
 * A list entry: short, with a link, and a title or text of its own (a heading, an image, or words beside the link);
 * a paragraph is prose and a bare link is an index line (a song list, a tag cloud).
 */
function isEntry(item: El, stats: Stats): boolean {
	if (item.tag === "p" || stats.linkChars[item.id]! === 0 || stats.chars[item.id]! > KIND_RULES.maxItemChars)
		return false;
	return nonLinkChars(item, stats) >= KIND_RULES.entryTextChars || holds(item, ENTRY_PARTS);
}

function nonLinkChars(element: El, stats: Stats): number {
	return stats.chars[element.id]! - stats.linkChars[element.id]!;
}

/** Characters of text outside chrome per element: what a reader of the page sees beside its navigation. */
function cleanChars(elements: readonly El[], chrome: Uint8Array): Float64Array {
	const clean = new Float64Array(elements.length);
	for (let id = elements.length - 1; id >= 0; id--) {
		const element = elements[id]!;
		clean[id] = chrome[id] === 1 ? 0 : clean[id]! + element.textChars;
		if (element.parent && id > 0) clean[element.parent.id]! += clean[id]!;
	}
	return clean;
}

const IMAGES = new Set(["img", "picture"]);

/** True when an element of one of `tags` is among the element's descendants. */
function holds(element: El, tags: ReadonlySet<string>): boolean {
	const stack: El[] = [element];
	while (stack.length > 0) {
		const at = stack.pop()!;
		if (tags.has(at.tag)) return true;
		for (const child of at.children) if (typeof child !== "string") stack.push(child);
	}
	return false;
}

/** A Q&A page's question (or a thread's opening post) before its answers: earlier siblings named so, with prose. */
function openingPosts(first: El, stats: Stats): El[] {
	const siblings = first.parent?.children ?? [];
	const before: El[] = [];
	for (const sibling of siblings) {
		if (sibling === first) break;
		if (typeof sibling === "string" || stats.marks[sibling.id] === 0) continue;
		if (named(sibling, OPENING_NAME) || named(sibling, POST_NAME)) before.push(sibling);
	}
	return before;
}

/** True when `element` is one of `items` or inside one. */
function inside(element: El, items: readonly El[]): boolean {
	const set = new Set(items);
	for (let at: El | undefined = element; at; at = at.parent) if (set.has(at)) return true;
	return false;
}

/** The elements not inside another of them (posts typed inside posts: a quoted reply). */
function outermost(list: El[]): El[] {
	const set = new Set(list);
	return list.filter((element) => {
		for (let at = element.parent; at; at = at.parent) if (set.has(at)) return false;
		return true;
	});
}
