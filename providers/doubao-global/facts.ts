// doubao-global: Doubao's Global search, postpaid keys only, no time or site filters (providers/doubao-global/provider.ts).

import { DOUBAO_COMMON } from "../doubao/facts.ts";
import type { ProviderFacts } from "../type-facts.ts";

/** The API's largest snippet, in tokens. */
export const MAX_SNIPPET_LENGTH = 3000;

export default {
	type: "doubao-global",
	summary: "Doubao Global search (postpaid keys only; no time/site filters).",
	search: true,
	fetch: false,
	...DOUBAO_COMMON,
	// A subscription key answers 10409 here (docs/providers/doubao.md, "Key pools and billing").
	keyOrder: "postpaid-only",
	cost: { basis: "per-request", usd: 0.005, source: "estimated" },
	options: {
		maxSnippetLength: {
			type: "integer",
			minimum: 1,
			maximum: MAX_SNIPPET_LENGTH,
			description: "MaxSnippetLength: largest snippet per result, in tokens (API maximum 3000). Default: 1000.",
		},
	},
} satisfies ProviderFacts;
