// Parses config text as JSON5 and keeps a map from JSON paths to source positions (momoa's AST),
// so every later diagnostic can point at `file:line:col`. Duplicate keys are found here too.

import { type AnyNode, parse as parseAst } from "@humanwhocodes/momoa";
import JSON5 from "json5";

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

/** Parses JSON5 (so JSON, comments and trailing commas all work). A syntax error makes the whole file unusable. */
export function parseSource(text: string): ParseOutcome {
	// json5 is the reference parser for what is valid; momoa gives the positions.
	try {
		JSON5.parse(text);
	} catch (error) {
		const e = error as { message?: string; lineNumber?: number; columnNumber?: number };
		const message = String(e.message ?? error).replace(/^JSON5: /, "");
		return { ok: false, message, position: { line: e.lineNumber ?? 1, col: e.columnNumber ?? 1 } };
	}
	let ast: ReturnType<typeof parseAst>;
	try {
		ast = parseAst(text, { mode: "json5", ranges: false });
	} catch (error) {
		const e = error as { message?: string; line?: number; column?: number };
		return { ok: false, message: String(e.message ?? error), position: { line: e.line ?? 1, col: e.column ?? 1 } };
	}
	const duplicates: ParsedSource["duplicates"] = [];
	const root: Located = { node: ast.body };
	const value = build(ast.body, root, [], duplicates);
	const locate = (path: ReadonlyArray<string | number>, which: "value" | "key" = "value"): Position => {
		let current = root;
		for (const segment of path) {
			const next = current.children?.get(String(segment));
			if (!next) break;
			current = next;
		}
		const node = which === "key" && current.keyNode ? current.keyNode : current.node;
		return { line: node.loc.start.line, col: node.loc.start.column };
	};
	return { ok: true, source: { value, locate, duplicates } };
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
