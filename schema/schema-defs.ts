// The config schema's shared definitions ($defs and their parts): key expressions and pools, budgets, the
// fallback policy, proxies, site rules and provider-name lists, plus the enum-with-descriptions helper.
// schema/schema-source.ts assembles them with the per-type fragments into the whole schema.

import { ERROR_CLASSES } from "../engine/error-classes.ts";
import { NAMED_RECENCIES } from "../engine/recency.ts";
import { CACHE_DEFAULTS } from "../executor/cache.ts";
import { WALK_DEFAULTS } from "../executor/chain.ts";
import { HEALTH_DEFAULTS } from "../executor/health.ts";
import type { JsonSchema } from "../providers/contract.ts";
import {
	ERROR_CLASS_TEXT,
	KEY_EXPRESSION_EXAMPLES,
	KEY_EXPRESSION_MARKDOWN,
	KEY_EXPRESSION_TEXT,
	KEY_POOL_MARKDOWN,
	SITE_PATTERN_EXAMPLES,
	SITE_PATTERN_MARKDOWN,
	SITE_PATTERN_TEXT,
} from "./schema-text.ts";

/** An enum with a description per value (VS Code shows them in completion and hover). */
export function oneOfValues(values: Record<string, string>, extra: JsonSchema = {}): JsonSchema {
	return { enum: Object.keys(values), enumDescriptions: Object.values(values), ...extra };
}

export const keyExpression: JsonSchema = {
	type: "string",
	minLength: 1,
	description: KEY_EXPRESSION_TEXT,
	markdownDescription: KEY_EXPRESSION_MARKDOWN,
	examples: KEY_EXPRESSION_EXAMPLES,
};

export const keyPool: JsonSchema = {
	description: "One key expression, or a key pool: a list of expressions or of { key, billing, label }.",
	markdownDescription: KEY_POOL_MARKDOWN,
	examples: ["$EXA_API_KEY", ["$EXA_KEY_1", "$EXA_KEY_2"]],
	anyOf: [
		{ $ref: "#/$defs/keyExpression" },
		{
			type: "array",
			minItems: 1,
			items: {
				anyOf: [
					{ $ref: "#/$defs/keyExpression" },
					{
						type: "object",
						required: ["key"],
						additionalProperties: false,
						properties: {
							key: { $ref: "#/$defs/keyExpression" },
							billing: oneOfValues(
								{
									postpaid: "Billed per request: used after subscription keys where the backend prefers those.",
									subscription: "A plan's included quota: tried first by Doubao.",
								},
								{ description: "How this key is billed (Doubao orders keys by it)." },
							),
							label: {
								type: "string",
								minLength: 1,
								description: "Shown instead of the key in status and attempts (default key1, key2, …).",
								examples: ["plan", "postpaid"],
							},
						},
					},
				],
			},
		},
	],
};

export const budget: JsonSchema = {
	type: "object",
	additionalProperties: false,
	description: "Spend limits in USD: a paid provider is skipped once today's (UTC) or this call's spend reaches them.",
	properties: {
		usdPerDay: { type: "number", minimum: 0, description: "Spend per UTC day (persisted across restarts)." },
		usdPerCall: { type: "number", minimum: 0, description: "Spend per tool call (all attempts of the call)." },
	},
};

