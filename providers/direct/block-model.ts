// A per-block boilerplate model over the chosen main content (extract.ts): each leaf text block is described by
// the features trafilatura and Readability decide on (length, link and punctuation density, class/id names, position,
// repetition among the content's blocks, a heading that leads a run of links, a site's pitch or an author's bio in
// their words); a block before the article's first long block or after its last goes when a logistic model says it
// is boilerplate. Weights: block-weights.ts.

import type { BlockModel } from "./block-weights.ts";
import { namesContent } from "./chrome-rules.ts";
import { collapse, named, textOf } from "./dom-text.ts";
import type { El } from "./dom-types.ts";
import { chromeIn, isBlockIn, isHeadingTag, type Stats } from "./extract-measure.ts";

/** The features, in the order of a model's weights (the first weight is the bias). */
export const BLOCK_FEATURES = [
	"bias",
	"logChars",
	"linkDensity",
	"endsSentence",
	"marksPer100",
	"chromeName",
	"contentName",
	"position",
	"beforeFirstLong",
	"afterLastLong",
	"repeated",
	"linkRun",
	"heading",
	"headingBeforeLinks",
	"listItem",
	"caption",
	"short",
	"digitShare",
	"shareOfContent",
	"boilerClass",
	"sameSignature",
	"plainParagraph",
	"promoWords",
	"bioWords",
] as const;

export type { BlockModel };

/** One leaf block of the content: its element, text and features (for the fit, `bench/extract-blocks.ts`). */
export interface BlockRow {
	element: El;
	text: string;
	features: number[];
	/**
	 * Judged by the model: a block before the content's first long block or after its last (where bios, teasers,
	 * datelines and notes sit; inside the article, drops cost more recall than they won precision on the folds), and
	 * not a heading, code, a table cell or a caption (the article's when they are inside it: what the model lost).
	 */
	edge: boolean;
}

const RULES = {
	/** A block this long with little link text anchors the article (the "long" of before/after features). */
	longChars: 150,
	/** A block with more link text than this share is a link. */
	linkDensity: 0.5,
	shortChars: 30,
	/** Repetition is judged on texts at least this long. */
	repeatChars: 10,
	/**
	 * A content of more leaf blocks than this is not judged at all (a book-length document, whose edges the model
	 * was not fit on): the bound on what the model costs a page, before any block's text is read.
	 */
	maxBlocks: 2000,
};

const SENTENCE_END = /[.!?…:;。！？"”»)]\s*$/u;
const MARKS = /[.,;:!?]/g;
const DIGITS = /\d/g;
const CAPTION_TAGS = new Set(["figcaption", "caption", "figure"]);
const LIST_TAGS = new Set(["li", "dd", "dt"]);
const NEVER_JUDGED = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "pre", "code", "td", "th", "caption", "figcaption"]);
/** Class or id words of boxes around an article's text that are not its text (teasers, notes, boxes, bios). */
const BOILER_CLASS =
	/teaser|snippet|excerpt|utility|nota|note|newsletter|tiny|small|box|promo|related|author|bio|info|meta|foot|contact|list|card|item|widget|kicker|credit|caption|copyright|description|subline|sidebar|categor|rating|byline|label/i;

/**
 * Words of what a site says about itself beside the article, in the languages of the development corpus: calls to
 * subscribe, follow, sign up, donate or read on, advertising and affiliate notes, copyright and reprint notes.
 */
const PROMO_WORDS =
	/subscri|newsletter|sign(?:ing)? up|follow (?:us|the|@)|abonn|registrier|spende|donat|support (?:us|our)|unterstützen sie|copyright|©|all rights reserved|alle rechte|derechos reservados|werbung|affiliate|sponsored|read more|weiterlesen|lesen sie (?:auch|mehr)|mehr zum thema|suscr[ií]b|s[ií]guenos|h[aá]zte miembro|click here|hier klicken|download (?:the|our) app|contact us|kontaktieren sie|share (?:this|on|via)|(?:artikel|beitrag|seite) teilen|compartir (?:en|este)/i;

