// Turndown configured for model-readable markdown: GFM tables (turndown has none built in), fenced code blocks with
// the language from common class conventions, links without empty anchors, images only when they have alt text.
// Turndown is passed in so this module never loads it by itself (the direct provider imports it lazily).

import type TurndownService from "turndown";

type Element = HTMLElement;

const TURNDOWN_OPTIONS: TurndownService.Options = {
	headingStyle: "atx",
	codeBlockStyle: "fenced",
	bulletListMarker: "-",
	emDelimiter: "_",
	strongDelimiter: "**",
	hr: "---",
};

/** Elements with no readable text of their own. */
const DROPPED: TurndownService.TagName[] = [
	"script",
	"style",
	"noscript",
	"template",
	"iframe",
	"object",
	"embed",
	"canvas",
	"button",
	"input",
	"select",
	"textarea",
];

export function createTurndown(Turndown: typeof TurndownService): TurndownService {
	const service = new Turndown(TURNDOWN_OPTIONS);
	service.remove(DROPPED);
	service.remove((node) => node.nodeName.toLowerCase() === "svg");
	service.addRule("codeBlock", { filter: (node) => node.nodeName === "PRE", replacement: codeBlock });
	service.addRule("link", { filter: (node) => node.nodeName === "A", replacement: link });
	service.addRule("image", { filter: "img", replacement: image });
	service.addRule("listItem", { filter: "li", replacement: listItem });
	addTableRules(service);
	return service;
}

const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang|highlight-source|highlight)-([\w#+.-]+)/i;

function languageOf(pre: Element): string {
	const code = pre.firstElementChild?.nodeName === "CODE" ? pre.firstElementChild : undefined;
	for (const element of [code, pre, pre.parentElement]) {
		const match = element?.getAttribute("class")?.match(LANGUAGE_CLASS);
		if (match?.[1]) return match[1].toLowerCase();
	}
	return "";
}

/** The text verbatim, fenced with more backticks than any run inside it. */
function codeBlock(_content: string, node: Element): string {
	const text = (node.textContent ?? "").replace(/\n+$/, "");
	if (text.trim() === "") return "";
	const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
	const fence = "`".repeat(Math.max(3, longestRun + 1));
	return `\n\n${fence}${languageOf(node)}\n${text}\n${fence}\n\n`;
}

function link(content: string, node: Element): string {
	const text = content.trim();
	if (text === "") return "";
	const href = node.getAttribute("href");
	if (!href) return content;
	return `[${content.replace(/\n+/g, " ")}](${escapeUrl(href)})`;
}

function image(_content: string, node: Element): string {
	const alt = (node.getAttribute("alt") ?? "").replace(/\s+/g, " ").trim();
	const src = node.getAttribute("src") ?? "";
	if (alt === "") return "";
	if (src === "" || src.startsWith("data:")) return alt;
	return `![${alt.replace(/[[\]]/g, "\\$&")}](${escapeUrl(src)})`;
}

/** Item positions per list, computed once: turndown's own rule looks each one up in O(n), O(n²) per list. */
const itemIndexes = new WeakMap<Element, Map<Element, number>>();

function indexInList(item: Element, list: Element): number {
	let indexes = itemIndexes.get(list);
	if (!indexes) {
		indexes = new Map(Array.from(list.children).map((child, index) => [child as Element, index]));
		itemIndexes.set(list, indexes);
	}
	return indexes.get(item) ?? 0;
}

/** Like turndown's rule, with a one-space marker ("- ", "1. ") to keep long lists compact. */
function listItem(content: string, node: Element): string {
	const list = node.parentElement;
	let prefix = "- ";
	if (list?.nodeName === "OL") {
		const start = Number.parseInt(list.getAttribute("start") ?? "1", 10);
		prefix = `${(Number.isFinite(start) ? start : 1) + indexInList(node, list)}. `;
	}
	const body = content
		.replace(/^\n+/, "")
		.replace(/\n+$/, "\n")
		.replace(/\n/gm, `\n${" ".repeat(prefix.length)}`);
	return `${prefix}${body}${node.nextSibling && !/\n$/.test(body) ? "\n" : ""}`;
}

/** Parentheses and whitespace would end a markdown link destination early. */
function escapeUrl(url: string): string {
	return url.trim().replace(/[()\s]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

// --- GFM tables ------------------------------------------------------------------------------------------------
// A table renders as GFM when it is tabular data: no nested table and some row with two cells. Layout tables fall
// through to the default rules (their cells become paragraphs). The first row is the header row, as GFM requires.

const dataTables = new WeakMap<Element, boolean>();

function tableOf(node: Element): Element | undefined {
	for (let parent = node.parentElement; parent; parent = parent.parentElement) {
		if (parent.nodeName === "TABLE") return parent;
	}
	return undefined;
}

function isDataTable(table: Element | undefined): boolean {
	if (!table) return false;
	let verdict = dataTables.get(table);
	if (verdict === undefined) {
		const rows = Array.from(table.querySelectorAll("tr"));
		verdict = table.querySelector("table") === null && rows.some((row) => cellsOf(row).length >= 2);
		dataTables.set(table, verdict);
	}
	return verdict;
}

function cellsOf(row: Element): Element[] {
	return Array.from(row.children).filter((cell) => cell.nodeName === "TD" || cell.nodeName === "TH") as Element[];
}

function span(cell: Element): number {
	const value = Number.parseInt(cell.getAttribute("colspan") ?? "1", 10);
	return Number.isFinite(value) && value > 1 ? Math.min(value, 50) : 1;
}

function isHeaderRow(row: Element, table: Element): boolean {
	return table.querySelector("tr") === row;
}

function addTableRules(service: TurndownService): void {
	const inData = (node: Element) => isDataTable(tableOf(node) ?? undefined);
	service.addRule("tableCell", {
		filter: (node) => (node.nodeName === "TD" || node.nodeName === "TH") && inData(node),
		replacement: (content, node) => {
			const text = content
				.replace(/\s*\n\s*/g, " ")
				.trim()
				.replace(/\|/g, "\\|");
			const first = node.parentElement ? cellsOf(node.parentElement)[0] === node : true;
			return `${first ? "| " : " "}${text} |${" |".repeat(span(node) - 1)}`;
		},
	});
	service.addRule("tableRow", {
		filter: (node) => node.nodeName === "TR" && inData(node),
		replacement: (content, node) => {
			const table = tableOf(node);
			if (!table || !isHeaderRow(node, table)) return `\n${content}`;
			const columns = cellsOf(node).reduce((sum, cell) => sum + span(cell), 0);
			return `\n${content}\n|${" --- |".repeat(columns)}`;
		},
	});
	service.addRule("tableSection", {
		filter: (node) => ["THEAD", "TBODY", "TFOOT"].includes(node.nodeName) && inData(node),
		replacement: (content) => content,
	});
	service.addRule("tableCaption", {
		filter: (node) => node.nodeName === "CAPTION" && inData(node),
		replacement: () => "",
	});
	service.addRule("table", {
		filter: (node) => node.nodeName === "TABLE" && isDataTable(node),
		replacement: (content, node) => {
			const caption = node.querySelector("caption")?.textContent?.replace(/\s+/g, " ").trim();
			const rows = content.replace(/\n+/g, "\n").trim();
			return `\n\n${caption ? `**${caption}**\n\n` : ""}${rows}\n\n`;
		},
	});
}
