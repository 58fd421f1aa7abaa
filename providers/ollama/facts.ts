// ollama: Ollama's web_search and web_fetch API (providers/ollama/provider.ts).

import type { ProviderFacts } from "../type-facts.ts";

export default {
	type: "ollama",
	summary: "Ollama web_search and web_fetch API.",
	search: true,
	fetch: true,
	extraction: "verbatim",
	credentials: { env: "OLLAMA_API_KEY" },
	cost: { basis: "free" },
	zeroConfig: { order: 60, capabilities: ["search", "fetch"] },
	options: {},
	defaults: { baseUrl: "https://ollama.com", timeoutMs: 30_000 },
} satisfies ProviderFacts;
