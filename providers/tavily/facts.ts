// tavily: Tavily's /search and /extract (providers/tavily/provider.ts).

import type { ProviderFacts } from "../type-facts.ts";

export const TAVILY_SEARCH_DEPTHS = ["basic", "advanced", "fast", "ultra-fast"] as const;
export const TAVILY_TOPICS = ["general", "news", "finance"] as const;
export const TAVILY_EXTRACT_DEPTHS = ["basic", "advanced"] as const;

export default {
	type: "tavily",
	summary: "Tavily /search and /extract.",
	search: true,
	fetch: true,
	extraction: "verbatim",
	credentials: { env: "TAVILY_API_KEY" },
	cost: { basis: "per-request", usd: 0.008, source: "estimated" },
	zeroConfig: { order: 20, capabilities: ["search", "fetch"] },
	options: {
		searchDepth: {
			type: "string",
			enum: [...TAVILY_SEARCH_DEPTHS],
			default: "basic",
			description:
				"Tavily search_depth: basic (1 credit, default), advanced (2 credits, better snippets), fast, ultra-fast.",
			enumDescriptions: [
				"1 credit (default).",
				"2 credits: more relevant snippets.",
				"Lower latency.",
				"Lowest latency.",
			],
		},
		topic: {
			type: "string",
			enum: [...TAVILY_TOPICS],
			default: "general",
			description: "Tavily topic: general (default), news (adds published dates) or finance.",
			enumDescriptions: ["Any kind of page (default).", "News: results carry published dates.", "Finance."],
		},
		includeAnswer: {
			enum: [true, false, "basic", "advanced"],
			default: false,
			description:
				'Ask Tavily for a short generated answer (true = basic, or "advanced"); returned as the result\'s answer.',
			enumDescriptions: [
				"A basic answer.",
				"No answer (default).",
				"A basic answer.",
				"A longer, more thorough answer.",
			],
		},
		extractDepth: {
			type: "string",
			enum: [...TAVILY_EXTRACT_DEPTHS],
			default: "basic",
			description:
				"Tavily /extract depth for web_fetch: basic (default) or advanced (tables, embedded content; more credits).",
			enumDescriptions: ["Main text (default).", "Also tables and embedded content; more credits."],
		},
		country: {
			type: "string",
			description: 'Boost results from this country (Tavily country name, e.g. "germany"); general topic only.',
		},
	},
	defaults: { baseUrl: "https://api.tavily.com", timeoutMs: 30_000 },
} satisfies ProviderFacts;
