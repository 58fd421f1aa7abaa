// HTML page → markdown: main content by @mozilla/readability on a linkedom document, converted with turndown (GFM
// tables, fenced code); the whole body when no main content is found. Also measures what the JS-only check needs.
// linkedom, readability and turndown are imported on first use, never when the provider module loads.

import { WebAccessError } from "../../engine/errors.ts";
import { markupDepth, nestingDepth } from "./depth.ts";
import { landmarkContent } from "./landmarks.ts";
import { createTurndown } from "./markdown-rules.ts";

/** What the page looked like before extraction (for the JS-only check). */
export interface PageStats {
	/** Characters of visible body text (scripts, styles and noscript excluded), whitespace collapsed. */
	textLength: number;
	/** The start of the visible text (first ~500 characters). */
	textSample: string;
	/** Executable `<script>` elements (JSON data blocks not counted). */
	scriptCount: number;
	/** Text inside `<noscript>` (collapsed, first ~500 characters). */
	noscriptText: string;
	/** An app mount point (`#root`, `#app`, `#__next`, …) that holds no text. */
	emptyMount: boolean;
}

export interface MarkdownPage {
	/** The `<title>` (whitespace collapsed), else readability's guess; undefined when the page has none. */
	title?: string;
	markdown: string;
	/**
	 * True when main content was found (by readability, or a main/article landmark on very large or deep pages);
	 * false when the whole body was converted.
	 */
	mainContent: boolean;
	stats: PageStats;
	/** Set when the HTML was longer than `EXTRACT_DEFAULTS.maxConvertChars` and only its start was converted. */
	cutAtChars?: number;
}

export const EXTRACT_DEFAULTS = {
	/** Readability's result counts as main content when it has this many characters… */
	minMainChars: 500,
	/** …or at least this share of the page's visible text. */
	minMainShare: 0.25,
	noscriptChars: 500,
	/**
	 * Above this much HTML (after scripts and styles are cut) readability is skipped for the landmark extraction:
	 * readability's passes cost seconds of main-thread time on multi-megabyte pages.
	 */
	readabilityMaxChars: 512 * 1024,
	/**
	 * Readability's passes grow much faster than linearly with nesting depth (1000 levels: tens of seconds), so
	 * deeper pages take the landmark path. Real pages nest 20-60 levels.
	 */
	readabilityMaxDepth: 128,
	/** Deeper pages are refused (turndown recurses per level); browsers' parsers cap nesting at 512 too. */
	maxDepth: 512,
	/** The same limit on the raw markup, checked before parsing with room for tags a parser would close itself. */
	maxMarkupDepth: 2048,
	/**
	 * HTML beyond this (after scripts and styles are cut) is not converted: a DOM costs ~80 MB of memory and about a
	 * second of main-thread time per MB, and 4 MB of HTML is already ~2 million characters of markdown.
	 */
	maxConvertChars: 4 * 1024 * 1024,
};

const MOUNT_POINTS = "#root, #app, #__next, #__nuxt, #svelte, #___gatsby, app-root, [data-reactroot]";

interface Modules {
	parseHTML: (html: string) => { document: Document };
	Readability: typeof import("@mozilla/readability").Readability;
	turndown: import("turndown");
}

let modules: Promise<Modules> | undefined;

function loadModules(): Promise<Modules> {
	modules ??= Promise.all([import("linkedom"), import("@mozilla/readability"), import("turndown")]).then(
		([linkedom, readability, turndown]) => ({
			parseHTML: (html: string) => linkedom.parseHTML(html) as unknown as { document: Document },
			Readability: readability.Readability,
			turndown: createTurndown(turndown.default),
		}),
	);
	return modules;
}

