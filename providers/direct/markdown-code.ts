// Code of the markdown renderer (providers/direct/markdown.ts): fenced blocks with their language and inline spans,
// each fenced with more backticks than it holds. A `<pre>` is read as a browser lays it out: `<br>` and block elements
// break lines (highlighters that wrap each line in a `<div>`), a table row is one line with its cells apart by a tab
// (line-number tables; pages that put a whole results table in a `<pre>`), and the whitespace between table tags,
// which a browser never shows, is left out. One pass over the subtree with an explicit stack: linear, no recursion.

import { BLOCKS, CELL_TAGS } from "./dom-tags.ts";
import type { El, Node } from "./dom-types.ts";

/** Elements whose own whitespace-only text is the markup's indentation, not shown text. */
const TABLE_PARTS = new Set(["table", "thead", "tbody", "tfoot", "tr", "colgroup", "col"]);
const LANGUAGE_CLASS = /(?:^|\s)(?:(?:language|lang|highlight-source|highlight)-|brush:\s*)([\w#+.-]+)/i;

/** A `<pre>` as a fenced block (markdown) or its text as it is (`markdown` false); undefined when it is blank. */
export function codeBlockOf(element: El, markdown: boolean): string | undefined {
	// Spaces at a line's end are never seen (nor meaningful in code).
	const text = preText(element)
		.replace(/[ \t]+$/gm, "")
		.replace(/^\n/, "")
		.replace(/\s+$/, "");
	if (text.trim() === "") return undefined;
	if (!markdown) return text;
	let longest = 0;
	for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
	const fence = "`".repeat(Math.max(3, longest + 1));
	return `${fence}${languageOf(element)}\n${text}\n${fence}`;
}

function languageOf(pre: El): string {
	const code = pre.children.find((child): child is El => typeof child !== "string" && child.tag === "code");
	for (const element of [code, pre, pre.parent]) {
		const match = element?.attrs.class?.match(LANGUAGE_CLASS);
		if (match?.[1]) return match[1].toLowerCase();
	}
	return "";
}

/** Inline code, its whitespace collapsed. */
export function inlineCode(text: string): string {
	const collapsed = text.replace(/\s+/g, " ");
	if (collapsed.trim() === "") return collapsed;
	let longest = 0;
	for (const run of collapsed.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
	const fence = "`".repeat(longest + 1);
	const pad = longest > 0 ? " " : "";
	return `${fence}${pad}${collapsed}${pad}${fence}`;
}

type Step = Node | { close: El; mark: number; seen: number; last: string };

/** The text of a `<pre>` as a browser lays it out. */
export function preText(pre: El): string {
	const parts: string[] = [];
	/** Per open row: whether a cell with text has been written on it yet. */
	const rows: boolean[] = [];
	/** Text parts written with something other than whitespace in them, and the last character written. */
	let seen = 0;
	let last = "\n";
	/** A block just ended the line: a newline written next between two blocks is that same line end. */
	let broken = false;
	const write = (text: string) => {
		const own = broken && text.startsWith("\n") ? text.slice(1) : text;
		broken = false;
		if (own === "") return;
		parts.push(own);
		if (own.trim() !== "") seen++;
		last = own[own.length - 1]!;
	};
	const breakLine = () => {
		if (last === "\n") return;
		write("\n");
		broken = true;
	};
	const stack: Step[] = [pre];
	while (stack.length > 0) {
		const step = stack.pop()!;
		if (typeof step === "string") write(step);
		else if ("close" in step) close(step);
		else if (step.tag === "br") write("\n");
		else open(step);
	}
	return parts.join("");

	function open(element: El): void {
		if (element !== pre && isLineBlock(element)) breakLine();
		if (element.tag === "tr") rows.push(false);
		const mark = parts.length;
		// A cell's place for the tab that sets it apart from the cell before it, filled once it has text.
		if (CELL_TAGS.has(element.tag) && rows.length > 0) parts.push("");
		stack.push({ close: element, mark, seen, last });
		const skipBlank = TABLE_PARTS.has(element.tag);
		for (let i = element.children.length - 1; i >= 0; i--) {
			const child = element.children[i]!;
			if (!(skipBlank && typeof child === "string" && child.trim() === "")) stack.push(child);
		}
	}

	function close(step: { close: El; mark: number; seen: number; last: string }): void {
		const element = step.close;
		if (CELL_TAGS.has(element.tag) && rows.length > 0) {
			// A cell with nothing to read (`&nbsp;`, an empty line-number cell) leaves no gap behind.
			if (seen === step.seen) {
				parts.length = step.mark;
				last = step.last;
			} else if (rows[rows.length - 1]) parts[step.mark] = "\t";
			else rows[rows.length - 1] = true;
			return;
		}
		if (element.tag === "tr") rows.pop();
		if (element !== pre && isLineBlock(element)) breakLine();
	}
}

function isLineBlock(element: El): boolean {
	return BLOCKS.has(element.tag) && !CELL_TAGS.has(element.tag);
}
