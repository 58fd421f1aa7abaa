// Markdown (a GitHub body, a README, a docs page's .md twin) without what was pasted around its text: the HTML tags
// GitHub renders (an image's tag with its size, <details>/<summary>, <br>, <sub>, an alignment <p>), a camo proxy's
// image address, a table's padding, trailing spaces, runs of blank lines, and on request an MDX page's wiring. Code,
// fenced, indented or inline, stays as written. Pure, linear in the text (a README is leaned whole, before its cut).

import { closesFence, FENCE } from "./markdown-comments.ts";

const INDENTED = /^(?: {4}|\t)/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const IMG_TAG = /<img\b([^<>]{0,2000})>/gi;
// A bracket ends each class below, so a failed match never scans past the next one: linear in the line.
const MD_IMAGE = /!\[([^[\]\n]{0,500})\]\((https?:\/\/[^\s()[\]]{1,2000})\)/g;
/** A link whose text is an address: when it is the link's own, the address alone says it (GitHub links it bare). */
const SELF_LINK = /\[(https?:\/\/[^[\]\s()]{1,2000})\]\((https?:\/\/[^\s()[\]]{1,2000})\)/g;
const CAMO = /^https:\/\/camo\.githubusercontent\.com\/[0-9a-f]+\/([0-9a-f]+)$/i;

/** An MDX page's import line (`import Tabs from '@theme/Tabs';`): build wiring, no text. */
const MDX_IMPORT = /^import\s+(?:[\w*{}\s,]{1,300}\s+from\s+)?["'][^"'\n]{1,300}["'];?\s*$/;
/** A line that is one MDX component's tag alone (`<Tabs groupId="pm">`, `</TabItem>`, `<DocCardList />`). */
const MDX_TAG = /^\s*<\/?[A-Z][\w.]{0,60}([^<>]{0,500})>\s*$/;

/**
 * `text` with the noise above taken out; a line of code (fenced or indented) is kept as it is. `mdx`: also an MDX
 * page's imports and its components' tag lines (a tab's or box's `label` or `title` kept as a bold line), which a
 * docs site's `.md` twin may carry.
 */
export function leanMarkdown(text: string, options: { mdx?: boolean } = {}): string {
	const out: string[] = [];
	let fence = "";
	// Inside an indented code block: four spaces or a tab after a blank line, up to the next line with less.
	let indented = false;
	for (const line of text.split("\n")) {
		const marker = FENCE.exec(line)?.[1];
		if (fence !== "") {
			if (closesFence(marker, fence)) fence = "";
			out.push(line);
			continue;
		}
		if (marker !== undefined) {
			fence = marker;
			out.push(line.trimEnd());
			continue;
		}
		if (line.trim() !== "") {
			indented = INDENTED.test(line) && (indented || out.length === 0 || out.at(-1) === "");
			if (indented) {
				out.push(line);
				continue;
			}
		}
		const parts = options.mdx ? mdxLine(line) : leanLine(line);
		for (const part of parts) {
			// One blank line parts paragraphs; more say nothing more.
			if (part === "" && (out.length === 0 || out.at(-1) === "")) continue;
			out.push(part);
		}
	}
	return out.join("\n");
}

/** An MDX line outside code fences as its lines: none for an import or a component's tag, else as leanLine. */
function mdxLine(line: string): string[] {
	if (MDX_IMPORT.test(line)) return [];
	const tag = MDX_TAG.exec(line);
	if (!tag) return leanLine(line);
	const label = attribute(tag[1]!, "label") || attribute(tag[1]!, "title");
	return label ? [`**${label}**`] : [];
}

/** A line outside code fences as its lines: inline HTML rewritten outside code spans, a table row unpadded. */
function leanLine(line: string): string[] {
	const row = TABLE_ROW.test(line);
	let text = "";
	let from = 0;
	for (const [start, end] of codeSpans(line)) {
		text += leanHtml(line.slice(from, start), row) + line.slice(start, end);
		from = end;
	}
	text += leanHtml(line.slice(from), row);
	if (row) return [unpadded(text)];
	// A line a <br> started has no indent of its own (four spaces would make it code).
	return text.split("\n").map((part, i) => (i === 0 ? part : part.trimStart()).trimEnd());
}

