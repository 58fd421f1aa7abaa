// A test-only provider type ("scrape", shaped like Firecrawl's /v1/search and /v1/scrape), described the way every
// built-in type is (providers/type-facts.ts). test/registry-extension.test.ts registers it and checks that the
// schema, zero-config, readiness, the fault matrix and the key-leak run pick it up with no other edit.

import type { ProviderFacts } from "../../../providers/type-facts.ts";

export default {
	type: "scrape",
	summary: "Test-only: a scraping API with /v1/search and /v1/scrape.",
	search: true,
	fetch: true,
	extraction: "verbatim",
	credentials: { env: "SCRAPE_API_KEY" },
	cost: { basis: "per-request", usd: 0.002, source: "estimated" },
	// Its scraper cannot read archives: the planner skips it for them before any key is looked up.
	cannotServe: (request) =>
		request.kind === "fetch" && /\.zip$/i.test(request.url) ? "cannot fetch archives" : undefined,
	zeroConfig: { order: 55, capabilities: ["search", "fetch"] },
	options: {
		onlyMainContent: { type: "boolean", description: "Scrape only the page's main content (default true)." },
	},
	defaults: { baseUrl: "https://scrape.invalid", timeoutMs: 30_000 },
} satisfies ProviderFacts;
