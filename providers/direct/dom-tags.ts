// What the tree builder (providers/direct/dom.ts) knows of tag and attribute names: elements it skips, block
// elements, the attributes it keeps, app mount point ids, and one shared string per tag name.

/** Elements whose content is never text a reader sees. */
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

/** A table's cells. */
export const CELL_TAGS: ReadonlySet<string> = new Set(["td", "th"]);

/** Attributes the extraction and conversion read; the rest are not kept (memory). */
export const KEPT_ATTRS = new Set(
	"class id href src alt role itemprop itemtype colspan start hidden aria-hidden style type datetime rel title".split(
		" ",
	),
);

/** Sentence punctuation `.!?;:,` and their CJK forms (a block with some reads like prose), as UTF-16 codes. */
export const SENTENCE_MARKS: readonly number[] = Array.from(".,!?;:\u3002\u3001\uff01\uff1f", (mark) =>
	mark.charCodeAt(0),
);

/** How the tree builder treats a tag name. */
export const Kind = { Element: 0, Skipped: 1, Script: 2, Head: 3, Meta: 4, Base: 5, Ignored: 6, Body: 7 } as const;

export interface TagInfo {
	/** One string per tag name, shared by all its elements on every page. */
	tag: string;
	kind: number;
}

const TAGS = new Map<string, TagInfo>();
const TAG_CACHE_ENTRIES = 1024;

export function tagInfo(name: string): TagInfo {
	let info = TAGS.get(name);
	if (info) return info;
	let kind: number = SKIPPED.has(name) ? Kind.Skipped : Kind.Element;
	if (name === "script") kind = Kind.Script;
	else if (name === "head") kind = Kind.Head;
	else if (name === "meta") kind = Kind.Meta;
	else if (name === "base") kind = Kind.Base;
	else if (name === "link" || name === "html") kind = Kind.Ignored;
	else if (name === "body") kind = Kind.Body;
	info = { tag: name, kind };
	// Made-up tag names are unbounded: past the cap, each is looked at anew.
	if (TAGS.size < TAG_CACHE_ENTRIES) TAGS.set(name, info);
	return info;
}

export const MOUNT_IDS = new Set(["root", "app", "__next", "__nuxt", "svelte", "___gatsby"]);
