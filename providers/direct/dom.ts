// A compact element tree built from htmlparser2's events in one linear pass, with what the page checks need measured
// on the way: head metadata (title, meta tags, JSON-LD, base href), visible text length and sample, scripts,
// noscript text, empty app mount points. Depth is counted on the parser's own open/close events, so it agrees with it.

import { Parser } from "htmlparser2";
import { WebAccessError } from "../../engine/errors.ts";

/** An element; text children are plain strings (entities decoded, whitespace as in the page). */
export interface El {
	/** Position in document order (0 for the body), so per-element figures fit in typed arrays. */
	id: number;
	tag: string;
	attrs: Record<string, string>;
	children: Node[];
	parent: El | undefined;
	/** Set when some descendant is a block element (so an inline element holding one renders as a block). */
	hasBlock?: boolean;
	/** Set when some descendant is a table (so a table holding one is a layout table). */
	hasTable?: boolean;
	/** Set by the extraction on an element it takes out of the tree. */
	removed?: boolean;
	/** Characters of its own text children (whitespace runs counted once), counted while parsing. */
	textChars: number;
	/** Sentence punctuation marks in its own text children (the extraction's prose test). */
	textMarks: number;
}

export type Node = El | string;

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
	baseHref?: string;
	textLength: number;
	textSample: string;
	scriptCount: number;
	noscriptText: string;
	emptyMount: boolean;
}

export const DOM_DEFAULTS = {
	/** Deeper pages are refused; browsers' parsers cap nesting at 512 too. */
	maxDepth: 512,
	sampleChars: 500,
	/** JSON-LD kept per page (metadata only needs the first blocks). */
	maxJsonLdChars: 1024 * 1024,
	/**
	 * A `<noscript>` with this much text is content a reader without JavaScript sees (Blogger keeps posts there
	 * beside a script template) and stays in the tree; a shorter one (a notice, a tracking pixel) is left out.
	 */
	noscriptContentChars: 200,
};

/** Elements whose content is never text a reader sees (`<noscript>`: only when short, see noscriptContentChars). */
const SKIPPED = new Set(
	"script style template noscript svg math iframe object embed canvas button input select textarea head title".split(
		" ",
	),
);

export const BLOCKS = new Set(
	(
		"address article aside blockquote body center dd details dialog dir div dl dt fieldset figcaption figure footer " +
		"form h1 h2 h3 h4 h5 h6 header hgroup hr li main menu nav ol p pre section summary table tbody td tfoot th " +
		"thead tr ul caption"
	).split(" "),
);

/** Attributes the extraction and conversion read; the rest are not kept (memory). */
const KEPT_ATTRS = new Set(
	"class id href src alt role itemprop colspan start hidden aria-hidden style type datetime rel title".split(" "),
);

/** Sentence punctuation `.!?;:,` and their CJK forms (a block with some reads like prose). */
function isSentenceMark(code: number): boolean {
	if (code < 0x80) return code === 46 || code === 44 || code === 33 || code === 63 || code === 59 || code === 58;
	return code === 0x3002 || code === 0x3001 || code === 0xff01 || code === 0xff1f;
}

/** Shared by every element without a kept attribute (most of them); never written to. */
const NO_ATTRS: Record<string, string> = Object.freeze({}) as Record<string, string>;

const MOUNT_IDS = new Set(["root", "app", "__next", "__nuxt", "svelte", "___gatsby"]);

export function tooDeep(): WebAccessError {
	return new WebAccessError(`elements nested deeper than ${DOM_DEFAULTS.maxDepth} levels`, {
		kind: "bad-request",
		code: "too-deep",
	});
}

