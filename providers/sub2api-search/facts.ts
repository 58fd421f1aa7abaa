// sub2api-search: Codex standalone search (/v1/alpha/search) through a gateway (providers/sub2api-search/provider.ts).

import { USER_LOCATION_SCHEMA } from "../model-vendors.ts";
import type { ProviderFacts } from "../type-facts.ts";

export default {
	type: "sub2api-search",
	summary: "Codex standalone search (/v1/alpha/search): structured results; open for verbatim fetch.",
	search: true,
	fetch: true,
	extraction: "verbatim",
	credentials: "pi-provider",
	cost: { basis: "per-request", usd: 0.01, source: "estimated" },
	options: { userLocation: USER_LOCATION_SCHEMA },
	required: ["provider", "model"],
	defaults: { timeoutMs: 60_000 },
} satisfies ProviderFacts;
