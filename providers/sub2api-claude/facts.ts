// sub2api-claude: a gateway's Claude group, Messages web_search / web_fetch (providers/sub2api-claude/provider.ts).

import { claudeCannotServe } from "../anthropic/facts.ts";
import { ANTHROPIC_VENDOR, vendorFacts } from "../model-vendors.ts";
import type { ProviderFacts } from "../type-facts.ts";

export default {
	type: "sub2api-claude",
	summary: "A gateway's Claude group: Messages web_search and web_fetch (verbatim).",
	search: true,
	fetch: true,
	extraction: "verbatim",
	...vendorFacts(ANTHROPIC_VENDOR, true),
	cost: { basis: "per-request", usd: 0.01, source: "estimated" },
	cannotServe: claudeCannotServe,
} satisfies ProviderFacts;