/** Every element gets all fields at creation, so all share one shape (property reads stay monomorphic). */
function newElement(id: number, tag: string, attrs: Record<string, string>, parent: El | undefined): El {
	return {
		id,
		tag,
		attrs,
		children: [],
		parent,
		hasBlock: false,
		hasTable: false,
		removed: false,
		textChars: 0,
		textMarks: 0,
	};
}

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
		textLength: 0,
		textSample: "",
		scriptCount: 0,
		noscriptText: "",
		emptyMount: false,
	};
	let rawText = "";
	let lastSpace = true;
	let jsonLdChars = 0;
	/** The outermost open `<noscript>`: its text counts as visible only once it proves long enough to keep. */
	let noscript: El | undefined;
	let noscriptChars = 0;
	let noscriptRaw = "";
	const parser = new Parser(
		{
			onopentag(name, attribs) {
				if (++depth > DOM_DEFAULTS.maxDepth) throw tooDeep();
				if (skipDepth) return;
				if (SKIPPED.has(name) && (name !== "noscript" || noscript)) {
					if (name === "script") {
						const type = (attribs.type ?? "").toLowerCase();
						if (!/^application\/(?:ld\+)?json/.test(type)) page.scriptCount++;
						skipTag = type.startsWith("application/ld+json") ? "ld" : name;
					} else skipTag = name;
					if (name !== "head") {
						skipDepth = depth;
						rawText = "";
					}
					return;
				}
				if (name === "meta") return addMeta(page.meta, attribs);
				if (name === "base") {
					page.baseHref ??= attribs.href;
					return;
				}
				if (name === "link") return;
				let attrs = NO_ATTRS;
				for (const key in attribs) {
					if (!KEPT_ATTRS.has(key)) continue;
					if (attrs === NO_ATTRS) attrs = {};
					attrs[key] = attribs[key]!;
				}
				if (name === "body" || name === "html") {
					if (name === "body" && !body) {
						body = root;
						root.attrs = { ...attrs };
					}
					return;
				}
				const element = newElement(nextId++, name, attrs, current);
				elements.push(element);
				current.children.push(element);
				current = element;
				if (name === "noscript") {
					noscript = element;
					noscriptChars = 0;
					noscriptRaw = "";
				}
				if ((attrs.id && MOUNT_IDS.has(attrs.id)) || name === "app-root" || "data-reactroot" in attribs) {
					mounts.push(element);
				}
			},
			onclosetag(name) {
				depth--;
				if (skipDepth) {
					if (depth >= skipDepth) return;
					skipDepth = 0;
					if (skipTag === "title") page.title ||= collapse(rawText);
					else if (skipTag === "ld" && jsonLdChars < DOM_DEFAULTS.maxJsonLdChars) {
						page.jsonLd.push(rawText);
						jsonLdChars += rawText.length;
					} else if (skipTag === "noscript" && page.noscriptText.length < DOM_DEFAULTS.sampleChars) {
						page.noscriptText = collapse(`${page.noscriptText} ${rawText}`).slice(0, DOM_DEFAULTS.sampleChars);
					}
					rawText = "";
					return;
				}
				if (name === "body" || name === "html" || name === "head" || current === root) return;
				if (current.tag !== name) return;
				const parent = current.parent!;
				if (current === noscript && closeNoscript(current, parent)) return;
				if (BLOCKS.has(name) || current.hasBlock) parent.hasBlock = true;
				if (name === "table" || current.hasTable) parent.hasTable = true;
				current = parent;
			},
			ontext(text) {
				if (skipDepth) {
					if (skipTag === "title" || skipTag === "noscript" || skipTag === "ld") rawText += text;
					return;
				}
				if (noscript && noscriptRaw.length < DOM_DEFAULTS.sampleChars) noscriptRaw += text;
				const children = current.children;
				const last = children.length - 1;
				if (last >= 0 && typeof children[last] === "string") children[last] += text;
				else children.push(text);
				countText(text);
			},
		},
		{ decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
	);

	function countText(text: string): void {
		let chars = 0;
		/** Non-space characters: whitespace between elements is no text of the element it sits in. */
		let solid = 0;
		let marks = 0;
		let space = lastSpace;
		for (let i = 0; i < text.length; i++) {
			const code = text.charCodeAt(i);
			const isSpace = code === 32 || (code >= 9 && code <= 13) || code === 160;
			if (isSpace && space) continue;
			space = isSpace;
			chars++;
			if (!isSpace) solid++;
			if (isSentenceMark(code)) marks++;
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

	/** Records a closed `<noscript>`'s text; a short one leaves the tree (true: it was taken out, parent is current). */
	function closeNoscript(element: El, parent: El): boolean {
		noscript = undefined;
		if (page.noscriptText.length < DOM_DEFAULTS.sampleChars) {
			page.noscriptText = collapse(`${page.noscriptText} ${noscriptRaw}`).slice(0, DOM_DEFAULTS.sampleChars);
		}
		noscriptRaw = "";
		if (noscriptChars >= DOM_DEFAULTS.noscriptContentChars) {
			page.textLength += noscriptChars;
			return false;
		}
		// Its subtree is the last run of ids, so the ids stay contiguous.
		parent.children.pop();
		elements.length = element.id;
		nextId = element.id;
		while (mounts.length > 0 && mounts[mounts.length - 1]!.id >= element.id) mounts.pop();
		current = parent;
		return true;
	}

	parser.write(html);
	parser.end();
	page.elementCount = nextId;
	if (lastSpace && page.textLength > 0) page.textLength--;
	page.textSample = page.textSample.trim();
	page.emptyMount = mounts.some((mount) => collapse(textOf(mount)) === "");
	return page;
}

function addMeta(meta: Record<string, string>, attribs: Record<string, string>): void {
	const key = (attribs.property ?? attribs.name ?? attribs.itemprop ?? "").toLowerCase();
	const content = attribs.content;
	if (key && content && !(key in meta)) meta[key] = content;
}

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

export function collapse(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}
