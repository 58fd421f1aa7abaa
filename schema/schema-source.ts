// Builds the config's JSON Schema from the common keys and each provider type's own options fragment.
// `npm run schema` writes the result to schema/pi-web-access.schema.json; a test keeps the two in sync.

import type { JsonSchema } from "../engine/types.ts";

/** What the schema needs to know about one provider type. */
export interface TypeFragment {
	type: string;
	description: string;
	optionsSchema: Record<string, JsonSchema>;
	required?: Array<"provider" | "model" | "baseUrl">;
}

const ERROR_CLASSES = [
	"transport",
	"timeout",
	"rate-limit",
	"quota",
	"auth",
	"server",
	"bad-request",
	"parse",
	"cancelled",
];

const keyExpression: JsonSchema = {
	type: "string",
	minLength: 1,
	description:
		"A key expression: a literal key, $NAME or ${NAME} (environment variable), !command (trimmed output of a shell command, run once on first use), $$ for a literal $, $! for a literal leading !.",
};

const keyPool: JsonSchema = {
	description: "One key expression, or a key pool: a list of expressions or of { key, billing, label }.",
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
							billing: { enum: ["postpaid", "subscription"], description: "How this key is billed (Doubao)." },
							label: { type: "string", minLength: 1, description: "Shown instead of the key in status and attempts." },
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
	description: "Fallback policy. Top level, overridable per rule.",
	properties: {
		onEmpty: {
			enum: ["next", "stop", "next-if-filtered"],
			description:
				"What an empty result does: next-if-filtered (default) tries the next step only for a domain-restricted search.",
		},
		maxAttempts: { type: "integer", minimum: 1, maximum: 20, description: "Real attempts per call (default 6)." },
		hedgeAfterMs: {
			type: "integer",
			minimum: 0,
			maximum: 600000,
			description: "Start the next step too when the running one has not answered after this many ms.",
		},
		fallbackOn: {
			type: "array",
			items: { enum: ERROR_CLASSES },
			uniqueItems: true,
			description: "Only these error classes move on to the next step (default: all but cancelled).",
		},
		cooldown: {
			description: "false disables provider cooldowns; otherwise base and cap of the exponential cooldown.",
			anyOf: [
				{ const: false },
				{
					type: "object",
					additionalProperties: false,
					properties: {
						baseMs: { type: "integer", minimum: 0, maximum: 3600000 },
						maxMs: { type: "integer", minimum: 0, maximum: 3600000 },
					},
				},
			],
		},
		cacheTtlMs: {
			type: "integer",
			minimum: 0,
			maximum: 86400000,
			description: "Cache successful results this long (default 5 min search, 15 min fetch; 0 disables).",
		},
		budget: { $ref: "#/$defs/budget" },
	},
};

const nameList: JsonSchema = { type: "array", items: { type: "string", minLength: 1 } };

const rule: JsonSchema = {
	type: "object",
	additionalProperties: false,
	description: "A site rule: conditions are AND-ed; the first matching rule with a chain for the capability wins.",
	properties: {
		name: { type: "string", minLength: 1 },
		sites: {
			type: "array",
			items: { type: "string" },
			description: "Site patterns: github.com, .cn, *.github.io, =docs.python.org, google.*, github.com/golang, x.com",
		},
		queryScript: {
			type: "array",
			items: { type: "string", minLength: 1 },
			description: 'Holds when the query contains letters of one of these Unicode scripts, e.g. ["Han"].',
		},
		fileTypes: {
			type: "array",
			items: { type: "string", minLength: 1 },
			description: 'Fetch only: holds when the URL path ends in one of these extensions, e.g. ["pdf"].',
		},
		recency: {
			type: "array",
			items: { enum: ["day", "week", "month", "year", "range"] },
			description: "Holds when the call asks for one of these recencies (range: a date range).",
		},
		search: { ...nameList, description: "Search chain for calls this rule matches." },
		fetch: { ...nameList, description: "Fetch chain for calls this rule matches." },
		policy: { $ref: "#/$defs/policy" },
	},
};

const toolSettings: JsonSchema = {
	type: "object",
	additionalProperties: false,
	properties: {
		name: {
			type: "string",
			pattern: "^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$",
			description: "Register the tool under this name.",
		},
		enabled: { type: "boolean", description: "false: do not register the tool." },
	},
};