/** Converts a decoded HTML page; `baseUrl` (the final URL) makes links and images absolute. */
export async function htmlToMarkdown(html: string, baseUrl?: string): Promise<MarkdownPage> {
	const { parseHTML, Readability, turndown } = await loadModules();
	const stripped = stripRawBlocks(html);
	const cutAtChars =
		stripped.html.length > EXTRACT_DEFAULTS.maxConvertChars ? EXTRACT_DEFAULTS.maxConvertChars : undefined;
	const cut = cutAtChars ? { cutAtChars } : {};
	// Cut before the last tag starting within the limit, so that no tag is split.
	if (cutAtChars) {
		const lastTag = stripped.html.lastIndexOf("<", cutAtChars);
		stripped.html = stripped.html.slice(0, lastTag > 0 ? lastTag : cutAtChars);
	}
	// linkedom's parse time grows with the square of the nesting depth: a cheap look at the markup comes first.
	if (markupDepth(stripped.html, EXTRACT_DEFAULTS.maxMarkupDepth) > EXTRACT_DEFAULTS.maxMarkupDepth) throw tooDeep();
	stripped.html = withBody(stripped.html);
	const { document } = parseHTML(stripped.html);
	const stats = measure(document, stripped);
	const title = collapse(document.title ?? "") || undefined;
	absolutize(document, baseUrl);
	const depth = nestingDepth(document.documentElement, EXTRACT_DEFAULTS.maxDepth);
	if (depth > EXTRACT_DEFAULTS.maxDepth) throw tooDeep();
	if (stripped.html.length > EXTRACT_DEFAULTS.readabilityMaxChars || depth > EXTRACT_DEFAULTS.readabilityMaxDepth) {
		const landmark = landmarkContent(document, stats.textLength);
		const markdown = landmark ? tidy(turndown.turndown(landmark.root as HTMLElement)) : "";
		return { title, markdown, mainContent: landmark?.found ?? false, stats, ...cut };
	}

	let article: {
		content: Node | null | undefined;
		textContent: string | null | undefined;
		title?: string | null;
	} | null;
	try {
		article = new Readability<Node>(document, {
			keepClasses: true,
			disableJSONLD: true,
			serializer: (node) => node,
		}).parse();
	} catch {
		article = null;
	}
	const mainChars = collapse(article?.textContent ?? "").length;
	const isMain =
		article?.content != null &&
		mainChars > 0 &&
		(mainChars >= EXTRACT_DEFAULTS.minMainChars || mainChars >= stats.textLength * EXTRACT_DEFAULTS.minMainShare);
	if (isMain) {
		const markdown = tidy(turndown.turndown(article!.content as HTMLElement));
		const pageTitle = title ?? (collapse(article?.title ?? "") || undefined);
		return { title: pageTitle, markdown, mainContent: true, stats, ...cut };
	}
	// Readability rewrote the document while searching; convert a fresh parse of the whole body instead.
	const fresh = parseHTML(stripped.html).document;
	absolutize(fresh, baseUrl);
	const root = fresh.body ?? fresh.documentElement;
	const markdown = root ? tidy(turndown.turndown(root as HTMLElement)) : "";
	return { title, markdown, mainContent: false, stats, ...cut };
}

interface Stripped {
	html: string;
	scriptCount: number;
	noscriptText: string;
}

const RAW_OPEN = /<!--|<(script|style|template|noscript)\b/gi;
const RAW_CLOSE: Readonly<Record<string, RegExp>> = {
	script: /<\/script\s*>/gi,
	style: /<\/style\s*>/gi,
	template: /<\/template\s*>/gi,
	noscript: /<\/noscript\s*>/gi,
};

/**
 * Cuts comments, scripts, styles, templates and noscript before parsing: they are often half of a page's bytes and
 * none of its text. One linear pass; an unclosed block runs to the end, as in a browser.
 */
