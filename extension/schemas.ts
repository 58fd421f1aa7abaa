// Tool parameter and output schemas (typebox). The output schemas describe exactly the executor's result shapes
// (engine/result-types.ts SearchResult / FetchResult) or the failure of a call (runtime/failure.ts CallFailure,
// returned with isError): the compiler checks each against its type (end of file), tests check real results.

import { StringEnum } from "@earendil-works/pi-ai";
import { type Static, Type } from "typebox";
import { ERROR_CLASSES } from "../engine/error-classes.ts";
import { REQUEST_LIMITS } from "../engine/limits.ts";
import { NAMED_RECENCIES, RECENCY_WORDING } from "../engine/recency.ts";
import type { Attempt, FetchResult, SearchResult, SearchResultItem } from "../engine/result-types.ts";
import { thousands } from "../engine/thousands.ts";
import type { CallFailure } from "../runtime/failure.ts";

export const RECENCY_HELP = `${RECENCY_WORDING}, or a date range YYYY-MM-DD..YYYY-MM-DD`;

export const searchParameters = Type.Object({
	query: Type.String({
		description:
			"What to search for. site:<host> and site:<host>/<path> tokens move into domains, -site:<host> into excludeDomains.",
	}),
	domains: Type.Optional(
		Type.Array(Type.String(), {
			description:
				"Only these sites: a host (github.com, subdomains included), a host with a path prefix (go.dev/doc, x.com/golang for one account), or a suffix (.cn).",
		}),
	),
	excludeDomains: Type.Optional(
		Type.Array(Type.String(), { description: "Sites to leave out, same syntax as domains." }),
	),
	recency: Type.Optional(
		Type.Union(
			[StringEnum(NAMED_RECENCIES), Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}\\.\\.\\d{4}-\\d{2}-\\d{2}$" })],
			{
				description: `Only pages from that period: ${RECENCY_HELP}.`,
			},
		),
	),
	maxResults: Type.Optional(
		Type.Integer({
			minimum: 1,
			maximum: REQUEST_LIMITS.maxResultsMax,
			description: `Number of results (default ${REQUEST_LIMITS.maxResultsDefault}).`,
		}),
	),
	includeContent: Type.Optional(
		Type.Boolean({ description: "Also return page text excerpts where the backend has them (default false)." }),
	),
	provider: Type.Optional(
		Type.String({
			description: "A configured provider name; only that provider is tried. Use it only when the user names one.",
		}),
	),
});

export const fetchParameters = Type.Object({
	url: Type.String({
		description: `An http or https URL (no user name or password), at most ${thousands(REQUEST_LIMITS.maxUrlChars)} characters.`,
	}),
	offset: Type.Optional(
		Type.Integer({
			minimum: 0,
			description: "Character position to start from (default 0); use the nextOffset of a previous call to continue.",
		}),
	),
	maxChars: Type.Optional(
		Type.Integer({
			minimum: REQUEST_LIMITS.maxCharsMin,
			maximum: REQUEST_LIMITS.maxCharsMax,
			description: `Characters to return (default ${thousands(REQUEST_LIMITS.maxCharsDefault)}).`,
		}),
	),
	format: Type.Optional(
		StringEnum(["markdown", "text", "html"] as const, {
			description:
				"markdown (default): the main content with headings, lists, tables and code; text: the same without markup; html: the page's HTML itself (keyless fetcher only). Source files, raw text and JSON come back as they are.",
		}),
	),
	links: Type.Optional(
		StringEnum(["references", "inline", "none"] as const, {
			description:
				"Links in markdown: references (default: numbered [n] with the URLs listed after the text), inline [text](url), or none.",
		}),
	),
	provider: Type.Optional(
		Type.String({
			description: "A configured provider name; only that provider is tried. Use it only when the user names one.",
		}),
	),
});

/** pi's StringEnum (`{ type: "string", enum }`), typed for typebox so that Static<> of an output schema is exact. */
const outputEnum = <const T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>(StringEnum(values));

const attempt = Type.Object({
	provider: Type.String(),
	outcome: outputEnum(["ok", "empty", "error", "skipped"] as const),
	reason: Type.Optional(Type.String()),
	latencyMs: Type.Optional(Type.Number()),
	key: Type.Optional(Type.String()),
	kind: Type.Optional(outputEnum([...ERROR_CLASSES, "unavailable"] as const)),
	retryable: Type.Optional(Type.Boolean()),
	retryAfterMs: Type.Optional(Type.Number({ minimum: 0 })),
	hint: Type.Optional(Type.String()),
});

