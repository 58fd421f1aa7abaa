// Element tree → markdown (or plain text) in one pass: headings, lists, GFM tables (data tables only), fenced code
// with its language, emphasis, images with alt text; links inline, as numbered references after the text, or none.
// Every rule looks only at its own node and children (no row or list re-walks), so the time is linear in the tree.

import type { LinkReferences } from "../../engine/link-references.ts";
import { CELL_TAGS } from "./dom-tags.ts";
import { isBlank, textOf, UNSPACED } from "./dom-text.ts";
import type { El } from "./dom-types.ts";
import { pageOf, parseUrl } from "./link-targets.ts";
import { codeBlockOf, inlineCode } from "./markdown-code.ts";
import { escapeLineStarts } from "./markdown-escape.ts";
import {
	image,
	type LinkContext,
	type LinkStyle,
	link,
	linkTarget,
	referencesOf,
	withinLink,
} from "./markdown-links.ts";

export type { LinkStyle };

export interface RenderOptions {
	format: "markdown" | "text";
	links: LinkStyle;
	/** Links and images are resolved against it. */
	baseUrl?: string;
	/** The page's own URL (links to it are dropped; same-site targets may be listed as paths); default `baseUrl`. */
	pageUrl?: string;
}

interface Context extends LinkContext {
	markdown: boolean;
}

const INLINE_CODE = new Set(["code", "kbd", "samp", "tt", "var"]);

/** Renders `root`; with reference links, also the numbered targets the text cites (listed after it by the caller). */
export function renderTree(root: El, options: RenderOptions): { text: string; references?: LinkReferences } {
	const ctx: Context = {
		markdown: options.format === "markdown",
		links: options.format === "text" ? "none" : options.links,
		refs: new Map(),
		inLink: false,
	};
	if (options.baseUrl) ctx.base = parseUrl(options.baseUrl);
	const page = pageOf(options.pageUrl ?? options.baseUrl);
	if (page) ctx.page = page;
	const out: string[] = [];
	blocks(root, out, ctx);
	const text = out.join("\n\n");
	const references = referencesOf(ctx);
	return references ? { text, references } : { text };
}

function isBlock(node: El): boolean {
	return node.hasBlock === true || BLOCK_RENDERERS.has(node.tag);
}

/**
 * Renders an element's children into `out`: runs of inline content become paragraphs. Each child's tag is looked
 * up once among the renderers, and the renderer found is handed to `blockWith` (`isBlock` would look it up again).
 */
function blocks(element: El, out: string[], ctx: Context): void {
	let line = "";
	for (const child of element.children) {
		if (typeof child === "string") {
			line += spaced(child);
			continue;
		}
		const render = BLOCK_RENDERERS.get(child.tag);
		if (render !== undefined || child.hasBlock === true) {
			flush(line, out, ctx);
			line = "";
			blockWith(child, render, out, ctx);
		} else line += inlineElement(child, ctx);
	}
	flush(line, out, ctx);
}

function flush(line: string, out: string[], ctx: Context): void {
	// Text nodes were collapsed to single spaces, so a newline here is a <br>. (Each replace only runs when its
	// pattern can match: most lines have neither, and a replace that matches copies the line.)
	const broken = line.includes("\n") ? line.replace(/ *\n */g, "\n") : line;
	const text = (broken.includes("  ") ? broken.replace(/ {2,}/g, " ") : broken).trim();
	if (text !== "") out.push(ctx.markdown ? escapeLineStarts(text) : text);
}

type BlockRenderer = (element: El, out: string[], ctx: Context) => void;

const container: BlockRenderer = (element, out, ctx) => blocks(element, out, ctx);

function heading(element: El, out: string[], ctx: Context): void {
	const text = inlineOfBlocks(element, ctx);
	if (text === "") return;
	out.push(ctx.markdown ? `${"#".repeat(Number(element.tag[1]))} ${text}` : text);
}

