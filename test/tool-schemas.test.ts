// The tool output schemas (extension/schemas.ts) describe exactly the result types (engine/result-types.ts) and the
// failure (runtime/failure.ts): the same properties, the same required ones. extension/schemas.ts checks this at
// compile time; here a full and a minimal value of each type, which the compiler keeps complete, are held
// against the schema, so an edit to either side fails a test too. The schemas pi registers are the same ones written
// out as plain data (extension/tool-schemas.json), which must equal what typebox builds.

import { readFileSync } from "node:fs";
import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import type { Attempt, FetchResult, SearchResult, SearchResultItem } from "../engine/result-types.ts";
import { toolSchemasText } from "../extension/build-schemas.ts";
import * as built from "../extension/schemas.ts";
import { failureOutput, fetchResultOutput, searchResultOutput } from "../extension/schemas.ts";
import registered from "../extension/tool-schemas.json" with { type: "json" };
import type { CallFailure } from "../runtime/failure.ts";

/** Every field present (the compiler rejects a value that leaves one out). */
type Full<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
/** The required fields only (the compiler rejects an optional one in an object literal). */
type RequiredPart<T> = Omit<T, OptionalKeys<T>>;

interface ObjectSchema {
	properties: Record<string, unknown>;
	required?: string[];
}

const attempt: Full<Attempt> = {
	provider: "exa",
	outcome: "error",
	reason: "429 rate limited",
	latencyMs: 12,
	key: "key1",
	kind: "rate-limit",
	retryable: true,
	retryAfterMs: 1000,
	hint: "wait a minute",
};
const item: Full<SearchResultItem> = {
	title: "T",
	url: "https://example.com/",
	snippet: "s",
	content: "c",
	publishedAt: "2026-01-02",
	score: 0.5,
};
const common = { attempts: [attempt], warnings: ["w"], costUsd: 0.01, latencyMs: 5, cached: true };
const search: Full<SearchResult> = { provider: "exa", query: "q", answer: "a", results: [item], ...common };
const fetched: Full<FetchResult> = {
	provider: "direct",
	url: "https://example.com/",
	finalUrl: "https://example.com/a",
	title: "T",
	author: "A",
	publishedAt: "2026-01-02T00:00:00Z",
	authors: ["A"],
	modifiedAt: "2026-01-03T00:00:00Z",
	siteName: "Example",
	language: "en",
	canonicalUrl: "https://example.com/a",
	content: "text",
	format: "markdown",
	extraction: "verbatim",
	extractedAs: "listing",
	truncated: true,
	nextOffset: 4,
	totalChars: 8,
	crawledAt: "2026-01-02T00:00:00Z",
	...common,
};
const failure: Full<CallFailure> = {
	error: "every provider failed",
	kind: "rate-limit",
	retryable: true,
	retryAfterMs: 1000,
	provider: "brave",
	hint: "call web_search again",
	attempts: [attempt],
};

const minimalAttempt: RequiredPart<Attempt> = { provider: "exa", outcome: "ok" };
const minimalItem: RequiredPart<SearchResultItem> = { title: "T", url: "https://example.com/", snippet: "s" };
const minimalCommon = { attempts: [], warnings: [], latencyMs: 5 };
const minimalSearch: RequiredPart<SearchResult> = { provider: "exa", query: "q", results: [], ...minimalCommon };
const minimalFetch: RequiredPart<FetchResult> = {
	provider: "direct",
	url: "https://example.com/",
	content: "",
	extraction: "verbatim",
	truncated: false,
	...minimalCommon,
};
const minimalFailure: RequiredPart<CallFailure> = {
	error: "e",
	kind: "unavailable",
	retryable: false,
	hint: "h",
	attempts: [],
};

const properties = (schema: unknown) => (schema as ObjectSchema).properties;
const attemptSchema = (properties(searchResultOutput).attempts as { items: unknown }).items;
const itemSchema = (properties(searchResultOutput).results as { items: unknown }).items;

const CASES = [
	{ name: "SearchResult", schema: searchResultOutput as unknown, full: search, minimal: minimalSearch },
	{ name: "FetchResult", schema: fetchResultOutput, full: fetched, minimal: minimalFetch },
	{ name: "CallFailure", schema: failureOutput, full: failure, minimal: minimalFailure },
	{ name: "Attempt", schema: attemptSchema, full: attempt, minimal: minimalAttempt },
	{ name: "SearchResultItem", schema: itemSchema, full: item, minimal: minimalItem },
];

const sorted = (keys: Iterable<string>) => [...keys].sort();

describe("tool output schemas against the result types", () => {
	for (const { name, schema, full, minimal } of CASES) {
		it(`${name}: the schema has exactly the type's properties and accepts a value with all of them`, () => {
			expect(sorted(Object.keys(properties(schema)))).toEqual(sorted(Object.keys(full)));
			expect(Value.Check(schema as never, full)).toBe(true);
		});

		it(`${name}: the schema requires exactly the type's required properties`, () => {
			expect(sorted((schema as ObjectSchema).required ?? [])).toEqual(sorted(Object.keys(minimal)));
			expect(Value.Check(schema as never, minimal)).toBe(true);
		});
	}
});

describe("the schemas pi registers (extension/tool-schemas.json, plain data written ahead of time)", () => {
	const pairs = [
		["searchParameters", registered.searchParameters, built.searchParameters],
		["fetchParameters", registered.fetchParameters, built.fetchParameters],
		["searchOutput", registered.searchOutput, built.searchOutput],
		["fetchOutput", registered.fetchOutput, built.fetchOutput],
	] as const;
	for (const [name, written, fromTypebox] of pairs) {
		it(`${name} is, as JSON, what typebox builds from extension/schemas.ts`, () => {
			expect(JSON.stringify(written)).toBe(JSON.stringify(fromTypebox));
		});
	}

	it("the file is what `npm run schema` writes from extension/schemas.ts", () => {
		const shipped = readFileSync(new URL("../extension/tool-schemas.json", import.meta.url), "utf8");
		expect(shipped).toBe(toolSchemasText());
	});
});