/** A failed call (isError): what kind, whether a retry can help, which provider to name next, and what to do. */
export const failureOutput = Type.Object(
	{
		error: Type.String({ description: "The whole message." }),
		kind: outputEnum([...ERROR_CLASSES, "unavailable", "internal"] as const),
		retryable: Type.Boolean({ description: "Whether the same call could succeed later." }),
		retryAfterMs: Type.Optional(Type.Number({ minimum: 0, description: "The shortest wait a backend asked for." })),
		provider: Type.Optional(
			Type.String({ description: "A configured provider that can serve this call and was not tried: name it." }),
		),
		hint: Type.String({ description: "The next action, one line." }),
		attempts: Type.Array(attempt),
	},
	{ additionalProperties: false },
);

const resultItem = Type.Object({
	title: Type.String(),
	url: Type.String(),
	snippet: Type.String(),
	content: Type.Optional(Type.String()),
	publishedAt: Type.Optional(Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" })),
	score: Type.Optional(Type.Number()),
});

export const searchResultOutput = Type.Object(
	{
		provider: Type.String(),
		query: Type.String(),
		answer: Type.Optional(Type.String()),
		results: Type.Array(resultItem),
		attempts: Type.Array(attempt),
		warnings: Type.Array(Type.String()),
		costUsd: Type.Optional(Type.Number()),
		latencyMs: Type.Number(),
		cached: Type.Optional(Type.Boolean()),
	},
	{ additionalProperties: false },
);

export const fetchResultOutput = Type.Object(
	{
		provider: Type.String(),
		url: Type.String(),
		finalUrl: Type.Optional(Type.String()),
		title: Type.Optional(Type.String()),
		author: Type.Optional(Type.String()),
		publishedAt: Type.Optional(Type.String()),
		authors: Type.Optional(Type.Array(Type.String())),
		modifiedAt: Type.Optional(Type.String()),
		siteName: Type.Optional(Type.String()),
		language: Type.Optional(Type.String()),
		canonicalUrl: Type.Optional(Type.String()),
		content: Type.String(),
		format: Type.Optional(outputEnum(["markdown", "text", "html"] as const)),
		extraction: outputEnum(["verbatim", "model"] as const),
		extractedAs: Type.Optional(
			outputEnum([
				"article",
				"listing",
				"collection",
				"documentation",
				"forum",
				"product",
				"service",
				"page-text",
			] as const),
		),
		truncated: Type.Boolean(),
		nextOffset: Type.Optional(Type.Integer({ minimum: 0 })),
		totalChars: Type.Optional(Type.Integer({ minimum: 0 })),
		crawledAt: Type.Optional(Type.String()),
		attempts: Type.Array(attempt),
		warnings: Type.Array(Type.String()),
		costUsd: Type.Optional(Type.Number()),
		latencyMs: Type.Number(),
		cached: Type.Optional(Type.Boolean()),
	},
	{ additionalProperties: false },
);

/** What web_search returns: its result, or (with isError) a failure. */
export const searchOutput = Type.Union([searchResultOutput, failureOutput]);

/** What web_fetch returns: its result, or (with isError) a failure. */
export const fetchOutput = Type.Union([fetchResultOutput, failureOutput]);

/** Both ways assignable. */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/**
 * The same shape: each side assignable to the other and the same keys. Assignability alone would miss a field that
 * is optional on one side and absent on the other.
 */
type SameShape<A, B> = Mutual<A, B> extends true ? Mutual<keyof A, keyof B> : false;
type SearchOutput = Static<typeof searchResultOutput>;

// Fails to compile when an output schema and the type it describes drift apart: a field added or removed on one
// side, retyped, or optional on one side only (test/tool-schemas.test.ts checks the same at run time).
const outputsMatchTheirTypes: [
	SameShape<SearchOutput, SearchResult>,
	SameShape<SearchOutput["results"][number], SearchResultItem>,
	SameShape<SearchOutput["attempts"][number], Attempt>,
	SameShape<Static<typeof fetchResultOutput>, FetchResult>,
	SameShape<Static<typeof failureOutput>, CallFailure>,
] = [true, true, true, true, true];
void outputsMatchTheirTypes;
