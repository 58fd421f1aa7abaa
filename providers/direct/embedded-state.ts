// Keyless recovery for JavaScript shells: a page that is empty without JavaScript often carries its text in the state
// its scripts start from (read by embedded-blobs.ts) or in JSON-LD. Text fields become the content, HTML ones rendered
// by the converter's own parser and renderer; it counts only when it reads as prose. Runs in the worker, bounded.

import { parsePage } from "./dom.ts";
import { collapse, textOf } from "./dom-text.ts";
import type { El, Node } from "./dom-types.ts";
import { type StateScript, stateBlobs } from "./embedded-blobs.ts";
import { renderTree } from "./markdown.ts";
import type { EmbeddedText } from "./page-types.ts";

export const EMBEDDED_DEFAULTS = {
	/** State values tried per page (each is parsed, walked and rendered until one reads as prose). */
	maxBlobs: 16,
	/** A recovery counts only when its text, headings aside, has this many characters, words and sentence marks. */
	minProseChars: 200,
	minWords: 30,
	minSentenceMarks: 2,
	/**
	 * The recovered text is cut here: it crosses to the main thread in one message (convert-jobs.ts sends only a
	 * page's own markdown in parts), and a message this size holds that thread for about a millisecond.
	 */
	maxOutputChars: 256 * 1024,
	/** The walk of one state value: values visited, nesting followed, string characters looked at. */
	maxNodes: 100_000,
	maxDepth: 48,
	maxInputChars: 4 * 1024 * 1024,
	/** Shortest text field kept (a label is shorter), shortest prose kept from a field of no known name. */
	minFieldChars: 20,
	minUnnamedChars: 60,
	maxHeadingChars: 300,
};

/** What a text field is to the page, by its name: a heading, a summary, the body, or prose found elsewhere. */
type Role = "heading" | "summary" | "body" | "prose";

/** A text field in document order; `owner` numbers the record (object) it belongs to. */
type StateItem = { role: Role; text: string; owner: number };

export interface EmbeddedOptions {
	format: "markdown" | "text";
	links: "references" | "inline" | "none";
	baseUrl?: string;
	pageUrl?: string;
	/** The page's `<title>` (metadata.ts): the heading when the state names none. */
	title?: string;
	/** JSON-LD `articleBody` (metadata.ts), tried after the scripts' state. */
	articleBody?: string;
}

/** The first state value (then JSON-LD `articleBody`) whose text reads as prose, rendered; undefined when none. */
export function recoverEmbedded(scripts: readonly StateScript[], options: EmbeddedOptions): EmbeddedText | undefined {
	let tried = 0;
	for (const blob of stateBlobs(scripts)) {
		const text = render(stateItems(blob.value).items, options);
		if (text) return { source: blob.source, ...text };
		if (++tried >= EMBEDDED_DEFAULTS.maxBlobs) break;
	}
	if (!options.articleBody) return undefined;
	const items = options.articleBody.split(/\n\s*\n/).map((text): StateItem => ({ role: "body", text, owner: 1 }));
	const text = render(items, options);
	return text ? { source: "JSON-LD articleBody", ...text } : undefined;
}

type Rendered = Omit<EmbeddedText, "source">;
/** Characters, words and sentence marks of the prose rendered (the acceptance test). */
type Prose = { chars: number; words: number; marks: number };

