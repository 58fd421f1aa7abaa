// Copies out of a provider's answer into the result a call returns: the page's own facts, and a deep copy of plain
// data. A cached answer is shared by later calls, so nothing of it is handed out by reference.

import type { FetchResult } from "../engine/result-types.ts";
import type { ProviderFetchResult } from "../providers/contract.ts";

const OWN = { enumerable: true, writable: true, configurable: true } as const;

/** What a page says of itself (its metadata), copied from the provider's result to the call's when present. */
const PAGE_FACTS = [
	"author",
	"authors",
	"publishedAt",
	"modifiedAt",
	"siteName",
	"language",
	"canonicalUrl",
	"extractedAs",
] as const;

export function copyPageFacts(raw: ProviderFetchResult, result: FetchResult): void {
	for (const key of PAGE_FACTS) {
		const value = raw[key];
		// A list is copied: the provider's result may sit in the cache, and callers may change theirs.
		if (value !== undefined) Object.assign(result, { [key]: Array.isArray(value) ? [...value] : value });
	}
}

/** A deep copy of plain data (objects, arrays, primitives: all a result holds), at a fraction of structuredClone's cost. */
export function copyPlain<T>(value: T): T {
	if (value === null || typeof value !== "object") return value;
	if (Array.isArray(value)) {
		const out: unknown[] = new Array(value.length);
		for (let i = 0; i < value.length; i++) out[i] = copyPlain(value[i]);
		return out as T;
	}
	const out: Record<string, unknown> = {};
	const record = value as Record<string, unknown>;
	for (const name in record) {
		if (!Object.hasOwn(record, name)) continue;
		// An own "__proto__" key (JSON.parse makes one) must stay a key, not become the copy's prototype.
		if (name === "__proto__") Object.defineProperty(out, name, { value: copyPlain(record[name]), ...OWN });
		else out[name] = copyPlain(record[name]);
	}
	return out as T;
}
