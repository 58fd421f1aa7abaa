// exa: Exa's /search (domain filters with paths, recency) and /contents (verbatim, PDFs) (providers/exa/provider.ts).

import type { ProviderFacts } from "../type-facts.ts";

/** Search types in Exa's current API reference; `auto` is Exa's own default. */
export const EXA_SEARCH_TYPES = ["auto", "fast", "instant", "neural", "deep-lite", "deep", "deep-reasoning"] as const;
export const EXA_CATEGORIES = [
	"company",
	"research paper",
	"news",
	"pdf",
	"github",
	"tweet",
	"personal site",
	"financial report",
	"people",
] as const;

export default {
	type: "exa",
	summary: "Exa /search (domain filters with paths, recency) and /contents (verbatim, PDFs).",
	search: true,
	fetch: true,
	extraction: "verbatim",
	credentials: { env: "EXA_API_KEY" },
	cost: { basis: "reported", usd: 0.005, source: "docs/providers/exa.md" },
	zeroConfig: { order: 10, capabilities: ["search", "fetch"] },
	options: {
		searchType: {
			type: "string",
			enum: [...EXA_SEARCH_TYPES],
			default: "auto",
			description:
				"Exa search type: auto (default) picks per query; fast/instant trade quality for latency; deep* are slower and dearer.",
			enumDescriptions: [
				"Exa picks per query (default).",
				"Lower latency, somewhat lower quality.",
				"Lowest latency.",
				"Embedding-based search, for descriptive queries.",
				"The lightest deep search: slower and dearer than auto.",
				"Deep search: slower and dearer.",
				"Deep search with reasoning: the slowest and dearest.",
			],
		},
		category: {
			type: "string",
			enum: [...EXA_CATEGORIES],
			description:
				'Exa data category to focus on (e.g. "news", "research paper"); company/people accept fewer filters.',
			enumDescriptions: [
				"Company pages (fewer filters accepted).",
				"Academic papers.",
				"News articles.",
				"PDF documents.",
				"GitHub repositories and pages.",
				"Posts on X/Twitter.",
				"Personal sites and blogs.",
				"Financial reports and filings.",
				"People's profiles (fewer filters accepted).",
			],
		},
		maxAgeHours: {
			type: "integer",
			minimum: -1,
			description:
				"Oldest cached page Exa may return, in hours: 0 always crawls live, -1 only uses the cache; unset = Exa's default.",
		},
	},
	defaults: { baseUrl: "https://api.exa.ai", timeoutMs: 30_000 },
} satisfies ProviderFacts;
