// brave: the Brave Search API, search only (providers/brave/provider.ts).

import type { ProviderFacts } from "../type-facts.ts";

export const SAFESEARCH = ["off", "moderate", "strict"] as const;

export default {
	type: "brave",
	summary: "Brave Search API (X-Subscription-Token).",
	search: true,
	fetch: false,
	credentials: { env: "BRAVE_API_KEY" },
	cost: { basis: "per-request", usd: 0.005, source: "estimated" },
	zeroConfig: { order: 30, capabilities: ["search"] },
	options: {
		country: {
			type: "string",
			description: 'Brave `country`: two-letter country code the results come from (e.g. "us", "de").',
		},
		searchLang: {
			type: "string",
			description: 'Brave `search_lang`: language of the results (e.g. "en", "zh-hans").',
		},
		safesearch: {
			type: "string",
			enum: [...SAFESEARCH],
			description: "Brave safesearch level; unset = Brave's default (moderate).",
			enumDescriptions: ["No filtering.", "Filters explicit content (Brave's default).", "Filters all adult content."],
		},
	},
	defaults: { baseUrl: "https://api.search.brave.com", timeoutMs: 20_000 },
} satisfies ProviderFacts;
