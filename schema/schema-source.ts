// Builds the config's JSON Schema from the common keys and each provider type's own options fragment, made for
// editors too: descriptions, defaults, per-value enum descriptions, examples, and per-type options by `type`
// (if/then, which VS Code's JSON service evaluates). `npm run schema` writes schema/pi-web-access.schema.json.

import { ERROR_CLASSES } from "../engine/error-classes.ts";
import { OUTPUT_DEFAULTS } from "../engine/limits.ts";
import { NAMED_RECENCIES } from "../engine/recency.ts";
import { CACHE_DEFAULTS } from "../executor/cache.ts";
import { WALK_DEFAULTS } from "../executor/chain.ts";
import { HEALTH_DEFAULTS } from "../executor/health.ts";
import type { JsonSchema } from "../providers/contract.ts";
import { publishedSchemaUrl } from "./schema-ref.ts";
import {
	CHAIN_MARKDOWN,
	ERROR_CLASS_TEXT,
	KEY_EXPRESSION_EXAMPLES,
	KEY_EXPRESSION_MARKDOWN,
	KEY_EXPRESSION_TEXT,
	KEY_POOL_MARKDOWN,
	SITE_PATTERN_EXAMPLES,
	SITE_PATTERN_MARKDOWN,
	SITE_PATTERN_TEXT,
} from "./schema-text.ts";

/** What the schema needs to know about one provider type. */
export interface TypeFragment {
	type: string;
	description: string;
	optionsSchema: Record<string, JsonSchema>;
	required?: Array<"provider" | "model" | "baseUrl">;
	/** The type's own defaults for common keys, shown as `default` inside its branch. */
	defaults?: { baseUrl?: string; timeoutMs?: number; apiKey?: string };
}

/** An enum with a description per value (VS Code shows them in completion and hover). */
function oneOfValues(values: Record<string, string>, extra: JsonSchema = {}): JsonSchema {
	return { enum: Object.keys(values), enumDescriptions: Object.values(values), ...extra };
}

const keyExpression: JsonSchema = {
	type: "string",
	minLength: 1,
	description: KEY_EXPRESSION_TEXT,
	markdownDescription: KEY_EXPRESSION_MARKDOWN,
	examples: KEY_EXPRESSION_EXAMPLES,
};

