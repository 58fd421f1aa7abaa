// Config values as JSON5 text: a tree that keeps duplicate and prototype keys as plain entries, written out in
// varied styles (newlines, quotes, comments, trailing commas), plus character-level damage for syntax errors.

import fc from "fast-check";

/** A config value as text will spell it: objects keep duplicate and prototype keys as plain entries. */
export type Node =
	| { t: "obj"; entries: Array<[string, Node]> }
	| { t: "arr"; items: Node[] }
	| { t: "lit"; v: string | number | boolean | null }
	/** A JSON5 token written as is: NaN, -Infinity, 0x1F, .5, +1. */
	| { t: "raw"; text: string };

export function toNode(value: unknown): Node {
	if (Array.isArray(value)) return { t: "arr", items: value.map(toNode) };
	if (value !== null && typeof value === "object") {
		return { t: "obj", entries: Object.entries(value).map(([k, v]) => [k, toNode(v)]) };
	}
	if (typeof value === "number" && !Number.isFinite(value)) {
		return { t: "raw", text: Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity" };
	}
	return { t: "lit", v: value as string | number | boolean | null };
}

export interface Style {
	newline: "\n" | "\r\n" | "\r";
	indent: string;
	/** bare: identifiers unquoted; single: '…'; double: JSON. */
	keys: "bare" | "single" | "double";
	singleQuotedStrings: boolean;
	trailingCommas: boolean;
	comments: boolean;
}

export const styleArb: fc.Arbitrary<Style> = fc.record({
	newline: fc.constantFrom("\n" as const, "\r\n" as const, "\r" as const),
	indent: fc.constantFrom("", "\t", "  "),
	keys: fc.constantFrom("bare" as const, "single" as const, "double" as const),
	singleQuotedStrings: fc.boolean(),
	trailingCommas: fc.boolean(),
	comments: fc.boolean(),
});

function quote(text: string, single: boolean): string {
	const json = JSON.stringify(text);
	if (!single) return json;
	return `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

function keyText(key: string, style: Style): string {
	if (style.keys === "bare" && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) return key;
	return quote(key, style.keys === "single");
}

export function serialize(node: Node, style: Style, depth = 0): string {
	const nl = style.newline;
	const pad = style.indent.repeat(depth + 1);
	const end = style.indent.repeat(depth);
	const comma = style.trailingCommas ? "," : "";
	const note = (i: number) => (style.comments && i % 2 === 0 ? `${pad}// note ${i}${nl}` : "");
	switch (node.t) {
		case "lit":
			return typeof node.v === "string" ? quote(node.v, style.singleQuotedStrings) : JSON.stringify(node.v);
		case "raw":
			return node.text;
		case "arr":
			if (node.items.length === 0) return "[]";
			return `[${nl}${node.items.map((item, i) => `${note(i)}${pad}${serialize(item, style, depth + 1)}`).join(`,${nl}`)}${comma}${nl}${end}]`;
		case "obj":
			if (node.entries.length === 0) return "{}";
			return `{${nl}${node.entries
				.map(([key, value], i) => `${note(i)}${pad}${keyText(key, style)}: ${serialize(value, style, depth + 1)}`)
				.join(`,${nl}`)}${comma}${nl}${end}}${style.comments && depth === 0 ? ` /* end */${nl}` : ""}`;
	}
}

/** Character-level damage: inserts, deletions and replacements at random places (mostly syntax errors). */
export const editArb = fc.record({
	at: fc.nat(),
	remove: fc.nat({ max: 4 }),
	insert: fc.oneof(
		fc.constantFrom("", ",", ",,", "{", "}", "[", "]", ":", '"', "'", "/*", "//", "\\", "\n", "\r", "\u2028", "\ufeff"),
		fc.string({ maxLength: 4 }),
		fc.string({ unit: "binary", maxLength: 3 }),
	),
});

export function applyEdits(text: string, edits: Array<{ at: number; remove: number; insert: string }>): string {
	let out = text;
	for (const edit of edits) {
		const at = edit.at % (out.length + 1);
		out = out.slice(0, at) + edit.insert + out.slice(at + edit.remove);
	}
	return out;
}
