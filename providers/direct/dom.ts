// A compact element tree built from the page's events (html-events.ts: htmlparser2's Tokenizer under its Parser's
// HTML rules) in one linear pass, with what the page checks need measured on the way: head metadata (title, meta
// tags, JSON-LD, base href), visible text length and sample, scripts, app state scripts, noscript text, empty mount
// points. Depth is counted on the events' own opens and closes, so it agrees; past DOM_DEFAULTS.maxDepth elements
// are read as one level, as browsers' parsers do.

import { BLOCKS, KEPT_ATTRS, Kind, MOUNT_IDS, SENTENCE_MARKS, tagInfo } from "./dom-tags.ts";
import { collapse, hasText } from "./dom-text.ts";
import type { El, Node } from "./dom-types.ts";
import { isStateScript, keepStateScript, type StateScript } from "./embedded-blobs.ts";
import { HtmlEvents } from "./html-events.ts";

export interface ParsedPage {
	/** The `<body>` (or a synthetic root when the page has none). */
	body: El;
	/** Elements created (ids run from 0 to this, exclusive). */
	elementCount: number;
	/** Every element by id, in document order (the body first): a subtree is a contiguous run of ids. */
	elements: El[];
	title: string;
	/** `name`/`property`/`itemprop` → `content` of `<meta>` tags, lower-cased keys, first one wins. */
	meta: Record<string, string>;
	/** Texts of `<script type="application/ld+json">` blocks. */
	jsonLd: string[];
	/** JSON data blocks and inline code assigning app state (embedded-blobs.ts): a JavaScript shell's text. */
	stateScripts: StateScript[];
	baseHref?: string;
	/** `<html lang>` and the first `<link rel="canonical">`'s href, as written (metadata.ts checks them). */
	lang?: string;
	canonicalHref?: string;
	textLength: number;
	textSample: string;
	scriptCount: number;
	noscriptText: string;
	emptyMount: boolean;
	/** Elements were nested deeper than DOM_DEFAULTS.maxDepth: the deeper ones were read as one level. */
	flattened: boolean;
	/** Nesting went past DOM_DEFAULTS.maxParseDepth: the page was read up to there only. */
	stoppedDeep: boolean;
}

export const DOM_DEFAULTS = {
	/**
	 * Elements deeper than this are no level of their own: their text goes to the deepest element, as in browsers,
	 * whose parsers stop nesting at 512 too. Bounds the tree's depth for every walk over it.
	 */
	maxDepth: 512,
	/**
	 * Past this depth the rest of the page is not read: a close tag that names no open element, a `<form>` and a
	 * close in SVG's casing search the open elements (html-events.ts, as htmlparser2's Parser does), so each can cost
	 * as much as the levels above it; 4,096 levels cost milliseconds.
	 */
	maxParseDepth: 4096,
	sampleChars: 500,
	/** JSON-LD kept per page (metadata only needs the first blocks). */
	maxJsonLdChars: 1024 * 1024,
	/**
	 * A `<noscript>` with this much text is content a reader without JavaScript sees (Blogger keeps posts there
	 * beside a script template) and stays in the tree; a shorter one (a notice, a tracking pixel) is left out.
	 */
	noscriptContentChars: 200,
};

/** Shared by every element without a kept attribute (most of them); never written to. */
const NO_ATTRS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** The children of an element still open while parsing (its real array is made at its close, at its size). */
const OPEN_CHILDREN: Node[] = [];

/** What the text count tells apart in a character: whitespace, sentence marks (dom-tags.ts), the rest (0). */
const CharType = { Space: 1, Mark: 2 } as const;

/** The type of each UTF-16 code unit: one load a character, no range tests (64 KB). */
const CHAR_TYPES = new Uint8Array(0x10000);
for (const code of [9, 10, 11, 12, 13, 32, 160]) CHAR_TYPES[code] = CharType.Space;
for (const code of SENTENCE_MARKS) CHAR_TYPES[code] = CharType.Mark;

