// The static facts of the model-API vendors (Anthropic, OpenAI, xAI, Gemini) that their own types and their Sub2API
// gateway twins share: endpoint, default model, key sources and option schemas. Light on purpose: the types'
// facts modules import it, and the families reuse it for their calls.

import type { JsonSchema } from "./contract.ts";
import type { ProviderType } from "./type-facts.ts";

export const USER_LOCATION_SCHEMA: JsonSchema = {
	type: "object",
	additionalProperties: false,
	description:
		'Approximate user location for localised results, e.g. { "country": "US", "region": "Oregon", "city": "Portland", "timezone": "America/Los_Angeles" }; all optional (default none).',
	properties: {
		country: { type: "string", pattern: "^[A-Za-z]{2}$", description: "ISO 3166-1 alpha-2 country code." },
		region: { type: "string", minLength: 1, description: 'Region or state, e.g. "Oregon".' },
		city: { type: "string", minLength: 1, description: 'City, e.g. "Portland".' },
		timezone: { type: "string", minLength: 1, description: "IANA time zone, e.g. Europe/Berlin." },
	},
};

export const SEARCH_CONTEXT_SIZES = ["low", "medium", "high"] as const;

/** A vendor's own endpoint and defaults; the gateway twin has none of them. */
export interface ModelVendor {
	baseUrl: string;
	model: string;
	/** The env variable its key is in, and pi's provider id for it. */
	env: string;
	piProvider: string;
	/** A type-wide timeout (xAI's agentic searches are slow), for the gateway twin too. */
	timeoutMs?: number;
	options: Record<string, JsonSchema>;
	/** How the `model` option is described ("Model id", …). */
	modelHelp: string;
}

export const ANTHROPIC_VENDOR: ModelVendor = {
	baseUrl: "https://api.anthropic.com",
	model: "claude-sonnet-4-5",
	env: "ANTHROPIC_API_KEY",
	piProvider: "anthropic",
	options: {
		maxUses: {
			type: "integer",
			minimum: 1,
			maximum: 10,
			default: 3,
			description: "How many searches Claude may run for one call (1–10, default 3); each is billed.",
		},
		userLocation: USER_LOCATION_SCHEMA,
	},
	modelHelp: "Model id",
};

export const OPENAI_VENDOR: ModelVendor = {
	baseUrl: "https://api.openai.com/v1",
	model: "gpt-5-mini",
	env: "OPENAI_API_KEY",
	piProvider: "openai",
	options: {
		userLocation: USER_LOCATION_SCHEMA,
		searchContextSize: {
			enum: [...SEARCH_CONTEXT_SIZES],
			description:
				"How much page context web_search gives the model: low, medium or high (default: the backend's, medium).",
			enumDescriptions: ["Least context: fastest and cheapest.", "The backend's default.", "Most context: slowest."],
		},
	},
	modelHelp: "Model id sent to the Responses API",
};

export const XAI_VENDOR: ModelVendor = {
	baseUrl: "https://api.x.ai/v1",
	model: "grok-4.3",
	env: "XAI_API_KEY",
	piProvider: "xai",
	timeoutMs: 180_000,
	options: {
		enableImageUnderstanding: {
			type: "boolean",
			description: "Let Grok look at images in search results and X posts (default false; costs more tokens).",
		},
	},
	modelHelp: "Model id",
};

export const GEMINI_VENDOR = {
	baseUrl: "https://generativelanguage.googleapis.com/v1beta",
	/** Used when the config names no model. */
	model: "gemini-2.5-flash",
	timeoutMs: 60_000,
	env: "GEMINI_API_KEY",
	piProvider: "google",
} as const;

type VendorFacts = Pick<ProviderType, "credentials" | "options" | "required" | "defaults">;

/** The facts that differ between a vendor's own type and its gateway twin (which requires provider + model). */
export function vendorFacts(vendor: ModelVendor, gateway: boolean): VendorFacts {
	const timeout = vendor.timeoutMs === undefined ? {} : { timeoutMs: vendor.timeoutMs };
	if (gateway)
		return { credentials: "pi-provider", options: vendor.options, required: ["provider", "model"], defaults: timeout };
	const model: JsonSchema = {
		type: "string",
		minLength: 1,
		description: `${vendor.modelHelp} (default ${vendor.model}).`,
	};
	return {
		credentials: { env: vendor.env, piProvider: vendor.piProvider },
		options: { ...vendor.options, model },
		defaults: { baseUrl: vendor.baseUrl, ...timeout },
	};
}
