// The conversion pipeline behind htmlToMarkdown (loaded on first use, with htmlparser2): parse into the compact
// tree, read metadata, choose the main content, render it. Plain data in and out, so it can run in a worker thread.

import { withReferenceList } from "../../engine/link-references.ts";
import type { ExtractedAs } from "../../engine/result-types.ts";
import { articleBodyCheck } from "./article-body.ts";
import { withBeside } from "./beside-content.ts";
import { BLOCK_WEIGHTS } from "./block-weights.ts";
import { DOM_DEFAULTS, type ParsedPage, parseFragment, parsePage } from "./dom.ts";
import { collapse, textOf } from "./dom-text.ts";
import type { El } from "./dom-types.ts";
import { recoverEmbedded } from "./embedded-state.ts";
import { type BlockPass, type Extraction, extractMain } from "./extract.ts";
import { extractKind, productParts } from "./kinds/extract-kind.ts";
import { renderTree } from "./markdown.ts";
import { readMetadata } from "./metadata.ts";
import { jsOnlyReason } from "./page-checks.ts";
import { detectKind, type PageKind } from "./page-kind.ts";
import { charsUpTo, isThin, PAGE_TEXT_RULES, pageText } from "./page-text.ts";
import type { ConvertOptions, MarkdownPage, PageStats } from "./page-types.ts";

/** JSON-LD `articleBody` replaces the extracted text when it is this many times longer. */
const ARTICLE_BODY_FACTOR = 2;

/** `blocks`: the per-block pass (extract.ts), the committed weights unless the model's fit (bench/extract-blocks.ts) sets its own. */
export function convertHtml(
	html: string,
	baseUrl: string | undefined,
	options: ConvertOptions,
	blocks: BlockPass = { model: BLOCK_WEIGHTS },
): MarkdownPage {
	const page = parsePage(html);
	const metadata = readMetadata(page, baseUrl);
	const heading = titleHeading(page, metadata.title);
	const reading = detectKind(page, metadata.publishedAt !== undefined);
	const kindRoot = extractKind(page, reading);
	// The article reading takes over the figures the kind was read from (the same measure of the same tree), so a
	// page is measured once: it runs only when the kind's own extraction found nothing, and after it only a
	// product's parts are read, from the chrome marks it does not change.
	const chosen: Extraction = kindRoot
		? { root: kindRoot, found: true, leftOut: { count: 0, lists: 0 } }
		: extractMain(
				page.body,
				page.elements,
				reading.stats,
				articleBodyCheck(metadata.articleBody),
				articleOnly(reading.kind, blocks),
			);
	let { root, found, leftOut } = chosen;
	if (reading.kind === "product" && found) {
		const parts = productParts(page, reading, root);
		if (parts.length > 0) root = withBeside(root, parts);
	}
	let extractedAs: ExtractedAs = found ? reading.kind : "page-text";
	let thinFallback: ExtractedAs | undefined;
	// Never "no text" for a page that shows some: the article reading pruned the tree in place, so the page's
	// readable text is read from a fresh parse (only on these rare pages).
	const shown = charsUpTo(root, PAGE_TEXT_RULES.thinChars);
	if (isThin(shown, page.textLength) && !metadata.articleBody) {
		const fallback = pageText(parsePage(html));
		if (charsUpTo(fallback, PAGE_TEXT_RULES.thinChars * PAGE_TEXT_RULES.thinFactor) > shown) {
			if (found) thinFallback = extractedAs;
			root = fallback;
			found = false;
			leftOut = { count: 0, lists: 0 };
			extractedAs = "page-text";
		}
	}
	const format = options.format ?? "markdown";
	const base = resolveBase(page.baseHref, baseUrl);
	const links = options.links ?? "references";
	const rendered = renderTree(root, { format, links, baseUrl: base, pageUrl: baseUrl });
	let markdown = rendered.text;
	let references = rendered.references;
	// A page whose visible article is cut short (a paywall, a teaser) may carry the whole text in JSON-LD.
	const body = metadata.articleBody;
	const replaced = body !== undefined && body.length > ARTICLE_BODY_FACTOR * collapse(textOf(root)).length;
	if (replaced) {
		markdown = body
			.split(/\n\s*\n|\r?\n/)
			.map(collapse)
			.filter(Boolean)
			.join("\n\n");
		references = undefined;
	}
	// The heading is collapsed text (single spaces, trimmed), so where the markdown holds it as is, so does its
	// collapsed form: the regex pass over the whole text is only for the rest.
	if (heading && !markdown.includes(heading) && !collapse(markdown).includes(heading)) {
		markdown = `${format === "markdown" ? "# " : ""}${heading}\n\n${markdown}`.trim();
	}
	const stats: PageStats = {
		textLength: page.textLength,
		textSample: page.textSample,
		scriptCount: page.scriptCount,
		noscriptText: page.noscriptText,
		emptyMount: page.emptyMount,
	};
	// Only a page that fails as a JavaScript shell (convert.ts, by the same check) is read from its embedded state.
	const embedded = jsOnlyReason(stats)
		? recoverEmbedded(page.stateScripts, {
				format,
				links,
				...(base ? { baseUrl: base } : {}),
				...(baseUrl ? { pageUrl: baseUrl } : {}),
				...(metadata.title ? { title: metadata.title } : {}),
				...(metadata.articleBody ? { articleBody: metadata.articleBody } : {}),
			})
		: undefined;
	const { articleBody: _body, ...facts } = metadata;
	return {
		...facts,
		markdown,
		...(references ? { references } : {}),
		mainContent: found,
		extractedAs,
		...(thinFallback ? { thinFallback } : {}),
		...(leftOut.count + leftOut.lists > 0 && !replaced ? { leftOut } : {}),
		stats,
		...(embedded ? { embedded } : {}),
		...(page.flattened ? { flattenedDepth: DOM_DEFAULTS.maxDepth } : {}),
		...(page.stoppedDeep ? { stoppedAtDepth: DOM_DEFAULTS.maxParseDepth } : {}),
	};
}