function list(element: El, out: string[], ctx: Context): void {
	const ordered = element.tag === "ol";
	const start = Number.parseInt(element.attrs.start ?? "1", 10);
	let number = Number.isFinite(start) ? start : 1;
	const items: string[] = [];
	for (const child of element.children) {
		const sub: string[] = [];
		if (typeof child === "string") flush(spaced(child), sub, ctx);
		else if (child.tag === "li") blocks(child, sub, ctx);
		else {
			// A child that is no item: inline content is an item's line, a block stands as it is (one tag look-up).
			const render = BLOCK_RENDERERS.get(child.tag);
			if (render === undefined && child.hasBlock !== true) flush(inlineElement(child, ctx), sub, ctx);
			else {
				blockWith(child, render, sub, ctx);
				if (sub.length > 0) items.push(sub.join("\n"));
				continue;
			}
		}
		if (sub.length === 0) continue;
		const marker = ordered ? `${number++}. ` : "- ";
		// Most items are one line: nothing to join, no line to indent.
		const text = sub.length === 1 ? sub[0]! : sub.join("\n");
		items.push(marker + (text.includes("\n") ? text.replace(/\n/g, `\n${" ".repeat(marker.length)}`) : text));
	}
	if (items.length > 0) out.push(items.join("\n"));
}

function quote(element: El, out: string[], ctx: Context): void {
	const sub: string[] = [];
	blocks(element, sub, ctx);
	if (sub.length === 0) return;
	const text = sub.join("\n\n");
	out.push(ctx.markdown ? text.replace(/^/gm, "> ") : text);
}

function codeBlock(element: El, out: string[], ctx: Context): void {
	const text = codeBlockOf(element, ctx.markdown);
	if (text !== undefined) out.push(text);
}

function rule(_element: El, out: string[], ctx: Context): void {
	if (ctx.markdown) out.push("---");
}