/** Words of an author's note about themselves (a bio after the article), in the languages of the corpus. */
const BIO_WORDS =
	/\b(?:writes (?:about|for)|is an? (?:\w+ )?(?:reporter|writer|journalist|editor|correspondent|author|professor)|professor emeritus|studied|schreibt (?:über|für)|ist (?:freie[rn]? )?(?:redakteur|journalist|autor|korrespondent)|studierte|arbeitet als|escribe (?:sobre|para)|es periodista)/i;

/**
 * The leaf text blocks under `root` (blocks holding no block), in document order; the features of those the model
 * judges (`edge`), or of every block with `everyRow` (a look at the model, not the extraction's path).
 */
export function blockRows(root: El, stats: Stats, everyRow = false): BlockRow[] {
	const leaves: El[] = [];
	const stack: El[] = [root];
	while (stack.length > 0) {
		const element = stack.pop()!;
		if (element !== root && isBlockIn(stats, element) && !element.hasBlock) {
			if (leaves.push(element) > RULES.maxBlocks) return [];
			continue;
		}
		for (let i = element.children.length - 1; i >= 0; i--) {
			const child = element.children[i]!;
			if (typeof child !== "string") stack.push(child);
		}
	}
	const rows: BlockRow[] = [];
	for (const element of leaves) {
		const text = collapse(textOf(element));
		if (text !== "") rows.push({ element, text, features: [], edge: false });
	}
	describeRows(rows, root, stats, everyRow);
	return rows;
}

/** The names of a block and its ancestors below `root`: chrome 1, content 2, caption 4, list item 8, boxes 16. */
function namesAbove(element: El, root: El, stats: Stats): number {
	let flags = 0;
	for (let at: El | undefined = element; at && at !== root; at = at.parent) {
		if (chromeIn(stats, at) !== undefined) flags |= 1;
		if (namesContent(at)) flags |= 2;
		if (CAPTION_TAGS.has(at.tag)) flags |= 4;
		if (LIST_TAGS.has(at.tag)) flags |= 8;
		if (named(at, BOILER_CLASS)) flags |= 16;
	}
	return flags;
}

function describeRows(rows: BlockRow[], root: El, stats: Stats, everyRow: boolean): void {
	const rootChars = stats.chars[root.id]! || 1;
	const density = (row: BlockRow) => {
		const chars = stats.chars[row.element.id]!;
		return chars > 0 ? Math.min(1, stats.linkChars[row.element.id]! / chars) : 0;
	};
	const densities = rows.map(density);
	let firstLong = rows.length;
	let lastLong = -1;
	const seen = new Map<string, number>();
	const signatureOf = rows.map((row) =>
		row.element.attrs.class ? `${row.element.tag}.${row.element.attrs.class}` : "",
	);
	const signatures = new Map<string, number>();
	for (const signature of signatureOf) signatures.set(signature, (signatures.get(signature) ?? 0) + 1);
	/** A site's or an author's own words (a subscription pitch, a reprint note, a bio). */
	const ownWords = (text: string) => PROMO_WORDS.test(text) || BIO_WORDS.test(text);
	rows.forEach((row, i) => {
		if (row.text.length >= RULES.longChars && densities[i]! < RULES.linkDensity) {
			firstLong = Math.min(firstLong, i);
			// A long block in a site's or an author's own words does not end the article: the blocks after the last
			// one that does stay at the edge, where the model judges them.
			if (!ownWords(row.text)) lastLong = i;
		}
		if (row.text.length >= RULES.repeatChars) seen.set(row.text, (seen.get(row.text) ?? 0) + 1);
	});
	const link = (i: number) => i >= 0 && i < rows.length && densities[i]! > RULES.linkDensity;
	rows.forEach((row, i) => {
		row.edge = (i < firstLong || i > lastLong) && !NEVER_JUDGED.has(row.element.tag);
		if (!row.edge && !everyRow) return;
		const chars = row.text.length;
		const flag = namesAbove(row.element, root, stats);
		const heading = isHeadingTag(row.element.tag);
		row.features = [
			1,
			Math.log1p(chars) / 8,
			densities[i]!,
			SENTENCE_END.test(row.text) ? 1 : 0,
			Math.min(1, ((row.text.match(MARKS)?.length ?? 0) * 100) / chars / 10),
			flag & 1 ? 1 : 0,
			flag & 2 ? 1 : 0,
			rows.length > 1 ? i / (rows.length - 1) : 0,
			i < firstLong ? 1 : 0,
			i > lastLong ? 1 : 0,
			(seen.get(row.text) ?? 0) > 1 ? 1 : 0,
			link(i) && (link(i - 1) || link(i + 1)) ? 1 : 0,
			heading ? 1 : 0,
			heading && link(i + 1) ? 1 : 0,
			flag & 8 ? 1 : 0,
			flag & 4 ? 1 : 0,
			chars < RULES.shortChars ? 1 : 0,
			(row.text.match(DIGITS)?.length ?? 0) / chars,
			Math.min(1, chars / rootChars),
			flag & 16 ? 1 : 0,
			signatureOf[i] !== "" && signatures.get(signatureOf[i]!)! > 1 ? 1 : 0,
			row.element.tag === "p" && !row.element.attrs.class ? 1 : 0,
			PROMO_WORDS.test(row.text) ? 1 : 0,
			BIO_WORDS.test(row.text) ? 1 : 0,
		];
	});
}

