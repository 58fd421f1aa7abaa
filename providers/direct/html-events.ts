// A page's open, attribute, close and text events for the tree builder (providers/direct/dom.ts): htmlparser2's
// Tokenizer under the rules its Parser applies in HTML mode (implied ends, void elements, foreign content), the same
// events in the same order. Its own stack grows at the end (the Parser's grows at the front: each tag shifted every
// open element), the value of an attribute the builder does not keep is never read, and a tag name, short text or
// attribute value met before is the string made the first time.

import { type QuoteType, Tokenizer, type TokenizerCallbacks } from "htmlparser2";

/** What the tree builder is told, in document order. */
export interface HtmlHandler {
	/**
	 * An element opens: its name lower-cased, or in SVG's casing inside `<svg>` (`foreignObject`, SVG_NAMES); a void
	 * element's close follows its attributes.
	 */
	open(name: string): void;
	/** True when the attribute named so is wanted: its value is then read and handed to `attribute`. */
	wants(name: string): boolean;
	attribute(name: string, value: string): void;
	/** An element closes, by its end tag, an implied end or the end of the page. */
	close(name: string): void;
	/**
	 * Text, entities decoded; a run split at an entity arrives in pieces. A piece read as written is `source`'s
	 * characters from `start` to `end` (the page itself, whose characters are read faster than the piece's); a
	 * decoded entity is its own source.
	 */
	text(text: string, source: string, start: number, end: number): void;
}

/** Tags whose opening ends the open elements named here (htmlparser2's Parser, HTML mode). */
const P = new Set(["p"]);
const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "p"]);
const FORM = new Set(["input", "option", "optgroup", "select", "button", "datalist", "textarea"]);
const TABLE_SECTIONS = new Set(["thead", "tbody"]);
const DEFINITIONS = new Set(["dd", "dt"]);
const RUBY = new Set(["rt", "rp"]);
const IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>([
	["tr", new Set(["tr", "th", "td"])],
	["th", new Set(["th"])],
	["td", new Set(["thead", "th", "td"])],
	["body", new Set(["head", "link", "script"])],
	["a", new Set(["a"])],
	["li", new Set(["li"])],
	["option", new Set(["option"])],
	["optgroup", new Set(["optgroup", "option"])],
	...["h1", "h2", "h3", "h4", "h5", "h6"].map((tag) => [tag, HEADINGS] as const),
	...["select", "input", "output", "button", "datalist", "textarea"].map((tag) => [tag, FORM] as const),
	...["dd", "dt"].map((tag) => [tag, DEFINITIONS] as const),
	...["rt", "rp"].map((tag) => [tag, RUBY] as const),
	...["tbody", "tfoot"].map((tag) => [tag, TABLE_SECTIONS] as const),
	...(
		"p address article aside blockquote details div dl fieldset figcaption figure footer form header hr main nav " +
		"ol pre section table ul"
	)
		.split(" ")
		.map((tag) => [tag, P] as const),
]);

const VOID = new Set(
	"area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr".split(
		" ",
	),
);

const Foreign = { None: 0, Svg: 1, MathML: 2 } as const;
const FOREIGN_ROOTS = new Set(["math", "svg"]);
/** Elements that hold HTML inside SVG or MathML (in SVG's casing, as the names on the stack are). */
const INTEGRATION = new Set(["mi", "mo", "mn", "ms", "mtext", "annotation-xml", "foreignObject", "desc", "title"]);
const SVG_NAMES = new Map(
	(
		"altGlyph altGlyphDef altGlyphItem animateColor animateMotion animateTransform clipPath feBlend feColorMatrix " +
		"feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting feDisplacementMap feDistantLight " +
		"feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR feGaussianBlur feImage feMerge feMergeNode feMorphology " +
		"feOffset fePointLight feSpecularLighting feSpotLight feTile feTurbulence foreignObject glyphRef linearGradient " +
		"radialGradient textPath"
	)
		.split(" ")
		.map((name) => [name.toLowerCase(), name]),
);

/** Tag names kept for reuse (`HtmlEvents.knownName`): a power of two; the longest name kept. */
const NAME_SLOTS = 256;
const MAX_KEPT_NAME = 16;
/** Texts and attribute values kept for reuse (`HtmlEvents.known`): powers of two; the longest kept. */
const TEXT_SLOTS = 1024;
const MAX_KEPT_TEXT = 12;
const VALUE_SLOTS = 1024;
const MAX_KEPT_VALUE = 64;

