// Tool parameter and output schemas (typebox). The output schemas describe exactly the executor's result
// shapes (engine/types.ts SearchResult / FetchResult); tests check real results against them with Value.Check.

import { StringEnum } from "@earendil-works/pi-ai";
import { Type } from "typebox";
import { NAMED_RECENCIES, RECENCY_WORDING } from "../engine/recency.ts";
import { REQUEST_LIMITS } from "../engine/requests.ts";

const thousands = (n: number) => n.toLocaleString("en-US");

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
	provider: Type.Optional(
		Type.String({
			description: "A configured provider name; only that provider is tried. Use it only when the user names one.",
		}),
	),
});

const attempt = Type.Object({
	provider: Type.String(),
	outcome: StringEnum(["ok", "empty", "error", "skipped"] as const),
	reason: Type.Optional(Type.String()),
	latencyMs: Type.Optional(Type.Number()),
	key: Type.Optional(Type.String()),
});

const resultItem = Type.Object({
	title: Type.String(),
	url: Type.String(),
	snippet: Type.String(),
	content: Type.Optional(Type.String()),
	publishedAt: Type.Optional(Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" })),
	score: Type.Optional(Type.Number()),
});

export const searchOutput = Type.Object(
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

export const fetchOutput = Type.Object(
	{
		provider: Type.String(),
		url: Type.String(),
		finalUrl: Type.Optional(Type.String()),
		title: Type.Optional(Type.String()),
		content: Type.String(),
		extraction: StringEnum(["verbatim", "model"] as const),
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