/** Every element gets all fields at creation, so all share one shape (property reads stay monomorphic). */
function newElement(id: number, tag: string, attrs: Record<string, string>, parent: El | undefined): El {
	return {
		id,
		tag,
		attrs,
		children: OPEN_CHILDREN,
		parent,
		hasBlock: false,
		hasTable: false,
		removed: false,
		textChars: 0,
		textMarks: 0,
	};
}

/**
 * Where the attributes of the tag being opened go: nowhere, the kept ones to `attrElement` (an element, or the
 * body's root), or all of them to `tagAttrs` for a `<meta>`, `<base>` or `<script>` (read when the tag ends).
 */
const AttrsTo = { Nowhere: 0, Element: 1, Tag: 2 } as const;

export function parsePage(html: string): ParsedPage {
	const root = newElement(0, "body", {}, undefined);
	const elements: El[] = [root];
	let nextId = 1;
	let current = root;
	let depth = 0;
	/** Depth at which a skipped element opened (0: not inside one). */
	let skipDepth = 0;
	let skipTag = "";
	let body: El | undefined;
	const mounts: El[] = [];
	const page: ParsedPage = {
		body: root,
		elementCount: 0,
		elements,
		title: "",
		meta: {},
		jsonLd: [],
		stateScripts: [],
		textLength: 0,
		textSample: "",
		scriptCount: 0,
		noscriptText: "",
		emptyMount: false,
		flattened: false,
		stoppedDeep: false,
	};
	let rawText = "";
	let lastSpace = true;
	let jsonLdChars = 0;
	// Attributes arrive one by one after the tag's name (html-events.ts builds no attribute object per tag).
	let attrsTo: number = AttrsTo.Nowhere;
	let attrElement = root;
	let tagAttrs: Record<string, string> = {};
	/** The first `<html>` tag's attributes (its `lang`), kept apart from the next tag's. */
	let htmlAttrs: Record<string, string> | undefined;
	/** A `<script>` whose attributes are still arriving: its type is known at its first text or its end. */
	let scriptOpen = false;
	// The children of the open elements, innermost last: each element's run starts at its entry in `starts`.
	const pending: Node[] = [];
	let top = 0;
	const starts: number[] = [0];
	let start = 0;
	/** The outermost open `<noscript>`: its text counts as visible only once it proves long enough to keep. */
	let noscript: El | undefined;
	let noscriptChars = 0;
	let noscriptRaw = "";
	const events = new HtmlEvents(html, {
		open(name) {
			if (++depth > DOM_DEFAULTS.maxParseDepth && !page.stoppedDeep) {
				page.stoppedDeep = true;
				events.stop();
			}
			attrsTo = AttrsTo.Nowhere;
			if (skipDepth) return;
			const { tag, kind } = tagInfo(name);
			if (kind !== Kind.Element && (tag !== "noscript" || noscript)) return openSpecial(tag, kind);
			if (depth > DOM_DEFAULTS.maxDepth) {
				page.flattened = true;
				return;
			}
			const element = newElement(nextId++, tag, NO_ATTRS, current);
			elements.push(element);
			pending[top++] = element;
			starts.push(top);
			start = top;
			current = element;
			attrsTo = AttrsTo.Element;
			attrElement = element;
			if (tag === "app-root") mounts.push(element);
			if (tag === "noscript") {
				noscript = element;
				noscriptChars = 0;
				noscriptRaw = "";
			}
		},
		wants(key) {
			if (attrsTo === AttrsTo.Nowhere) return false;
			if (attrsTo === AttrsTo.Tag || KEPT_ATTRS.has(key)) return true;
			const element = attrElement;
			if (key === "data-reactroot" && element !== root && element.tag !== "app-root") mounts.push(element);
			return false;
		},
		attribute(key, value) {
			if (attrsTo === AttrsTo.Tag) {
				if (!Object.hasOwn(tagAttrs, key)) tagAttrs[key] = value;
				return;
			}
			const element = attrElement;
			if (element.attrs === NO_ATTRS) element.attrs = {};
			const attrs = element.attrs;
			if (key in attrs) return;
			attrs[key] = value;
			if (key === "id" && element !== root && MOUNT_IDS.has(value)) mounts.push(element);
		},
		close(name) {
			const closing = depth--;
			attrsTo = AttrsTo.Nowhere;
			if (skipDepth) {
				if (depth >= skipDepth) return;
				if (scriptOpen) endScriptTag();
				skipDepth = 0;
				if (skipTag === "title") page.title ||= collapse(rawText);
				else if (skipTag === "ld" && jsonLdChars < DOM_DEFAULTS.maxJsonLdChars) {
					page.jsonLd.push(rawText);
					jsonLdChars += rawText.length;
				} else if (skipTag === "state") keepStateScript(page.stateScripts, tagAttrs, rawText);
				else if (skipTag === "noscript" && page.noscriptText.length < DOM_DEFAULTS.sampleChars) {
					page.noscriptText = collapse(`${page.noscriptText} ${rawText}`).slice(0, DOM_DEFAULTS.sampleChars);
				}
				rawText = "";
				return;
			}
			if (name === "meta") return addMeta(page.meta, tagAttrs);
			if (name === "base") {
				page.baseHref ??= tagAttrs.href;
				return;
			}
			if (name === "link") {
				if (/(?:^|\s)canonical(?:\s|$)/i.test(tagAttrs.rel ?? "")) page.canonicalHref ??= tagAttrs.href;
				return;
			}
			// An element past the depth limit was never made (open): nothing to close.
			if (closing > DOM_DEFAULTS.maxDepth) return;
			if (name === "body" || name === "html" || name === "head" || current === root) return;
			if (current.tag !== name) return;
			if (current === noscript && dropNoscript(current)) return;
			closeCurrent();
		},
		text(text, source, from, to) {
			attrsTo = AttrsTo.Nowhere;
			if (skipDepth) {
				if (scriptOpen) endScriptTag();
				if (skipTag === "title" || skipTag === "noscript" || skipTag === "ld" || skipTag === "state") rawText += text;
				return;
			}
			if (noscript && noscriptRaw.length < DOM_DEFAULTS.sampleChars) noscriptRaw += text;
			// Adjacent text (split at entities) is one child.
			if (top > start && typeof pending[top - 1] === "string") pending[top - 1] += text;
			else pending[top++] = text;
			countText(text, source, from, to);
		},
	});

	/** A tag that is no element of the tree: skipped content, head metadata, the document's own tags. */
	function openSpecial(name: string, kind: number): void {
		if (kind === Kind.Skipped || kind === Kind.Script || kind === Kind.Head) {
			skipTag = name;
			if (kind === Kind.Script) {
				scriptOpen = true;
				attrsTo = AttrsTo.Tag;
				tagAttrs = {};
			}
			if (kind !== Kind.Head) {
				skipDepth = depth;
				rawText = "";
			}
		} else if (kind === Kind.Meta || kind === Kind.Base || name === "link") {
			attrsTo = AttrsTo.Tag;
			tagAttrs = {};
		} else if (name === "html" && !htmlAttrs) {
			attrsTo = AttrsTo.Tag;
			tagAttrs = htmlAttrs = {};
		} else if (kind === Kind.Body && !body) {
			body = root;
			root.attrs = {};
			attrsTo = AttrsTo.Element;
			attrElement = root;
		}
	}

	/** The open script's attributes are all in: counted, and JSON-LD told apart from code. */
	function endScriptTag(): void {
		scriptOpen = false;
		const type = (tagAttrs.type ?? "").toLowerCase();
		if (!/^application\/(?:ld\+)?json/.test(type)) page.scriptCount++;
		if (type.startsWith("application/ld+json")) skipTag = "ld";
		else if (isStateScript(type, tagAttrs)) skipTag = "state";
	}

	/**
	 * Ends the innermost open element: its children get their own array, and its parent (now current) learns whether
	 * it holds a block or a table, which the extraction's walks read to skip what holds none.
	 */
	function closeCurrent(): void {
		current.children = pending.slice(start, top);
		top = start;
		starts.pop();
		start = starts[starts.length - 1]!;
		const parent = current.parent!;
		if (BLOCKS.has(current.tag) || current.hasBlock) parent.hasBlock = true;
		if (current.tag === "table" || current.hasTable) parent.hasTable = true;
		current = parent;
	}

	function countText(text: string, source: string, from: number, to: number): void {
		let chars = 0;
		/** Non-space characters: whitespace between elements is no text of the element it sits in. */
		let solid = 0;
		let marks = 0;
		let space = lastSpace;
		for (let i = from; i < to; i++) {
			const code = source.charCodeAt(i);
			const type = CHAR_TYPES[code]!;
			if (type === CharType.Space) {
				if (space) continue;
				space = true;
				chars++;
				continue;
			}
			space = false;
			chars++;
			solid++;
			marks += type >> 1;
		}
		const afterSpace = lastSpace;
		lastSpace = space;
		if (solid > 0) current.textChars += chars;
		current.textMarks += marks;
		if (noscript) {
			noscriptChars += chars;
			return;
		}
		if (page.textSample.length < DOM_DEFAULTS.sampleChars) {
			const head = text.slice(0, DOM_DEFAULTS.sampleChars * 2);
			page.textSample = (page.textSample + (afterSpace ? head.trimStart() : head).replace(/\s+/g, " ")).slice(
				0,
				DOM_DEFAULTS.sampleChars,
			);
		}
		page.textLength += chars;
	}

	/**
	 * Records a closing `<noscript>`'s text. A long one stays (false: close it as any element); a short one leaves
	 * the tree with its subtree, the last run of ids and of the pending children (true: its parent is current).
	 */
	function dropNoscript(element: El): boolean {
		noscript = undefined;
		if (page.noscriptText.length < DOM_DEFAULTS.sampleChars) {
			page.noscriptText = collapse(`${page.noscriptText} ${noscriptRaw}`).slice(0, DOM_DEFAULTS.sampleChars);
		}
		noscriptRaw = "";
		if (noscriptChars >= DOM_DEFAULTS.noscriptContentChars) {
			page.textLength += noscriptChars;
			return false;
		}
		top = start - 1;
		starts.pop();
		start = starts[starts.length - 1]!;
		elements.length = element.id;
		nextId = element.id;
		while (mounts.length > 0 && mounts[mounts.length - 1]!.id >= element.id) mounts.pop();
		current = element.parent!;
		return true;
	}

	events.run();
	// Elements still open when the reading stopped past maxParseDepth (at the page's end the events close them all).
	while (current !== root) closeCurrent();
	root.children = pending.slice(0, top);
	page.elementCount = nextId;
	if (lastSpace && page.textLength > 0) page.textLength--;
	page.textSample = page.textSample.trim();
	page.emptyMount = mounts.some((mount) => !hasText(mount));
	if (htmlAttrs?.lang) page.lang = htmlAttrs.lang;
	return page;
}

/** An HTML fragment (an API's post body, a declared article body) read as a page's body. */
export function parseFragment(html: string): ParsedPage {
	return parsePage(`<!doctype html><html><body>${html}</body></html>`);
}

function addMeta(meta: Record<string, string>, attribs: Record<string, string>): void {
	const key = (attribs.property ?? attribs.name ?? attribs.itemprop ?? "").toLowerCase();
	const content = attribs.content;
	if (key && content && !(key in meta)) meta[key] = content;
}