export function stripRawBlocks(html: string): Stripped {
	const parts: string[] = [];
	let last = 0;
	let scriptCount = 0;
	let noscriptText = "";
	const open = new RegExp(RAW_OPEN);
	for (let match = open.exec(html); match; match = open.exec(html)) {
		const start = match.index;
		let end = html.length;
		const tag = match[1]?.toLowerCase();
		if (tag === undefined) {
			const close = html.indexOf("-->", start + 4);
			if (close !== -1) end = close + 3;
		} else {
			const close = new RegExp(RAW_CLOSE[tag]!);
			close.lastIndex = start;
			const found = close.exec(html);
			if (found) end = found.index + found[0].length;
			const openTag = html.slice(start, html.indexOf(">", start) + 1 || start + 200);
			if (tag === "script" && !/\btype\s*=\s*["']?application\/(?:ld\+)?json/i.test(openTag)) scriptCount++;
			if (tag === "noscript" && noscriptText.length < EXTRACT_DEFAULTS.noscriptChars) {
				noscriptText = collapse(`${noscriptText} ${html.slice(start, end).replace(/<[^>]*>/g, " ")}`);
			}
		}
		parts.push(html.slice(last, start));
		last = end;
		open.lastIndex = end;
	}
	parts.push(html.slice(last));
	return { html: parts.join(""), scriptCount, noscriptText: noscriptText.slice(0, EXTRACT_DEFAULTS.noscriptChars) };
}

/** Leading head content when a page leaves its tags out: doctype, html/head tags, title, meta, link, base. */
const HEAD_LEAD =
	/^(?:\s+|<!doctype[^>]*>|<\/?(?:html|head)\b[^>]*>|<title\b[^>]*>[\s\S]*?<\/title\s*>|<(?:meta|link|base)\b[^>]*>)*/i;

/**
 * HTML lets a page leave out its html, head and body tags, but linkedom does not imply them: without a `<body>` the
 * text never reaches `document.body` and a valid `<!doctype html><title>T</title><p>text` page came out empty.
 */
export function withBody(html: string): string {
	if (/<body[\s>]/i.test(html)) return html;
	const lead = HEAD_LEAD.exec(html)?.[0] ?? "";
	const head = lead.replace(/<!doctype[^>]*>|<\/?(?:html|head)\b[^>]*>/gi, "");
	const body = html.slice(lead.length).replace(/<\/html\s*>\s*$/i, "");
	return `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;
}

function tooDeep(): WebAccessError {
	return new WebAccessError(`elements nested deeper than ${EXTRACT_DEFAULTS.maxDepth} levels`, {
		kind: "bad-request",
		code: "too-deep",
	});
}

function measure(document: Document, stripped: Stripped): PageStats {
	const mount = document.querySelector(MOUNT_POINTS);
	const text = collapse(document.body?.textContent ?? "");
	return {
		textLength: text.length,
		textSample: text.slice(0, EXTRACT_DEFAULTS.noscriptChars),
		scriptCount: stripped.scriptCount,
		noscriptText: stripped.noscriptText,
		emptyMount: mount !== null && collapse(mount.textContent ?? "") === "",
	};
}

/** Resolves link and image URLs against `<base href>` or the page URL; drops `javascript:` links. */
function absolutize(document: Document, baseUrl: string | undefined): void {
	if (baseUrl === undefined) return;
	const baseHref = document.querySelector("base[href]")?.getAttribute("href");
	const base = (baseHref && resolve(baseHref, baseUrl)) || baseUrl;
	for (const element of Array.from(document.querySelectorAll("a[href], img[src]"))) {
		const name = element.nodeName === "A" ? "href" : "src";
		const value = element.getAttribute(name)!;
		if (/^\s*javascript:/i.test(value)) element.removeAttribute(name);
		else if (!value.startsWith("#") && !value.startsWith("data:")) {
			const absolute = resolve(value, base);
			if (absolute) element.setAttribute(name, absolute);
		}
	}
}

function resolve(value: string, base: string): string | undefined {
	try {
		return new URL(value.trim(), base).href;
	} catch {
		return undefined;
	}
}

function collapse(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

function tidy(markdown: string): string {
	return markdown.replace(/^[ \t]+$/gm, "").trim();
}
