// sub2api-codex: a gateway's Codex group, Responses web_search (providers/sub2api-codex/provider.ts).

import { OPENAI_VENDOR, vendorFacts } from "../model-vendors.ts";
import type { ProviderFacts } from "../type-facts.ts";

export default {
	type: "sub2api-codex",
	summary: "A gateway's Codex group: Responses web_search; fetch is model-written.",
	search: true,
	fetch: true,
	extraction: "model",
	...vendorFacts(OPENAI_VENDOR, true),
	cost: { basis: "per-request", usd: 0.01, source: "estimated" },
} satisfies ProviderFacts;
