// Parses config text as JSON5 and keeps a map from JSON paths to source positions (momoa's AST),
// so every later diagnostic can point at `file:line:col`. Duplicate keys are found here too.

import { type AnyNode, parse as parseAst } from "@humanwhocodes/momoa";
import JSON5 from "json5";
import { provenClean, scanJson } from "./json-duplicates.ts";

export interface Position {
	line: number;
	col: number;
}

export interface ParsedSource {
	/** The parsed value; objects have own properties only (`__proto__` stays a plain key). */
	value: unknown;
	/** Position of the value at `path`, or of its nearest existing ancestor. */
	locate(path: ReadonlyArray<string | number>, which?: "value" | "key"): Position;
	duplicates: Array<{ path: Array<string | number>; position: Position }>;
}

export type ParseOutcome = { ok: true; source: ParsedSource } | { ok: false; message: string; position: Position };

interface Located {
	node: AnyNode;
	keyNode?: AnyNode;
	children?: Map<string, Located>;
}

/** Deeper is no config (real ones nest ~6 levels) and would overflow the recursive parsers and the walks after them. */
export const MAX_NESTING = 100;

const LINE_END = /[\n\r\u2028\u2029]/g;

/** Offset of the first `{` or `[` nested deeper than MAX_NESTING, skipping strings and comments; a cheap pre-pass. */
function tooDeep(text: string): number | undefined {
	let depth = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '"' || c === "'") {
			for (i++; i < text.length && text[i] !== c; i++) if (text[i] === "\\") i++;
		} else if (c === "/" && text[i + 1] === "/") {
			LINE_END.lastIndex = i;
			i = LINE_END.exec(text)?.index ?? text.length;
		} else if (c === "/" && text[i + 1] === "*") {
			const end = text.indexOf("*/", i + 2);
			i = end === -1 ? text.length : end + 1;
		} else if (c === "{" || c === "[") {
			if (++depth > MAX_NESTING) return i;
		} else if (c === "}" || c === "]") depth--;
	}
	return undefined;
}

/** Parses JSON5 (so JSON, comments and trailing commas all work). A syntax error makes the whole file unusable. */
export function parseSource(text: string): ParseOutcome {
	const fast = fastJson(text);
	if (fast !== undefined) return fast;
	const deep = tooDeep(text);
	if (deep !== undefined) return tooDeepOutcome(text, deep);
	// json5 is the reference parser for what is valid; momoa gives the positions.
	try {
		JSON5.parse(text);
	} catch (error) {
		const e = error as { message?: string; lineNumber?: number; columnNumber?: number };
		// json5 counts lines by \n alone (and says column 0 for a bad newline): map its position to an offset,
		// then to the line and column an editor (and momoa, for every other diagnostic) shows.
		const offset = offsetOfNewlineOnly(text, e.lineNumber ?? 1, e.columnNumber ?? 1);
		const message = withoutPosition(String(e.message ?? error).replace(/^JSON5: /, ""));
		return { ok: false, message, position: positionAt(text, offset) };
	}
	let ast: ReturnType<typeof parseAst>;
	try {
		ast = parseAst(text, { mode: "json5", ranges: false });
	} catch (error) {
		const e = error as { message?: string; line?: number; column?: number };
		const position = clampPosition(text, { line: e.line ?? 1, col: e.column ?? 1 });
		return { ok: false, message: withoutPosition(String(e.message ?? error)), position };
	}
	const duplicates: ParsedSource["duplicates"] = [];
	const root: Located = { node: ast.body };
	const value = build(ast.body, root, [], duplicates);
	return { ok: true, source: { value, locate: locator(root), duplicates } };
}

/**
 * Plain JSON (most files, and every generated one) parses with JSON.parse, duplicate keys are found by a scan, and
 * the located tree (momoa) is built only if a diagnostic needs a position: a clean 1,000-rule file loads ~10× faster.
 */