export const policy: JsonSchema = {
	type: "object",
	additionalProperties: false,
	description: "Fallback policy. Top level, overridable per rule (a rule's keys replace the top level's one by one).",
	examples: [{ onEmpty: "next-if-filtered", maxAttempts: 6, hedgeAfterMs: 4000 }],
	properties: {
		onEmpty: oneOfValues(
			{
				next: "Try the next step after any empty result.",
				stop: "An empty result is the answer.",
				"next-if-filtered": "Try the next step only for a domain-restricted search (a backend may not know the site).",
			},
			{ description: "What an empty result does.", default: "next-if-filtered" },
		),
		maxAttempts: {
			type: "integer",
			minimum: 1,
			maximum: 20,
			default: WALK_DEFAULTS.maxAttempts,
			description: "Real attempts (requests to backends) per call, hedged ones included.",
		},
		hedgeAfterMs: {
			type: "integer",
			minimum: 0,
			maximum: 600000,
			description:
				"Start the next step too when the running one has not answered after this many ms; the first good answer wins. Unset: no hedging.",
			examples: [4000],
		},
		fallbackOn: {
			type: "array",
			// The list is engine/errors.ts's; the texts only describe it.
			items: oneOfValues(Object.fromEntries(ERROR_CLASSES.map((c) => [c, ERROR_CLASS_TEXT[c]])), {
				description: "An error class.",
			}),
			uniqueItems: true,
			description: "Only these error classes move on to the next step (default: all but cancelled).",
			examples: [["timeout", "rate-limit", "server"]],
		},
		cooldown: {
			description: "false disables provider cooldowns; otherwise base and cap of the exponential cooldown.",
			default: { baseMs: HEALTH_DEFAULTS.baseMs, maxMs: HEALTH_DEFAULTS.maxMs },
			anyOf: [
				{ const: false, description: "No cooldowns: a failing provider is tried again at once." },
				{
					type: "object",
					additionalProperties: false,
					properties: {
						baseMs: {
							type: "integer",
							minimum: 0,
							maximum: 3600000,
							default: HEALTH_DEFAULTS.baseMs,
							description: "First cooldown after a failure, in ms; doubles with each further failure.",
						},
						maxMs: {
							type: "integer",
							minimum: 0,
							maximum: 3600000,
							default: HEALTH_DEFAULTS.maxMs,
							description: "Longest cooldown, in ms.",
						},
					},
				},
			],
		},
		cacheTtlMs: {
			type: "integer",
			minimum: 0,
			maximum: 86400000,
			description: `Cache successful results this long, in ms (default ${CACHE_DEFAULTS.searchTtlMs} for search, ${CACHE_DEFAULTS.fetchTtlMs} for fetch; 0 disables).`,
		},
		budget: { $ref: "#/$defs/budget" },
	},
};

export const nameList: JsonSchema = {
	type: "array",
	items: { type: "string", minLength: 1, description: "A provider name from `providers`." },
};

export const proxy: JsonSchema = {
	type: "string",
	pattern: "^(none|https?://\\S+)$",
	description:
		'"none" (connect directly, whatever HTTPS_PROXY says) or a proxy URL, http://[user:password@]host:port; without it HTTPS_PROXY / HTTP_PROXY / NO_PROXY apply.',
	examples: ["http://proxy.example.org:3128", "none"],
};

export const rule: JsonSchema = {
	type: "object",
	additionalProperties: false,
	description:
		"A site rule: conditions are AND-ed; the first matching rule with a chain for the capability at hand wins.",
	examples: [{ name: "Go", sites: ["go.dev", "github.com/golang"], search: ["exa"] }],
	properties: {
		name: { type: "string", minLength: 1, description: "Shown in explain, status and attempts.", examples: ["X"] },
		sites: {
			type: "array",
			items: {
				type: "string",
				description: SITE_PATTERN_TEXT,
				markdownDescription: SITE_PATTERN_MARKDOWN,
				examples: SITE_PATTERN_EXAMPLES.map(([p]) => p),
			},
			description: `Holds when the call is about one of these sites (search: its domain filters; fetch: the URL). ${SITE_PATTERN_TEXT}`,
			markdownDescription: `Holds when the call is about one of these sites (search: its domain filters; fetch: the URL).\n\n${SITE_PATTERN_MARKDOWN}`,
			examples: [["x.com"], [".cn", "zhihu.com"]],
		},
		queryScript: {
			type: "array",
			items: { type: "string", minLength: 1, description: "A Unicode script name.", examples: ["Han", "Cyrillic"] },
			description: 'Holds when the query contains letters of one of these Unicode scripts, e.g. ["Han"].',
			examples: [["Han"], ["Hiragana", "Katakana"]],
		},
		fileTypes: {
			type: "array",
			items: { type: "string", minLength: 1, description: "A file extension without the dot.", examples: ["pdf"] },
			description: 'Fetch only: holds when the URL path ends in one of these extensions, e.g. ["pdf"].',
			examples: [["pdf"]],
		},
		recency: {
			type: "array",
			items: oneOfValues(
				{
					...Object.fromEntries(NAMED_RECENCIES.map((r) => [r, `The past ${r}.`])),
					range: "An explicit date range (YYYY-MM-DD..YYYY-MM-DD).",
				},
				{ description: "A recency the call can ask for." },
			),
			description: "Holds when the call asks for one of these recencies.",
			examples: [["day", "week"]],
		},
		search: { ...nameList, description: "Search chain for calls this rule matches.", examples: [["exa"]] },
		fetch: { ...nameList, description: "Fetch chain for calls this rule matches.", examples: [["direct"]] },
		policy: { $ref: "#/$defs/policy" },
	},
};
