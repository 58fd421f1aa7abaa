// gemini: generateContent with google_search; url_context for fetch, model-written (providers/gemini/provider.ts).

import { GEMINI_VENDOR } from "../model-vendors.ts";
import type { ProviderFacts } from "../type-facts.ts";

export default {
	type: "gemini",
	summary: "Gemini generateContent with google_search; url_context for fetch (model-written).",
	search: true,
	fetch: true,
	extraction: "model",
	credentials: { env: GEMINI_VENDOR.env, piProvider: GEMINI_VENDOR.piProvider },
	cost: { basis: "per-request", usd: 0.035, source: "estimated" },
	options: {},
	defaults: { baseUrl: GEMINI_VENDOR.baseUrl, timeoutMs: GEMINI_VENDOR.timeoutMs },
} satisfies ProviderFacts;