/** A block-holding link (a card): its blocks, the first one linked. */
function blockLink(element: El, out: string[], ctx: Context): void {
	const sub: string[] = [];
	blocks(element, sub, ctx);
	if (sub.length === 0) return;
	const first = sub[0]!;
	const marks = /^(#{1,6} )?([\s\S]*)$/.exec(first)!;
	if (!first.includes("\n")) sub[0] = (marks[1] ?? "") + link(marks[2]!, linkTarget(element.attrs.href, ctx), ctx);
	out.push(...sub);
}

// --- tables ------------------------------------------------------------------------------------------------------
// GFM when the table is tabular data (no nested table, some row with two cells); layout tables render their cells
// as paragraphs. The first row is the header row, as GFM requires. Rows and cells are collected once per table.

function rowsOf(table: El): El[] {
	const rows: El[] = [];
	for (const child of table.children) {
		if (typeof child === "string") continue;
		if (child.tag === "tr") rows.push(child);
		else if (child.tag === "thead" || child.tag === "tbody" || child.tag === "tfoot") {
			for (const row of child.children) if (typeof row !== "string" && row.tag === "tr") rows.push(row);
		}
	}
	return rows;
}

function cellsOf(row: El): El[] {
	return row.children.filter((cell): cell is El => typeof cell !== "string" && CELL_TAGS.has(cell.tag));
}

function span(cell: El): number {
	const value = Number.parseInt(cell.attrs.colspan ?? "1", 10);
	return Number.isFinite(value) && value > 1 ? Math.min(value, 50) : 1;
}

function table(element: El, out: string[], ctx: Context): void {
	const rows = rowsOf(element).map(cellsOf);
	const tabular = !element.hasTable && rows.some((cells) => cells.length >= 2);
	if (!tabular) {
		for (const child of element.children) if (typeof child !== "string") blocks(child, out, ctx);
		return;
	}
	const lines: string[] = [];
	let columns = 0;
	for (const cells of rows) {
		const texts: string[] = [];
		for (const cell of cells) {
			const text = inlineOfBlocks(cell, ctx);
			texts.push(ctx.markdown && text.includes("|") ? text.replace(/\|/g, "\\|") : text);
			for (let i = span(cell); i > 1; i--) texts.push("");
		}
		columns = Math.max(columns, texts.length);
		lines.push(texts.join(" | "));
	}
	const caption = element.children.find((c): c is El => typeof c !== "string" && c.tag === "caption");
	const head = caption ? inlineOfBlocks(caption, ctx) : "";
	if (!ctx.markdown) {
		out.push([head, ...lines].filter(Boolean).join("\n"));
		return;
	}
	const padded = lines.map((line, i) => {
		const cells = rows[i]!.reduce((sum, cell) => sum + span(cell), 0);
		const row = `| ${line}${" | ".repeat(Math.max(0, columns - cells))} |`;
		return row.includes("  |") ? row.replace(/ {2,}\|/g, " |") : row;
	});
	padded.splice(1, 0, `|${" --- |".repeat(columns)}`);
	out.push((head ? `**${head}**\n\n` : "") + padded.join("\n"));
}

const BLOCK_RENDERERS = new Map<string, BlockRenderer>([
	...["h1", "h2", "h3", "h4", "h5", "h6"].map((tag) => [tag, heading] as const),
	["ul", list],
	["ol", list],
	["menu", list],
	["blockquote", quote],
	["pre", codeBlock],
	["hr", rule],
	["table", table],
	...(
		"address article aside body center dd details dialog dir div dl dt fieldset figcaption figure footer form " +
		"header hgroup li main nav p section summary tbody td tfoot th thead tr caption"
	)
		.split(" ")
		.map((tag) => [tag, container] as const),
]);

function blockWith(element: El, render: BlockRenderer | undefined, out: string[], ctx: Context): void {
	if (render) render(element, out, ctx);
	else if (element.tag === "a" && element.attrs.href) blockLink(element, out, ctx);
	else blocks(element, out, ctx);
}

/** An element's content on one line (headings, table cells), whatever blocks it holds. */
function inlineOfBlocks(element: El, ctx: Context): string {
	const sub: string[] = [];
	blocks(element, sub, ctx);
	// Most cells and headings are one line: nothing to join, no line break to replace.
	const text = sub.length === 1 ? sub[0]! : sub.join(" ");
	return text.includes("\n") ? text.replace(/\s*\n\s*/g, " ") : text;
}

// --- inline ------------------------------------------------------------------------------------------------------

function inlineChildren(element: El, ctx: Context): string {
	let text = "";
	for (const child of element.children) text += typeof child === "string" ? spaced(child) : inline(child, ctx);
	return text;
}

/** Source whitespace (newlines included) is one space to a reader. Copies the text only when that changes it. */
function spaced(text: string): string {
	if (isBlank(text)) return text === "" ? text : " ";
	return UNSPACED.test(text) ? text.replace(/\s+/g, " ") : text;
}

function inline(element: El, ctx: Context): string {
	return isBlock(element) ? ` ${inlineOfBlocks(element, ctx)} ` : inlineElement(element, ctx);
}

/** An inline element (not a block: `isBlock` is false). */
function inlineElement(element: El, ctx: Context): string {
	const tag = element.tag;
	if (tag === "br") return "\n";
	if (tag === "img") return image(element, ctx);
	if (tag === "a") return withinLink(linkTarget(element.attrs.href, ctx), ctx, () => inlineChildren(element, ctx));
	if (!ctx.markdown) return inlineChildren(element, ctx);
	if (tag === "strong" || tag === "b") return wrap(inlineChildren(element, ctx), "**");
	if (tag === "em" || tag === "i") return wrap(inlineChildren(element, ctx), "_");
	if (INLINE_CODE.has(tag)) return inlineCode(textOf(element));
	return inlineChildren(element, ctx);
}

/** Emphasis marks hug the text (`**a** b`, never `** a**`), and are left out around nothing. */
function wrap(content: string, mark: string): string {
	const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(content)!;
	return match[2] === "" ? content : `${match[1]}${mark}${match[2]}${mark}${match[3]}`;
}