/** Reads `html` whole, calling `handler`; `stop()` (from a handler) ends the reading where it is. */
export class HtmlEvents implements TokenizerCallbacks {
	private readonly tokenizer: Tokenizer;
	/** Open elements, innermost last. */
	private readonly stack: string[] = [];
	/** Foreign content contexts, innermost last. */
	private readonly foreign: number[] = [Foreign.None];
	private tagname = "";
	private attribname = "";
	private attribvalue = "";
	/** The attribute being read is wanted (`HtmlHandler.wants`). */
	private wanted = false;
	/** Tag names read so far, by a hash of their characters (`knownName`). */
	private readonly names: (string | undefined)[] = new Array(NAME_SLOTS).fill(undefined);
	/** Short texts and attribute values read so far, by a hash of their characters (`known`). */
	private readonly texts: (string | undefined)[] = new Array(TEXT_SLOTS).fill(undefined);
	private readonly values: (string | undefined)[] = new Array(VALUE_SLOTS).fill(undefined);

	private readonly html: string;
	private readonly handler: HtmlHandler;

	constructor(html: string, handler: HtmlHandler) {
		this.html = html;
		this.handler = handler;
		this.tokenizer = new Tokenizer({ decodeEntities: true }, this);
	}

	/** Reads the page; the elements still open at its end are closed, innermost first, unless it was stopped. */
	run(): void {
		this.tokenizer.write(this.html);
		if (this.tokenizer.running) this.tokenizer.end();
	}

	stop(): void {
		this.tokenizer.pause();
	}

	isInForeignContext(): boolean {
		return this.foreign[this.foreign.length - 1] !== Foreign.None;
	}

	private readTagName(start: number, end: number): string {
		const name = this.knownName(start, end);
		if (this.foreign[this.foreign.length - 1] === Foreign.Svg) return SVG_NAMES.get(name) ?? name;
		// A closing SVG element inside an integration point: its name as it went on the stack.
		if (this.foreign.length > 1) {
			const adjusted = SVG_NAMES.get(name);
			if (adjusted !== undefined && this.stack.includes(adjusted)) return adjusted;
		}
		if (!this.isInForeignContext()) return name === "image" ? "img" : name;
		return name;
	}

	/**
	 * The lower-cased name written from `start` to `end`; when a tag of that name was read before, the same string
	 * (whose hash is kept, so the lookups of every set and map of tag names are quick) and none made. Names are kept
	 * in NAME_SLOTS slots by a hash of their ASCII characters; a name that is not ASCII or long is made and not kept.
	 */
	private knownName(start: number, end: number): string {
		const length = end - start;
		if (length > MAX_KEPT_NAME) return this.html.slice(start, end).toLowerCase();
		const html = this.html;
		let hash = length;
		for (let i = start; i < end; i++) {
			const code = html.charCodeAt(i);
			if (code >= 128) return html.slice(start, end).toLowerCase();
			hash = (hash * 31 + (code >= 65 && code <= 90 ? code | 0x20 : code)) | 0;
		}
		const slot = hash & (NAME_SLOTS - 1);
		const known = this.names[slot];
		if (known !== undefined && known.length === length) {
			let i = 0;
			while (i < length) {
				const code = html.charCodeAt(start + i);
				if ((code >= 65 && code <= 90 ? code | 0x20 : code) !== known.charCodeAt(i)) break;
				i++;
			}
			if (i === length) return known;
		}
		const name = html.slice(start, end).toLowerCase();
		this.names[slot] = name;
		return name;
	}

	onopentagname(start: number, end: number): void {
		this.openTag(this.readTagName(start, end));
	}

	private openTag(name: string): void {
		this.tagname = name;
		// A second <form> inside one is ignored: no event, and none for its attributes (onattribname).
		if (name === "form" && this.stack.includes("form")) {
			this.tagname = "";
			return;
		}
		const closes = IMPLIES_CLOSE.get(name);
		if (closes) while (this.stack.length > 0 && closes.has(this.stack[this.stack.length - 1]!)) this.popElement();
		if (!VOID.has(name)) {
			this.stack.push(name);
			if (name === "svg") this.foreign.push(Foreign.Svg);
			else if (name === "math") this.foreign.push(Foreign.MathML);
			else if (INTEGRATION.has(name)) this.foreign.push(Foreign.None);
		}
		this.handler.open(name);
	}

