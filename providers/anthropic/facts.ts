// anthropic: the Messages API's web_search and web_fetch server tools (providers/anthropic/provider.ts).

import type { WebRequest } from "../../engine/request-types.ts";
import { ANTHROPIC_VENDOR, vendorFacts } from "../model-vendors.ts";
import type { ProviderFacts } from "../type-facts.ts";

// Claude's web_fetch returns a PDF as a document block we do not read: both Claude types refuse PDFs before any
// request (the planner skips the step), and the Messages family refuses the call with the same test.

/** True when the fetch URL's path ends in `.pdf` (any case); an unparsable URL is left to the call. */
export function isPdfUrl(url: string): boolean {
	try {
		return /\.pdf$/i.test(new URL(url).pathname);
	} catch {
		return false;
	}
}

/** The reason a Claude type cannot serve `request`, or undefined. */
export function claudeCannotServe(request: WebRequest): string | undefined {
	return request.kind === "fetch" && isPdfUrl(request.url) ? "cannot fetch PDFs" : undefined;
}

export default {
	type: "anthropic",
	summary: "Anthropic Messages API: web_search tool; web_fetch tool (verbatim, live).",
	search: true,
	fetch: true,
	extraction: "verbatim",
	...vendorFacts(ANTHROPIC_VENDOR, false),
	cost: { basis: "per-request", usd: 0.01, source: "estimated" },
	cannotServe: claudeCannotServe,
} satisfies ProviderFacts;
