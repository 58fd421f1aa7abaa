// Keys that name JavaScript's object machinery (`__proto__`, `constructor`, `prototype`) are refused at every level
// of the config: copied into a plain object, `__proto__` would set its prototype and smuggle in options the schema
// never saw. The loader reports each one once and drops it before validation.

import type { JsonPath } from "./validate.ts";

export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Any of the names, written as they are: a key can only spell one otherwise through an escape, with a backslash. */
const PROTOTYPE_NAME = /__proto__|constructor|prototype/;

/**
 * False when `text` (JSON or JSON5) cannot hold a prototype key: none of the names is written in it and it has no
 * backslash. The loader then need not walk every object of the parsed value for them (a 1,000-rule file has ~1,060).
 */
export function mayNamePrototype(text: string): boolean {
	return text.includes("\\") || PROTOTYPE_NAME.test(text);
}

/** Paths of every prototype key in a parsed config (own keys only; the parser keeps them as plain data). */
export function prototypeKeyPaths(value: unknown): JsonPath[] {
	const out: JsonPath[] = [];
	// One path, pushed and popped on the way down; copied only for a key found (every load walks every value).
	const path: Array<string | number> = [];
	const walk = (node: object) => {
		if (Array.isArray(node)) {
			for (let i = 0; i < node.length; i++) {
				const item: unknown = node[i];
				if (item === null || typeof item !== "object") continue;
				path.push(i);
				walk(item);
				path.pop();
			}
			return;
		}
		for (const key of Object.keys(node)) {
			if (PROTOTYPE_KEYS.has(key)) {
				out.push([...path, key]);
				continue;
			}
			const child: unknown = (node as Record<string, unknown>)[key];
			if (child === null || typeof child !== "object") continue;
			path.push(key);
			walk(child);
			path.pop();
		}
	};
	if (value !== null && typeof value === "object") walk(value);
	return out;
}