const keyPool: JsonSchema = {
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

const budget: JsonSchema = {
	type: "object",
	additionalProperties: false,
	description: "Spend limits in USD: a paid provider is skipped once today's (UTC) or this call's spend reaches them.",
	properties: {
		usdPerDay: { type: "number", minimum: 0, description: "Spend per UTC day (persisted across restarts)." },
		usdPerCall: { type: "number", minimum: 0, description: "Spend per tool call (all attempts of the call)." },
	},
};

const policy: JsonSchema = {
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

const nameList: JsonSchema = {
	type: "array",
	items: { type: "string", minLength: 1, description: "A provider name from `providers`." },
};

const proxy: JsonSchema = {
	type: "string",
	pattern: "^(none|https?://\\S+)$",
	description:
		'"none" (connect directly, whatever HTTPS_PROXY says) or a proxy URL, http://[user:password@]host:port; without it HTTPS_PROXY / HTTP_PROXY / NO_PROXY apply.',
	examples: ["http://proxy.example.org:3128", "none"],
};

const rule: JsonSchema = {
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

function toolSettings(name: string): JsonSchema {
	return {
		type: "object",
		additionalProperties: false,
		description: `How the ${name} tool is registered in pi.`,
		properties: {
			name: {
				type: "string",
				pattern: "^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$",
				default: name,
				description: "Register the tool under this name (when another extension already has it).",
			},
			enabled: { type: "boolean", default: true, description: "false: do not register the tool." },
		},
	};
}

const commonProviderProperties: Record<string, JsonSchema> = {
	type: { type: "string", description: "The provider type." },
	provider: {
		type: "string",
		minLength: 1,
		description: "pi provider (models.json / auth.json id) whose key, headers and base URL are reused.",
		examples: ["deepseek", "gateway-grok"],
	},
	model: { type: "string", minLength: 1, description: "Model id sent to the backend.", examples: ["grok-4"] },
	apiKey: { $ref: "#/$defs/keyPool" },
	baseUrl: {
		type: "string",
		pattern: "^https?://",
		description: "Overrides the endpoint base (a proxy, a self-hosted instance).",
		examples: ["https://search.example.org"],
	},
	timeoutMs: {
		type: "integer",
		minimum: 1000,
		maximum: 600000,
		description: `Per-attempt timeout in ms (default: the type's own, else ${WALK_DEFAULTS.timeoutMs}).`,
	},
	headers: {
		type: "object",
		additionalProperties: { type: "string", description: "Header value." },
		description: "Extra HTTP headers sent with every request.",
		examples: [{ "X-Team": "docs" }],
	},
	proxy: { $ref: "#/$defs/proxy" },
	budget: { $ref: "#/$defs/budget" },
	paid: oneOfValues(
		{
			explicit: "Use this provider only when a call names it (provider) or a rule lists it, never in a default chain.",
		},
		{ description: "How a paid provider may be used." },
	),
};

/** The type's own defaults for common keys, as `default`s inside its if/then branch. */
function typeDefaults(t: TypeFragment): Record<string, JsonSchema> {
	const out: Record<string, JsonSchema> = {};
	for (const key of ["baseUrl", "timeoutMs", "apiKey"] as const) {
		const value = t.defaults?.[key];
		if (value !== undefined) out[key] = { default: value };
	}
	return out;
}

/** The whole config schema; per-type options are checked with if/then and unevaluatedProperties. */
export function buildConfigSchema(types: TypeFragment[], version: string): JsonSchema {
	const sorted = [...types].sort((a, b) => a.type.localeCompare(b.type));
	const perType: JsonSchema[] = sorted.map((t) => {
		const then: JsonSchema = { properties: { ...typeDefaults(t), ...t.optionsSchema } };
		if (t.required && t.required.length > 0) then.required = [...t.required];
		return { if: { properties: { type: { const: t.type } }, required: ["type"] }, then };
	});
	return {
		$schema: "https://json-schema.org/draft/2020-12/schema",
		$id: publishedSchemaUrl(version),
		title: "pi-web-access configuration",
		description:
			"Providers, default search/fetch chains and site rules for pi-web-access. Model-mediated fetches (extraction: model) are slow and a model's rendition of the page.",
		type: "object",
		additionalProperties: false,
		properties: {
			$schema: {
				type: "string",
				description:
					"The schema editors check this file against; `pi-web-access init` writes one that resolves on this machine.",
			},
			providers: {
				type: "object",
				description: "Configured providers by name (non-empty, no whitespace); each has a type and its options.",
				examples: [{ exa: { type: "exa", apiKey: "$EXA_API_KEY" }, direct: { type: "direct" } }],
				propertyNames: { pattern: "^\\S+$" },
				additionalProperties: { $ref: "#/$defs/provider" },
			},
			search: {
				...nameList,
				description: "Default search chain (default: every provider able to search).",
				markdownDescription: CHAIN_MARKDOWN("search"),
				examples: [["exa", "deepseek"]],
			},
			fetch: {
				...nameList,
				description: "Default fetch chain (default: every provider able to fetch).",
				markdownDescription: CHAIN_MARKDOWN("fetch"),
				examples: [["exa", "direct"]],
			},
			rules: {
				type: "array",
				description: "Site rules, tried in order; the first that matches and has a chain for the capability wins.",
				items: { $ref: "#/$defs/rule" },
			},
			policy: { $ref: "#/$defs/policy" },
			tools: {
				type: "object",
				additionalProperties: false,
				description: "Renames or disables the two tools.",
				properties: { web_search: toolSettings("web_search"), web_fetch: toolSettings("web_fetch") },
			},
			output: {
				type: "object",
				additionalProperties: false,
				description: "What the model is shown.",
				properties: {
					maxChars: {
						type: "integer",
						minimum: 1000,
						maximum: 1000000,
						default: OUTPUT_DEFAULTS.maxChars,
						description: "Cap on the model-facing text of one call, with a note on how to get the rest.",
					},
				},
			},
			fetchGuard: {
				type: "object",
				additionalProperties: false,
				description: "The direct fetcher's private-network guard.",
				properties: {
					allowedRanges: {
						type: "array",
						items: { type: "string", pattern: "^[0-9a-fA-F:.]+/[0-9]{1,3}$", description: "A CIDR range." },
						default: [],
						description: 'CIDR ranges to allow anyway, e.g. "198.18.0.0/15" behind a TUN-mode proxy.',
						examples: [["198.18.0.0/15"]],
					},
					allowPrivate: { type: "boolean", default: false, description: "true turns the guard off." },
				},
			},
			proxy: { $ref: "#/$defs/proxy" },
			trustProjectConfig: {
				type: "boolean",
				description:
					"Global file only: let a trusted project's .pi/pi-web-access.json also add providers and set baseUrl, apiKey, headers, proxy and fetchGuard (default false).",
			},
			state: {
				type: "object",
				additionalProperties: false,
				description: "Health state kept in <agentDir>/pi-web-access.state.json (fingerprints, never keys).",
				properties: {
					persist: {
						type: "boolean",
						default: true,
						description: "Save cooldowns and exhausted keys across restarts.",
					},
				},
			},
		},
		$defs: {
			keyExpression,
			keyPool,
			budget,
			policy,
			proxy,
			rule,
			provider: {
				type: "object",
				required: ["type"],
				description: "A provider: its type picks the backend and which options it takes.",
				properties: {
					...commonProviderProperties,
					type: {
						type: "string",
						description: "The provider type: which backend answers, and which options the provider takes.",
						...oneOfValues(Object.fromEntries(sorted.map((t) => [t.type, t.description]))),
					},
				},
				allOf: perType,
				unevaluatedProperties: false,
			},
		},
	};
}
