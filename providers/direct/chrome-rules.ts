// Which elements are page chrome, by tag, role, visibility and class/id words. Two strengths: "page" chrome
// (navigation, comments, related lists, cookie and newsletter boxes) is pruned from the whole page before the main
// content is chosen; "inner" chrome (bylines, captions, widgets, paywall wrappers) only inside the chosen block,
// because the same words also name the wrappers of real articles (`entry-content paywall-container`).

/** Whole elements that are page chrome wherever they appear. */
const CHROME_TAGS = new Set(["nav", "aside", "form", "dialog", "footer", "menu", "figcaption"]);
const CHROME_ROLES = new Set(["navigation", "complementary", "banner", "contentinfo", "search", "dialog", "menu"]);

const words = (list: string[]) => new RegExp(`^(?:${list.join("|")})$`, "i");

/** Class or id words (matched on the `-`/`_`-separated parts of each name) of boxes that are never the article. */
const PAGE_WORDS = words([
	"ads?",
	"advert\\w*",
	"sponsor\\w*",
	"promos?",
	"promotions?",
	"banners?",
	"cookies?",
	"consent",
	"gdpr",
	"newsletters?",
	"subscri\\w+",
	"signup",
	"share\\w*",
	"sharing",
	"social\\w*",
	"breadcrumbs?",
	"sidebars?",
	"related",
	"recommend\\w*",
	"popup",
	"modal",
	"overlay",
	"comments?",
	"kommentare?",
	"commentlist",
	"respond",
	"disqus",
	"navbar",
	"nav",
	"navigation",
	"menu",
	"footer",
	"pagination",
	"pager",
	"outbrain",
	"taboola",
	"login",
]);

/** Words of boxes that sit inside an article (or name a wrapper of one): removed only inside the chosen block. */
const INNER_WORDS = words([
	"skip",
	"tags",
	"tagcloud",
	"toolbar",
	"print",
	"byline",
	"postmeta\\w*",
	"metadata",
	"captions?",
	"credits?",
	"copyright",
	"disclosure",
	"cta",
	"ratings?",
	"tweet",
	"twitter",
	"embed",
	"contact",
	"meta",
	"dateline",
	"dates?",
	"datetime",
	"published",
	"updated",
	"authors?",
	"profile",
	"bio",
	"widgets?",
	"disclaimer",
	"notice",
	"images?",
	"img",
	"photos?",
	"picture",
	"paywall",
]);

/** Class tokens that name a post's taxonomy or state (WordPress `tag-x`, `category-y`), not a box. */
const TAXONOMY_TOKEN = /^(?:tag|tags|category|format|type|status|post|postid|page-id)-/i;

const MODIFIER = /^(?:has|with|without|no|non|not|show|hide|is|enable|disable)$/i;

const SPACES = /\s+/;
const NAME_PARTS = /[-_]+/;

const HIDDEN_STYLE = /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/**
 * A post the article quotes, as the networks' embed codes write it (`<blockquote class="twitter-tweet">`): the
 * quote is the article's, though its name holds the inner-chrome words of share and follow boxes.
 */
const EMBEDDED_POST = /(?:^|\s)(?:twitter-tweet|instagram-media|tiktok-embed|bluesky-embed|mastodon-embed)(?:\s|$)/;

export interface ChromeElement {
	tag: string;
	attrs: Record<string, string>;
	parent?: { tag: string } | undefined;
}

/** "page": pruned anywhere; "inner": pruned inside the main content only; undefined: not chrome. */
export type ChromeStrength = "page" | "inner" | undefined;

export function chromeStrength(element: ChromeElement): ChromeStrength {
	if (CHROME_TAGS.has(element.tag)) return "page";
	const attrs = element.attrs;
	if (attrs.role && CHROME_ROLES.has(attrs.role)) return "page";
	if ("hidden" in attrs || attrs["aria-hidden"] === "true") return "page";
	if (attrs.style && HIDDEN_STYLE.test(attrs.style)) return "page";
	if (element.tag === "header" && element.parent?.tag === "body") return "page";
	if (element.tag === "blockquote" && attrs.class && EMBEDDED_POST.test(attrs.class)) return undefined;
	return chromeName(attrs.class) ?? chromeName(attrs.id);
}

/** Class and id values repeat across a page (every card, every list item): each is judged once per cache fill. */
const NAME_CACHE = new Map<string, ChromeStrength>();
const NAME_CACHE_ENTRIES = 4096;

function chromeName(names: string | undefined): ChromeStrength {
	if (!names) return undefined;
	if (NAME_CACHE.has(names)) return NAME_CACHE.get(names);
	if (NAME_CACHE.size >= NAME_CACHE_ENTRIES) NAME_CACHE.clear();
	const strength = judgeName(names);
	NAME_CACHE.set(names, strength);
	return strength;
}

function judgeName(names: string): ChromeStrength {
	let found: ChromeStrength;
	for (const token of names.split(SPACES)) {
		if (token === "" || TAXONOMY_TOKEN.test(token)) continue;
		// A name for the article's text (`article__body-text-image`) is no byline or widget, whatever else it says.
		const text = CONTENT_NAME.test(token);
		for (const part of token.split(NAME_PARTS)) {
			// A modifier saying what a box holds or lacks (`o-section--has-ads`, `no-sidebar`) is not that box.
			if (MODIFIER.test(part)) break;
			if (PAGE_WORDS.test(part)) return "page";
			if (!text && INNER_WORDS.test(part)) found = "inner";
		}
	}
	return found;
}

const CONTENT_TAGS = new Set(["article", "main"]);

/** A class or id naming the article's text: `entry-content`, `article__body`, `post-text`, `story-body`, `postentry`. */
const CONTENT_NAME =
	/(?:^|[-_])(?:article|entry|post|story|blog|news|main)[-_]*(?:content|body|text|entry)(?:$|[-_])|^(?:article|story|postentry|entry|post-?body)$/i;

/** True for an element whose tag, role, itemprop or name says it is the main content. */
export function namesContent(element: ChromeElement & { hasBlock?: boolean }): boolean {
	// A paragraph named `article` is a part of one; the article is a container of blocks.
	if (!element.hasBlock) return false;
	if (CONTENT_TAGS.has(element.tag)) return true;
	const attrs = element.attrs;
	if (attrs.role === "main" || attrs.itemprop === "articleBody") return true;
	return contentName(attrs.class) || contentName(attrs.id);
}

const CONTENT_NAME_CACHE = new Map<string, boolean>();

/** Cached like `chromeName`: the same class values come back on every card and list item. */
function contentName(names: string | undefined): boolean {
	if (!names) return false;
	let named = CONTENT_NAME_CACHE.get(names);
	if (named !== undefined) return named;
	if (CONTENT_NAME_CACHE.size >= NAME_CACHE_ENTRIES) CONTENT_NAME_CACHE.clear();
	named = names.split(SPACES).some((token) => CONTENT_NAME.test(token));
	CONTENT_NAME_CACHE.set(names, named);
	return named;
}
