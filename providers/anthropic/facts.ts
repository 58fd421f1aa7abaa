// anthropic: the Messages API's web_search and web_fetch server tools (providers/anthropic.ts).

import { ANTHROPIC_VENDOR, vendorFacts } from "../model-vendors.ts";
import { loadDefault, type ProviderType } from "../type-facts.ts";
import { claudeCannotServe } from "./pdf.ts";

export default {
	type: "anthropic",
	summary: "Anthropic Messages API: web_search tool; web_fetch tool (verbatim, live).",
	search: true,
	fetch: true,
	extraction: "verbatim",
	...vendorFacts(ANTHROPIC_VENDOR, false),
	cost: { basis: "per-request", usd: 0.01, source: "estimated" },
	cannotServe: claudeCannotServe,
	load: () => loadDefault(import("../anthropic.ts")),
} satisfies ProviderType;
