// What the page-kind reading (providers/direct/page-kind.ts) and the per-kind extractions share: which elements are
// chrome on a page that is not an article, and the schema.org types a page's JSON-LD declares.

import type { El } from "../dom-types.ts";
import { EXTRACT_WEIGHTS } from "../extract.ts";
import { chromeIn, type Stats } from "../extract-measure.ts";
import { walkJsonLd } from "../json-ld.ts";

export const SIGNAL_LIMITS = {
	/** JSON-LD nodes looked at per page for their `@type`. */
	maxTypeNodes: 2000,
};

/** Class or id words of a thread's posts and replies, which the article reading counts as page chrome. */
const COMMENT_NAME = /comment|kommentar|reply|replies|answer|message/i;

/**
 * Page chrome (chrome-rules.ts) as a page that is not an article has it: navigation, headers and footers, cookie,
 * newsletter and share boxes; but not a thread's posts named as comments or replies, nor an element wrapping most of
 * the page's text (`pageText`: the body's non-link characters).
 */
export function isNonArticleChrome(element: El, stats: Stats, pageText: number): boolean {
	if (chromeIn(stats, element) !== "page") return false;
	const text = stats.chars[element.id]! - stats.linkChars[element.id]!;
	// An element wrapping most of the page (an ASP.NET form, a theme's box named like a sidebar) is not chrome: the
	// article reading's own share (extract.ts), so the two readings agree on what wraps the page.
	if (text > 0 && text >= pageText * EXTRACT_WEIGHTS.protectShare) return false;
	if (element.tag === "nav" || element.tag === "aside" || element.tag === "footer" || element.attrs.role) return true;
	const { class: className, id } = element.attrs;
	return !((className && COMMENT_NAME.test(className)) || (id && COMMENT_NAME.test(id)));
}

/** Every `@type` in the page's JSON-LD blocks (arrays, `@graph`, `mainEntity` and item lists searched), bounded. */
export function schemaTypes(blocks: readonly string[]): Set<string> {
	const types = new Set<string>();
	walkJsonLd(blocks, TYPE_KEYS, SIGNAL_LIMITS.maxTypeNodes, (object) => {
		for (const type of ([] as unknown[]).concat(object["@type"] ?? [])) {
			if (typeof type === "string") types.add(type.split("/").pop()!);
		}
		return false;
	});
	return types;
}

const TYPE_KEYS = ["@graph", "mainEntity", "itemListElement", "item"];