const HTML_P = /<p[\s>]/i;
const HTML = /<(?:p|div|h[1-6]|ul|ol|li|br|a|strong|em|b|i|blockquote|pre|code|img|figure|table|span|section)\b[^>]*>/i;
const ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z]+);/i;
const MARKDOWN = /^(?:#{1,6} |[-*+] |\d+\. |> |```)|\[[^\]\n]+\]\([^)\s]+\)/m;
const WORD = /\p{L}[\p{L}\p{M}\p{N}'’-]*/gu;
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g;
const SENTENCE_MARK = /[.!?;。！？]/g;
const LINES = /\n\s*\n|\r?\n/;
/** A placeholder paragraph for a markdown field, put back as it is after rendering (the renderer escapes markers). */
const PLACEHOLDER = /^\uE000(\d+)\uE000$/gm;

function render(items: readonly StateItem[], options: EmbeddedOptions): Rendered | undefined {
	const proseOf = new Map<number, number>();
	for (const item of items) {
		if (item.role !== "heading") proseOf.set(item.owner, (proseOf.get(item.owner) ?? 0) + item.text.length);
	}
	if (proseOf.size === 0) return undefined;
	// The record with the most text is the page's subject: its first heading is the page's.
	const main = [...proseOf].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
	const titleItem = items.find((item) => item.owner === main && item.role === "heading");
	const title = titleItem ? headingText(titleItem.text) : options.title;
	const root = element("div", []);
	const prose: Prose = { chars: 0, words: 0, marks: 0 };
	const raw: string[] = [];
	for (const item of items) {
		if (item === titleItem) continue;
		if (item.role === "heading") {
			if (proseOf.has(item.owner)) add(root, element("h2", [headingText(item.text)]));
			continue;
		}
		addText(root, item.text, item.role, prose, raw, options.format);
	}
	const { minProseChars, minWords, minSentenceMarks } = EMBEDDED_DEFAULTS;
	if (prose.chars < minProseChars || prose.words < minWords || prose.marks < minSentenceMarks) return undefined;
	const { format, links, baseUrl, pageUrl } = options;
	const rendered = renderTree(root, { format, links, ...(baseUrl ? { baseUrl, pageUrl: pageUrl ?? baseUrl } : {}) });
	let markdown = rendered.text.replace(PLACEHOLDER, (_all, n: string) => raw[Number(n)]!);
	const heading = title ? collapse(title) : "";
	if (heading && !markdown.replace(/^#+ /, "").startsWith(heading)) {
		markdown = `${format === "markdown" ? "# " : ""}${heading}\n\n${markdown}`;
	}
	const cut = markdown.length > EMBEDDED_DEFAULTS.maxOutputChars;
	if (cut) markdown = cutText(markdown, EMBEDDED_DEFAULTS.maxOutputChars);
	return {
		markdown,
		...(title ? { title: collapse(title) } : {}),
		...(rendered.references ? { references: rendered.references } : {}),
		...(cut ? { cutAtChars: EMBEDDED_DEFAULTS.maxOutputChars } : {}),
	};
}

/** One text field into the tree: HTML parsed as the page is, markdown kept as written, plain text as paragraphs. */
function addText(root: El, text: string, role: Role, prose: Prose, raw: string[], format: "markdown" | "text"): void {
	if (HTML.test(text)) {
		const body = parsePage(text).body;
		measure(collapse(textOf(body)), prose);
		add(root, body);
		return;
	}
	measure(collapse(text), prose);
	if (role === "body" && format === "markdown" && MARKDOWN.test(text)) {
		add(root, element("p", [`\uE000${raw.length}\uE000`]));
		raw.push(text.trim());
		return;
	}
	for (const paragraph of text.split(LINES)) {
		if (paragraph.trim() !== "") add(root, element("p", [paragraph]));
	}
}

function measure(text: string, prose: Prose): void {
	prose.chars += text.length;
	// CJK text has no spaces between words: two characters count as one word.
	prose.words += (text.match(WORD)?.length ?? 0) + (text.match(CJK)?.length ?? 0) / 2;
	prose.marks += text.match(SENTENCE_MARK)?.length ?? 0;
}

/** A heading's text: tags and entities in a state's title (`title.rendered` of WordPress) read as the page would. */
function headingText(text: string): string {
	return text.includes("<") || ENTITY.test(text) ? collapse(textOf(parsePage(text).body)) : text;
}

/** Cuts at the last paragraph break before `max` (a surrogate pair is never split). */
function cutText(text: string, max: number): string {
	const paragraph = text.lastIndexOf("\n\n", max);
	let end = paragraph > max / 2 ? paragraph : max;
	const code = text.charCodeAt(end - 1);
	if (code >= 0xd800 && code <= 0xdbff) end--;
	return text.slice(0, end);
}

/** An element of the synthetic tree; every field the renderer and the page's own elements have. */
function element(tag: string, children: Node[]): El {
	return {
		id: 0,
		tag,
		attrs: {},
		children,
		parent: undefined,
		hasBlock: true,
		hasTable: false,
		removed: false,
		textChars: 0,
		textMarks: 0,
	};
}

function add(root: El, child: El): void {
	child.parent = root;
	root.children.push(child);
}

// --- the walk: a state value's text fields, in document order --------------------------------------------------

const words = (list: string) => list.split(" ");
/** Field names that say what their text is (lower-cased); `postTitle`, `bodyHtml` and the like by their suffix. */
const ROLE_OF = new Map<string, Role>([
	...words("title headline heading name subject").map((key) => [key, "heading"] as const),
	...words(
		"description summary excerpt subtitle subheading dek lede standfirst abstract teaser intro blurb caption",
	).map((key) => [key, "summary"] as const),
	...words("body content contents text articlebody markdown html bodyhtml paragraph paragraphs blocks sections").map(
		(key) => [key, "body"] as const,
	),
]);
const CAMEL_ROLE = /[a-z](Title|Headline|Heading|Description|Summary|Excerpt|Body|Content|Html|HTML|Markdown|Text)$/;
/** Fields that hold no text a reader sees (links, media, styling, config, i18n tables, SEO copies, chrome). */
const SKIP_KEYS = new Set(
	words(
		"id _id uuid guid key slug url uri href src srcset link links path permalink canonical image images img " +
			"thumbnail avatar icon logo cover poster video audio media file asset assets classname class classes style " +
			"styles css theme color locale locales lang language i18n translations messages dictionary strings labels " +
			"config runtimeconfig settings env flags features buildid query aspath route routes manifest hash token csrf " +
			"nonce analytics tracking ads seo meta metadata head og opengraph twitter jsonld navigation nav menu menus " +
			"footer breadcrumb breadcrumbs cookie cookies consent __typename __ref date timestamp alt alttext " +
			"buttontext ctatext placeholder tooltip arialabel",
	),
);
const SKIP_SUFFIX =
	/[a-z\d](?:Ids?|ID|Urls?|URL|Href|Src|Slug|Key|Hash|Token|Class|ClassName|Color|Date|At|Path)$|_(?:id|url|src|slug|key|hash|at|date|path)$/;
/** Wrappers of one text (`title.rendered`, `body.value`, rich text `children`): they take their parent's role. */
const WRAPPERS = new Set(words("rendered value raw plain children data json nodes items document doc root"));

const URL_LIKE = /^(?:[a-z][\w+.-]*:|\/\/|\/|\.\.?\/|#|www\.)\S*$/i;
const DATE_ONLY =
	/^(?:\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\p{L}{3,9}\.? \d{1,2},? \d{4}|\d{1,2} \p{L}{3,9}\.? \d{4})$/u;
const NUMERIC = /^[\d\s.,:;%+\-/]+$/;
const ONE_WORD = /^\p{L}[\p{L}\p{M}'’-]*$/u;
/** A utility-CSS class (`px-4`, `md:flex`, `text-[13px]`): a lower-case token with a separator in it. */
const CLASS_TOKEN = /^[!-]?[a-z\d]+(?:[-_:/.[\]#%]+[a-z\d%\]]*)+$/;

const SPACE = /\s/;
const SPACES = /\s+/;
const JSON_TEXT = /^[[{][\s\S]*[\]}]$/;
const SENTENCE_END = /[.!?。！？]/;

type Walk = { nodes: number; chars: number; owners: number; items: StateItem[]; seen: Set<string> };

/** The text fields of a state value, each string once, and the values visited (at most `maxNodes` + 1). */
export function stateItems(value: unknown): { items: StateItem[]; visited: number } {
	const walk: Walk = { nodes: 0, chars: 0, owners: 0, items: [], seen: new Set() };
	visit(walk, value, undefined, 0, 0);
	return { items: walk.items, visited: Math.min(walk.nodes, EMBEDDED_DEFAULTS.maxNodes + 1) };
}

function visit(walk: Walk, value: unknown, role: Role | undefined, owner: number, depth: number): void {
	if (++walk.nodes > EMBEDDED_DEFAULTS.maxNodes || depth > EMBEDDED_DEFAULTS.maxDepth) return;
	if (typeof value === "string") {
		take(walk, value, role, owner);
		return;
	}
	if (value === null || typeof value !== "object") return;
	if (Array.isArray(value)) {
		for (const item of value) {
			if (walk.nodes > EMBEDDED_DEFAULTS.maxNodes) return;
			visit(walk, item, role, owner, depth + 1);
		}
		return;
	}
	// A record of its own, unless it is the value of a named field (`content: { rendered }`): then part of its parent.
	const own = role === undefined ? ++walk.owners : owner;
	const record = value as Record<string, unknown>;
	for (const key in record) {
		if (walk.nodes > EMBEDDED_DEFAULTS.maxNodes) return;
		const lower = key.toLowerCase();
		if (SKIP_KEYS.has(lower) || SKIP_SUFFIX.test(key)) continue;
		const named = ROLE_OF.get(lower) ?? ROLE_OF.get(CAMEL_ROLE.exec(key)?.[1]?.toLowerCase() ?? "");
		visit(walk, record[key], named ?? (role && WRAPPERS.has(lower) ? role : undefined), own, depth + 1);
	}
}

function take(walk: Walk, value: string, role: Role | undefined, owner: number): void {
	walk.chars += value.length;
	if (walk.chars > EMBEDDED_DEFAULTS.maxInputChars) {
		walk.nodes = Number.POSITIVE_INFINITY;
		return;
	}
	const text = value.trim();
	if (text.length < 2 || isNoise(text)) return;
	let kind = role === "heading" && text.length > EMBEDDED_DEFAULTS.maxHeadingChars ? undefined : role;
	if (kind === undefined) {
		if (text.length < EMBEDDED_DEFAULTS.minUnnamedChars || !(HTML_P.test(text) || readsAsProse(text))) return;
		kind = "prose";
	} else if (kind !== "heading" && text.length < EMBEDDED_DEFAULTS.minFieldChars) return;
	if (walk.seen.has(text)) return;
	walk.seen.add(text);
	walk.items.push({ role: kind, text, owner });
}

/** URLs and paths, dates, numbers, ids, hashes, base64, i18n keys (one token that is no word), class lists, JSON. */
function isNoise(text: string): boolean {
	if (URL_LIKE.test(text) || DATE_ONLY.test(text) || NUMERIC.test(text)) return true;
	if (!SPACE.test(text)) return !ONE_WORD.test(text);
	if (JSON_TEXT.test(text)) return true;
	if (text.length > 500) return false;
	const tokens = text.split(SPACES);
	return tokens.filter((token) => CLASS_TOKEN.test(token)).length * 2 >= tokens.length;
}

/** Words and a sentence mark in the field's start (or CJK text, which has no spaces between words). */
function readsAsProse(text: string): boolean {
	const head = text.slice(0, 2000);
	const wordy = (head.match(WORD)?.length ?? 0) >= 8 && SENTENCE_END.test(head);
	return wordy || (head.match(CJK)?.length ?? 0) >= 20;
}
