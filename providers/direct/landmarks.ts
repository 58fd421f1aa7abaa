// Cheap main-content extraction for very large pages, where readability's passes over the document cost seconds of
// main-thread time: the largest <main>/<article>/[role=main] (else the body), minus navigation, banners, footers,
// asides, forms and ad, cookie and share boxes. One pass over the elements; the document is edited in place.

/** Whole elements that are page chrome wherever they appear. */
const CHROME = "nav, aside, form, dialog, [role=navigation], [role=complementary], [role=banner], [role=contentinfo]";

/** Class or id tokens of boxes that are not content. */
const CHROME_NAMES =
	/(?:^|[\s_-])(?:ads?|advert\w*|sponsor\w*|promo\w*|banner|cookie\w*|consent|newsletter|share|sharing|social|breadcrumbs?|skip-link|sidebar|related|popup|modal)(?:$|[\s_-])/i;

/** A landmark counts as the main content when it holds at least this share of the page's text. */
const MIN_LANDMARK_SHARE = 0.3;

export interface Landmark {
	root: Element;
	/** False when no landmark held enough text and the body was used. */
	found: boolean;
}

/** `pageChars`: the page's visible text length, already measured by the caller. */
export function landmarkContent(document: Document, pageChars: number): Landmark | undefined {
	const body = document.body ?? document.documentElement;
	if (!body) return undefined;
	let best: Element | undefined;
	let bestChars = 0;
	for (const candidate of Array.from(document.querySelectorAll("main, [role=main], article"))) {
		const chars = (candidate.textContent ?? "").replace(/\s+/g, " ").length;
		if (chars > bestChars) [best, bestChars] = [candidate, chars];
	}
	const found = best !== undefined && bestChars >= pageChars * MIN_LANDMARK_SHARE;
	const root = found ? best! : body;
	for (const element of Array.from(root.querySelectorAll(CHROME))) element.remove();
	for (const element of Array.from(root.querySelectorAll("header, footer"))) {
		// A page's own header and footer go; an article's header (its title, byline) stays.
		if (!element.parentElement?.closest("article, main, [role=main], section")) element.remove();
	}
	for (const element of Array.from(root.querySelectorAll("[class], [id]"))) {
		if (element.nodeName === "BODY" || element.nodeName === "MAIN" || element.nodeName === "ARTICLE") continue;
		const names = `${element.getAttribute("class") ?? ""} ${element.getAttribute("id") ?? ""}`;
		if (CHROME_NAMES.test(names)) element.remove();
	}
	return { root, found };
}
