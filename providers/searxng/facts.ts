// searxng: a SearXNG instance's JSON API, keyless, baseUrl required (providers/searxng/provider.ts).

import type { ProviderFacts } from "../type-facts.ts";

export default {
	type: "searxng",
	summary: "A SearXNG instance's JSON API (no key; baseUrl required).",
	search: true,
	fetch: false,
	credentials: "none",
	cost: { basis: "free" },
	options: {
		categories: {
			type: "array",
			items: { type: "string" },
			description: "SearXNG categories to search (e.g. general, it, science, news). Default: the instance's.",
		},
		engines: {
			type: "array",
			items: { type: "string" },
			description: "Engines to ask (e.g. duckduckgo, brave, bing). Default: the instance's.",
		},
		language: {
			type: "string",
			description: "Search language code (e.g. en, de, zh-CN, all). Default: the instance's.",
		},
		safesearch: {
			type: "integer",
			enum: [0, 1, 2],
			description: "0 off, 1 moderate, 2 strict. Default: the instance's.",
			enumDescriptions: ["Off.", "Moderate.", "Strict."],
		},
		pageno: { type: "integer", minimum: 1, description: "Result page to request. Default: 1." },
	},
	required: ["baseUrl"],
	defaults: { timeoutMs: 15_000 },
} satisfies ProviderFacts;
