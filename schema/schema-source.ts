// Builds the config's JSON Schema from the common keys and each provider type's own options fragment, made for
// editors too: descriptions, defaults, per-value enum descriptions, examples, and per-type options by `type`
// (if/then, which VS Code's JSON service evaluates). `npm run schema` writes schema/pi-web-access.schema.json.

import { OUTPUT_DEFAULTS } from "../engine/limits.ts";
import { WALK_DEFAULTS } from "../executor/chain.ts";
import type { JsonSchema } from "../providers/contract.ts";
import { budget, keyExpression, keyPool, nameList, oneOfValues, policy, proxy, rule } from "./schema-defs.ts";
import { publishedSchemaUrl } from "./schema-ref.ts";
import { CHAIN_MARKDOWN } from "./schema-text.ts";
import { sourcesSchema } from "./sources-schema.ts";

/** What the schema needs to know about one provider type. */
export interface TypeFragment {
	type: string;
	description: string;
	optionsSchema: Record<string, JsonSchema>;
	required?: Array<"provider" | "model" | "baseUrl">;
	/** The type's own defaults for common keys, shown as `default` inside its branch. */
	defaults?: { baseUrl?: string; timeoutMs?: number; apiKey?: string };
}

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
				description: "The private-network guard of the direct and browser fetchers.",
				properties: {
					allowedRanges: {
						type: "array",
						items: { type: "string", pattern: "^[0-9a-fA-F:.]+/[0-9]{1,3}$", description: "A CIDR range." },
						default: [],
						description: 'CIDR ranges to allow anyway, e.g. "198.18.0.0/15" behind a TUN-mode proxy.',
						examples: [["198.18.0.0/15"]],
					},
					allowRanges: {
						type: "array",
						items: { type: "string", pattern: "^[0-9a-fA-F:.]+/[0-9]{1,3}$", description: "A CIDR range." },
						default: [],
						description:
							'CIDR ranges the direct and browser fetchers may reach although private, e.g. ["127.0.0.1/32"] or a TUN proxy\'s "198.18.0.0/15"; every other private address stays refused, cloud metadata addresses always (the same list as allowedRanges).',
						examples: [["127.0.0.1/32"], ["198.18.0.0/15"]],
					},
					allowPrivate: { type: "boolean", default: false, description: "true turns the guard off." },
				},
			},
			proxy: { $ref: "#/$defs/proxy" },
			sources: sourcesSchema(),
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
			store: {
				type: "object",
				additionalProperties: false,
				description:
					"A state store a team's machines share (spend, day budgets, cooldowns and key states by fingerprint; never keys). Absent: $PI_WEB_ACCESS_STORE_URL, else this machine's own store.",
				properties: {
					url: {
						type: "string",
						pattern: "^rediss?://\\S+$",
						description:
							"The team's Redis: redis://[:password@]host:port[/db], rediss:// for TLS. The password is never shown.",
						examples: ["redis://redis.internal:6379", "rediss://:password@redis.example.org:6380/0"],
					},
					cache: {
						type: "boolean",
						default: true,
						description:
							"Share search results and fetched pages through the team's Redis (an answer another machine got is reused; the same call running on two machines reaches the backend once). false: only spend, budgets, cooldowns and key states are shared; results stay on each machine.",
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