/**
 * An HTML fragment an API returned as content (a post's body) rendered whole: it is what the source chose to show, so
 * no main content is chosen in it (an answer's list of links or its closing line is not a page's chrome).
 */
export function convertFragment(html: string, baseUrl: string | undefined, options: ConvertOptions): string {
	const page = parseFragment(html);
	const base = resolveBase(page.baseHref, baseUrl);
	const rendered = renderTree(page.body, {
		format: options.format ?? "markdown",
		links: options.links ?? "references",
		baseUrl: base,
		pageUrl: baseUrl,
	});
	return withReferenceList(rendered.text, rendered.references);
}

/**
 * The per-block model judges articles only: it was fit on them, and a product's price or a reference page's short
 * last description reads like the boilerplate it drops after an article.
 */
function articleOnly(kind: PageKind, blocks: BlockPass): BlockPass {
	return kind === "article" ? blocks : { model: null };
}

/** The page's first `<h1>` when it names the page (its text is part of the title): kept above the content. */
function titleHeading(page: ParsedPage, title: string | undefined): string | undefined {
	const stack: El[] = [page.body];
	while (stack.length > 0) {
		const element = stack.pop()!;
		if (element.tag === "h1") {
			const text = collapse(textOf(element));
			const named = title !== undefined && text.length >= 4 && title.toLowerCase().includes(text.toLowerCase());
			return named && text.length <= 300 ? text : undefined;
		}
		for (let i = element.children.length - 1; i >= 0; i--) {
			const child = element.children[i]!;
			if (typeof child !== "string") stack.push(child);
		}
	}
	return undefined;
}

function resolveBase(baseHref: string | undefined, baseUrl: string | undefined): string | undefined {
	if (baseUrl === undefined) return undefined;
	if (!baseHref) return baseUrl;
	try {
		return new URL(baseHref.trim(), baseUrl).href;
	} catch {
		return baseUrl;
	}
}
