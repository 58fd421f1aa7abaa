// deepseek: DeepSeek's Search and Fetch API, site:/after: operators in the query (providers/deepseek/provider.ts).

import type { ProviderFacts } from "../type-facts.ts";

export default {
	type: "deepseek",
	summary: "DeepSeek Search and Fetch API (site:/after: operators in the query).",
	search: true,
	fetch: true,
	extraction: "verbatim",
	credentials: { env: "DEEPSEEK_API_KEY", piProvider: "deepseek" },
	cost: { basis: "per-request", usd: 0.00075, source: "docs/providers/deepseek.md", emptyFree: true },
	zeroConfig: { order: 40, capabilities: ["search", "fetch"] },
	options: {},
	defaults: { baseUrl: "https://api.deepseek.com", timeoutMs: 30_000 },
} satisfies ProviderFacts;