const commonProviderProperties: Record<string, JsonSchema> = {
	type: { type: "string", description: "The provider type." },
	provider: { type: "string", minLength: 1, description: "pi provider whose key, headers and base URL are reused." },
	model: { type: "string", minLength: 1, description: "Model id sent to the backend." },
	apiKey: { $ref: "#/$defs/keyPool" },
	baseUrl: { type: "string", pattern: "^https?://", description: "Overrides the endpoint base." },
	timeoutMs: { type: "integer", minimum: 1000, maximum: 600000, description: "Per-attempt timeout." },
	headers: { type: "object", additionalProperties: { type: "string" }, description: "Extra HTTP headers." },
	budget: { $ref: "#/$defs/budget" },
	paid: {
		enum: ["explicit"],
		description:
			"explicit: use this provider only when a call names it (provider) or a rule lists it, never in a default chain.",
	},
};

/** The whole config schema; per-type options are checked with if/then and unevaluatedProperties. */
export function buildConfigSchema(types: TypeFragment[]): JsonSchema {
	const sorted = [...types].sort((a, b) => a.type.localeCompare(b.type));
	const perType: JsonSchema[] = sorted.map((t) => {
		const then: JsonSchema = { properties: t.optionsSchema };
		if (t.required && t.required.length > 0) then.required = [...t.required];
		return { if: { properties: { type: { const: t.type } }, required: ["type"] }, then };
	});
	return {
		$schema: "https://json-schema.org/draft/2020-12/schema",
		$id: "https://github.com/pi-web-access/pi-web-access-router/schema/pi-web-access.schema.json",
		title: "pi-web-access configuration",
		description:
			"Providers, default search/fetch chains and site rules for pi-web-access. Model-mediated fetches (extraction: model) are slow and a model's rendition of the page.",
		type: "object",
		additionalProperties: false,
		properties: {
			$schema: { type: "string" },
			providers: {
				type: "object",
				description: "Configured providers by name (non-empty, no whitespace).",
				propertyNames: { pattern: "^\\S+$" },
				additionalProperties: { $ref: "#/$defs/provider" },
			},
			search: { ...nameList, description: "Default search chain (default: every provider able to search)." },
			fetch: { ...nameList, description: "Default fetch chain (default: every provider able to fetch)." },
			rules: { type: "array", items: { $ref: "#/$defs/rule" } },
			policy: { $ref: "#/$defs/policy" },
			tools: {
				type: "object",
				additionalProperties: false,
				properties: { web_search: toolSettings, web_fetch: toolSettings },
			},
			output: {
				type: "object",
				additionalProperties: false,
				properties: {
					maxChars: { type: "integer", minimum: 1000, maximum: 1000000, description: "Model-facing text cap (30000)." },
				},
			},
			fetchGuard: {
				type: "object",
				additionalProperties: false,
				description: "The direct fetcher's private-network guard.",
				properties: {
					allowedRanges: {
						type: "array",
						items: { type: "string", pattern: "^[0-9a-fA-F:.]+/[0-9]{1,3}$" },
						description: 'CIDR ranges to allow anyway, e.g. "198.18.0.0/15" behind a TUN-mode proxy.',
					},
					allowPrivate: { type: "boolean", description: "true turns the guard off." },
				},
			},
			trustProjectConfig: {
				type: "boolean",
				description:
					"Global file only: let a trusted project's .pi/pi-web-access.json also add providers and set baseUrl, apiKey, headers, proxy and fetchGuard (default false).",
			},
			state: {
				type: "object",
				additionalProperties: false,
				properties: {
					persist: { type: "boolean", description: "Save cooldowns and exhausted keys across restarts (true)." },
				},
			},
		},
		$defs: {
			keyExpression: keyExpression,
			keyPool,
			budget,
			policy,
			rule,
			provider: {
				type: "object",
				required: ["type"],
				properties: {
					...commonProviderProperties,
					type: {
						type: "string",
						enum: sorted.map((t) => t.type),
						description: sorted.map((t) => `${t.type}: ${t.description}`).join("\n"),
					},
				},
				allOf: perType,
				unevaluatedProperties: false,
			},
		},
	};
}