/**
 * The inline code spans of a line, as [start, end): a run of backticks opens one that the next run as long closes
 * (an unclosed run is text). Each run's closer is found in one backward pass, so the scan is linear.
 */
function codeSpans(line: string): Array<[number, number]> {
	if (!line.includes("`")) return [];
	const runs = [...line.matchAll(/`+/g)].map((run) => [run.index, run[0].length] as const);
	const closer: Array<number | undefined> = [];
	const nextOfLength = new Map<number, number>();
	for (let i = runs.length - 1; i >= 0; i--) {
		closer[i] = nextOfLength.get(runs[i]![1]);
		nextOfLength.set(runs[i]![1], i);
	}
	const spans: Array<[number, number]> = [];
	for (let i = 0; i < runs.length; i++) {
		const j = closer[i];
		if (j === undefined) continue;
		spans.push([runs[i]![0], runs[j]![0] + runs[j]![1]]);
		i = j;
	}
	return spans;
}

/** Prose's inline HTML as markdown; a `<br>` in a table row stays (a cell has no lines). */
function leanHtml(prose: string, row: boolean): string {
	if (!prose.includes("<") && !prose.includes("](http")) return prose;
	const text = prose
		.replace(IMG_TAG, (_, attrs: string) => image(attribute(attrs, "alt"), attribute(attrs, "src")))
		.replace(MD_IMAGE, (_, alt: string, url: string) => image(alt, url))
		.replace(SELF_LINK, (link: string, shown: string, url: string) => (shown === url ? url : link))
		.replace(/<\/?details\b[^<>]{0,200}>/gi, "")
		// A summary's tags become bold marks: one line's summary reads `**Log**` (none of its text is scanned twice).
		.replace(/<summary\b[^<>]{0,200}>\s{0,20}<\/summary>/gi, "")
		.replace(/<summary\b[^<>]{0,200}>\s{0,20}/gi, "**")
		.replace(/\s{0,20}<\/summary>/gi, "**")
		.replace(/<\/?sub>/gi, "")
		.replace(/<\/?p(?: align="[\w-]{0,20}")?>/gi, "");
	return row ? text : text.replace(/<br ?\/?>/gi, "\n");
}

/** An image as markdown: its alt text and its address without `https://` (a camo proxy's, the one it proxies). */
function image(alt: string, src: string): string {
	if (src === "") return alt;
	const camo = CAMO.exec(src)?.[1];
	const proxied = camo && camo.length % 2 === 0 ? Buffer.from(camo, "hex").toString("utf8") : "";
	const url = /^https?:\/\/[^\s()<>]+$/.test(proxied) ? proxied : src;
	return `![${alt}](${url.replace(/^https:\/\//i, "")})`;
}

/** An HTML attribute's value, quoted or not, on one line and without brackets that would end a markdown link. */
function attribute(attrs: string, name: string): string {
	const found = new RegExp(`\\b${name} ?= ?(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i").exec(attrs);
	return (found?.[1] ?? found?.[2] ?? found?.[3] ?? "").replace(/[[\]()\n]/g, " ").trim();
}

/** A table row with one space each side of a cell's text, an alignment row's dashes cut to three. */
function unpadded(row: string): string {
	const indent = row.slice(0, row.length - row.trimStart().length);
	const cells = row.trim().split(/(?<!\\)\|/);
	return (
		indent +
		cells
			.map((cell) => cell.trim())
			.join(" | ")
			.trim()
			.replace(/(?<=\| )(:?)-{3,}(:?)(?= \|)/g, (_, left: string, right: string) => {
				const dashes = "-".repeat(3 - left.length - right.length);
				return `${left}${dashes}${right}`;
			})
	);
}