/** The model's probability that a block is boilerplate. */
function boilerplateProbability(model: BlockModel, features: readonly number[]): number {
	let z = 0;
	for (let i = 0; i < features.length; i++) z += (model.weights[i] ?? 0) * features[i]!;
	return 1 / (1 + Math.exp(-z));
}

/**
 * The edge blocks among a content's `rows` (blockRows) the model judges content (scored below its threshold): the
 * trailing lines' pass (extract-left-out.ts) keeps them, so a short line after the article that reads as no sentence
 * (a recipe's credit, an address) is left to the model, which saw it among the blocks it was fit on, rather than to
 * the rule.
 */
export function judgedContent(rows: readonly BlockRow[], model: BlockModel): Set<El> {
	const content = new Set<El>();
	if (model.threshold > 1) return content;
	for (const row of rows) {
		if (row.edge && boilerplateProbability(model, row.features) < model.threshold) content.add(row.element);
	}
	return content;
}

/**
 * Takes out of `root` the leaf blocks the model calls boilerplate, except those `keep` says are the article's, and
 * the headings left at the content's end with nothing after them ("Our sister papers" over a dropped box); returns
 * how many went. `rows`: root's block rows when they were built already, while the tree was as it is (built here
 * otherwise, and only for a model that judges).
 */
export function dropBoilerplate(
	root: El,
	stats: Stats,
	model: BlockModel,
	keep?: (element: El) => boolean,
	rows?: readonly BlockRow[],
): number {
	if (model.threshold > 1) return 0;
	rows ??= blockRows(root, stats);
	const parents = new Set<El>();
	let dropped = 0;
	const drop = (element: El) => {
		element.removed = true;
		parents.add(element.parent!);
		dropped++;
	};
	for (const row of rows) {
		if (!row.edge) continue;
		if (boilerplateProbability(model, row.features) < model.threshold || keep?.(row.element)) continue;
		drop(row.element);
	}
	// The trailing lines' pass (extract-left-out.ts) kept these headings for what followed them, which went here.
	for (let i = rows.length - 1; i >= 0 && dropped > 0; i--) {
		const element = rows[i]!.element;
		if (element.removed) continue;
		if (!isHeadingTag(element.tag) || keep?.(element)) break;
		drop(element);
	}
	for (const parent of parents) {
		parent.children = parent.children.filter((child) => typeof child === "string" || !child.removed);
	}
	return dropped;
}
