// openai: the Responses API with the hosted web_search tool; fetch is model-written (providers/openai/provider.ts).

import { OPENAI_VENDOR, vendorFacts } from "../model-vendors.ts";
import type { ProviderFacts } from "../type-facts.ts";

export default {
	type: "openai",
	summary: "OpenAI Responses API with the web_search tool; fetch is model-written.",
	search: true,
	fetch: true,
	extraction: "model",
	...vendorFacts(OPENAI_VENDOR, false),
	cost: { basis: "per-request", usd: 0.01, source: "estimated" },
} satisfies ProviderFacts;
