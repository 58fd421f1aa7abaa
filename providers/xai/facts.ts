// xai: xAI's Responses API, x_search / web_search; fetch is model-written (providers/xai/provider.ts).

import { vendorFacts, XAI_VENDOR } from "../model-vendors.ts";
import type { ProviderFacts } from "../type-facts.ts";

export default {
	type: "xai",
	summary: "xAI Responses API: x_search / web_search; fetch is model-written.",
	search: true,
	fetch: true,
	extraction: "model",
	...vendorFacts(XAI_VENDOR, false),
	cost: { basis: "reported", source: "docs/providers/xai.md" },
} satisfies ProviderFacts;