	private endOpenTag(): void {
		if (VOID.has(this.tagname)) this.handler.close(this.tagname);
		this.tagname = "";
	}

	onopentagend(): void {
		this.endOpenTag();
	}

	onclosetag(start: number, end: number): void {
		const name = this.readTagName(start, end);
		if (!VOID.has(name)) {
			const at = this.stack.lastIndexOf(name);
			if (at !== -1) {
				while (this.stack.length > at + 1) this.popElement();
				this.popElement();
			} else if (name === "p") {
				// A </p> with no open <p> is an empty paragraph.
				this.openTag("p");
				this.closeCurrentTag();
			}
		} else if (name === "br") {
			this.handler.open("br");
			this.handler.close("br");
		}
	}

	onselfclosingtag(): void {
		if (this.isInForeignContext()) this.closeCurrentTag();
		else this.endOpenTag();
	}

	private popElement(): void {
		const name = this.stack.pop()!;
		if (FOREIGN_ROOTS.has(name) || INTEGRATION.has(name)) this.foreign.pop();
		this.handler.close(name);
	}

	private closeCurrentTag(): void {
		const name = this.tagname;
		this.endOpenTag();
		if (this.stack[this.stack.length - 1] === name) this.popElement();
	}

	onattribname(start: number, end: number): void {
		this.attribname = this.html.slice(start, end).toLowerCase();
		// An ignored <form>'s attributes are not handed on: the Parser gives them to the element opened before it.
		this.wanted = this.tagname !== "" && this.handler.wants(this.attribname);
	}

	onattribdata(start: number, end: number): void {
		if (!this.wanted) return;
		// A value read in one piece (no entity before it) is the page's one string of that spelling.
		if (this.attribvalue === "" && end - start <= MAX_KEPT_VALUE)
			this.attribvalue = this.known(this.values, start, end);
		else this.attribvalue += this.html.slice(start, end);
	}

	onattribentity(codepoint: number): void {
		if (this.wanted) this.attribvalue += String.fromCodePoint(codepoint);
	}

	onattribend(_quote: QuoteType): void {
		if (!this.wanted) return;
		this.handler.attribute(this.attribname, this.attribvalue);
		this.attribvalue = "";
	}

	ontext(start: number, end: number): void {
		const text = end - start <= MAX_KEPT_TEXT ? this.known(this.texts, start, end) : this.html.slice(start, end);
		this.handler.text(text, this.html, start, end);
	}

	/**
	 * A short text or attribute value as one string per spelling (`table`'s slots by a hash of its characters): most
	 * of a page's texts are the same few runs of whitespace between tags, and its classes repeat from card to card;
	 * each would be a string of its own in the tree, and each class a string hashed anew by every lookup of it.
	 */
	private known(table: (string | undefined)[], start: number, end: number): string {
		const html = this.html;
		let hash = end - start;
		for (let i = start; i < end; i++) hash = (hash * 31 + html.charCodeAt(i)) | 0;
		const slot = hash & (table.length - 1);
		const known = table[slot];
		if (known !== undefined && known.length === end - start) {
			let i = 0;
			while (i < known.length && html.charCodeAt(start + i) === known.charCodeAt(i)) i++;
			if (i === known.length) return known;
		}
		const text = html.slice(start, end);
		table[slot] = text;
		return text;
	}

	ontextentity(codepoint: number): void {
		const text = String.fromCodePoint(codepoint);
		this.handler.text(text, text, 0, text.length);
	}

	oncdata(start: number, end: number, offset: number): void {
		// In HTML, CDATA is text only inside SVG or MathML; elsewhere it is a comment.
		if (this.isInForeignContext())
			this.handler.text(this.html.slice(start, end - offset), this.html, start, end - offset);
	}

	oncomment(): void {}

	ondeclaration(): void {}

	onprocessinginstruction(): void {}

	onend(): void {
		for (let i = this.stack.length - 1; i >= 0; i--) this.handler.close(this.stack[i]!);
	}
}
