// sub2api-grok: a gateway's Grok group, x_search / web_search (providers/sub2api-grok/provider.ts).

import { vendorFacts, XAI_VENDOR } from "../model-vendors.ts";
import type { ProviderFacts } from "../type-facts.ts";

export default {
	type: "sub2api-grok",
	summary: "A gateway's Grok group: x_search / web_search; the only type that searches and fetches X.",
	search: true,
	fetch: true,
	extraction: "model",
	...vendorFacts(XAI_VENDOR, true),
	cost: { basis: "reported", source: "docs/providers/xai.md" },
} satisfies ProviderFacts;
