// Keys that name JavaScript's object machinery (`__proto__`, `constructor`, `prototype`) are refused at every level
// of the config: copied into a plain object, `__proto__` would set its prototype and smuggle in options the schema
// never saw. The loader reports each one once and drops it before validation.

import type { JsonPath } from "./validate.ts";

export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Paths of every prototype key in a parsed config (own keys only; the parser keeps them as plain data). */
export function prototypeKeyPaths(value: unknown, path: JsonPath = [], out: JsonPath[] = []): JsonPath[] {
	if (value === null || typeof value !== "object") return out;
	if (Array.isArray(value)) {
		value.forEach((item, i) => {
			prototypeKeyPaths(item, [...path, i], out);
		});
		return out;
	}
	for (const key of Object.keys(value)) {
		if (PROTOTYPE_KEYS.has(key)) out.push([...path, key]);
		else prototypeKeyPaths((value as Record<string, unknown>)[key], [...path, key], out);
	}
	return out;
}