function fastJson(text: string): ParseOutcome | undefined {
	let value: unknown;
	try {
		value = JSON.parse(text); // own "__proto__" keys stay plain data (JSON.parse defines properties)
	} catch {
		return undefined;
	}
	// The scan checks the nesting too, so plain JSON needs no separate pre-pass (tooDeep) over its text. A text proven
	// clean by counting its keys (the common case) needs no scan at all.
	const scan = provenClean(text, value, MAX_NESTING) ? { duplicates: [] } : scanJson(text, MAX_NESTING);
	if (scan.tooDeepAt !== undefined) return tooDeepOutcome(text, scan.tooDeepAt);
	const duplicates = scan.duplicates.map((d) => ({ path: d.path, position: positionAt(text, d.offset) }));
	let located: ParsedSource["locate"] | undefined;
	const locate: ParsedSource["locate"] = (path, which) => {
		if (located === undefined) {
			try {
				const parsed = parseAst(text, { mode: "json5", ranges: false });
				const root: Located = { node: parsed.body };
				build(parsed.body, root, [], []);
				located = locator(root);
			} catch {
				located = () => ({ line: 1, col: 1 }); // JSON.parse accepted it; a locator failure must not lose the report
			}
		}
		return located(path, which);
	};
	return { ok: true, source: { value, locate, duplicates } };
}

function tooDeepOutcome(text: string, offset: number): ParseOutcome {
	return { ok: false, message: `nested more than ${MAX_NESTING} levels deep`, position: positionAt(text, offset) };
}

function locator(root: Located): ParsedSource["locate"] {
	return (path, which = "value") => {
		let current = root;
		for (const segment of path) {
			const next = current.children?.get(String(segment));
			if (!next) break;
			current = next;
		}
		const node = which === "key" && current.keyNode ? current.keyNode : current.node;
		return { line: node.loc.start.line, col: node.loc.start.column };
	};
}

function build(
	node: AnyNode,
	located: Located,
	path: Array<string | number>,
	duplicates: ParsedSource["duplicates"],
): unknown {
	switch (node.type) {
		case "Object": {
			const out: Record<string, unknown> = {};
			located.children = new Map();
			for (const member of node.members) {
				const key = member.name.type === "String" ? member.name.value : member.name.name;
				const childPath = [...path, key];
				if (located.children.has(key)) {
					duplicates.push({
						path: childPath,
						position: { line: member.name.loc.start.line, col: member.name.loc.start.column },
					});
				}
				const child: Located = { node: member.value, keyNode: member.name };
				located.children.set(key, child);
				// defineProperty keeps "__proto__" and friends as ordinary data, never touching the prototype.
				Object.defineProperty(out, key, {
					value: build(member.value, child, childPath, duplicates),
					enumerable: true,
					writable: true,
					configurable: true,
				});
			}
			return out;
		}
		case "Array": {
			located.children = new Map();
			return node.elements.map((element, index) => {
				const child: Located = { node: element.value };
				located.children?.set(String(index), child);
				return build(element.value, child, [...path, index], duplicates);
			});
		}
		case "String":
		case "Boolean":
			return node.value;
		case "Number":
			return node.value;
		case "Null":
			return null;
		case "NaN":
			return Number.NaN;
		case "Infinity":
			return node.sign === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
		default:
			return undefined;
	}
}

/** Lines as editors and momoa count them: \r\n, \r and \n each end one. */
const LINE_BREAK = /\r\n|\r|\n/g;

/** " at 3:27" in a parser's message would contradict the diagnostic's own position. */
function withoutPosition(message: string): string {
	return message.replace(/ at (line )?\d+(:| column )\d+$/, "");
}

/** Offset of a 1-based line/column where only \n ends a line (json5's counting); column 0 is the \n before. */
function offsetOfNewlineOnly(text: string, line: number, col: number): number {
	let start = 0;
	for (let l = 1; l < line; l++) {
		const next = text.indexOf("\n", start);
		if (next === -1) return text.length;
		start = next + 1;
	}
	return Math.min(Math.max(0, start + col - 1), text.length);
}

function positionAt(text: string, offset: number): Position {
	let line = 1;
	let start = 0;
	for (const match of text.matchAll(LINE_BREAK)) {
		if (match.index >= offset) break;
		const end = match.index + match[0].length;
		// Inside a \r\n: the position of its \r, one past the end of the line.
		if (end > offset) return { line, col: match.index - start + 1 };
		line++;
		start = end;
	}
	return { line, col: offset - start + 1 };
}

/** A position inside the text: the line exists and the column is at most one past its end. */
function clampPosition(text: string, position: Position): Position {
	const lines = text.split(LINE_BREAK);
	const line = Math.min(Math.max(1, Math.trunc(position.line) || 1), lines.length);
	const length = lines[line - 1]?.length ?? 0;
	return { line, col: Math.min(Math.max(1, Math.trunc(position.col) || 1), length + 1) };
}
