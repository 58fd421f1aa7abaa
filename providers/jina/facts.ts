// jina: Jina's s.jina.ai search and r.jina.ai reader (providers/jina/provider.ts).

import type { ProviderFacts } from "../type-facts.ts";

export default {
	type: "jina",
	summary: "Jina s.jina.ai search and r.jina.ai reader.",
	search: true,
	fetch: true,
	extraction: "verbatim",
	credentials: { env: "JINA_API_KEY" },
	cost: { basis: "per-request", usd: 0.001, source: "estimated" },
	zeroConfig: { order: 50, capabilities: ["search", "fetch"] },
	options: {
		searchBaseUrl: {
			type: "string",
			description:
				"Search host (default https://s.jina.ai); requests go to <searchBaseUrl>/?q=…. Overrides the provider's baseUrl for search.",
		},
		readerBaseUrl: {
			type: "string",
			description:
				"Reader host for web_fetch (default https://r.jina.ai); requests go to <readerBaseUrl>/<url>. Overrides the provider's baseUrl for fetch. A baseUrl alone is used for both.",
		},
	},
	defaults: { timeoutMs: 30_000 },
} satisfies ProviderFacts;
