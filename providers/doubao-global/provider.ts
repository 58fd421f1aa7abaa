// Doubao (Volcengine) search, Global edition: `POST /search_api/global_search` (international content).
// No time or site filters (the executor applies and warns), DocCount ≤ 20, images off; postpaid keys only,
// since a subscription key answers 10409 here (docs/providers/doubao.md, "Key pools and billing").

import type { SearchRequest } from "../../engine/request-types.ts";
import type { SearchResultItem } from "../../engine/result-types.ts";
import type { CallContext, ProviderSearchResult } from "../contract.ts";
import { createDoubaoEdition, type DoubaoEdition, doubaoQuery, type JsonObject, text } from "../doubao/edition.ts";
import { asArray, asNumber, asRecord, isoDate } from "../http/json.ts";
import { callSites, noNativeFilters, resultCount } from "../params/filters.ts";
import { numberOption } from "../params/options.ts";
import facts, { MAX_SNIPPET_LENGTH } from "./facts.ts";

const LIMITS = { docCount: 20, maxSnippetLength: MAX_SNIPPET_LENGTH } as const;
/** Global filters nothing itself: the executor filters, so more results are asked for then. */
const NATIVE = noNativeFilters(LIMITS.docCount);

/** Seed 001 §4.3: 1000 tokens per snippet is the LLM-sized default (the API's own is 500). */
const DEFAULT_SNIPPET_LENGTH = 1000;

function body(request: SearchRequest, call: CallContext): Record<string, unknown> {
	const snippetLength = numberOption(call.config.options, "maxSnippetLength") ?? DEFAULT_SNIPPET_LENGTH;
	return {
		Query: doubaoQuery(request.query),
		DocCount: resultCount(request, NATIVE, callSites(request, call)),
		MaxSnippetLength: Math.max(1, Math.min(snippetLength, LIMITS.maxSnippetLength)),
		MaxImageCountPerDoc: 0,
	};
}

/** Snippet is a list of text and image parts; the text parts joined are the snippet. */
function parse(result: JsonObject): ProviderSearchResult {
	const documents = asArray(result.Documents)
		.map(asRecord)
		.filter((item) => item !== undefined);
	const results: SearchResultItem[] = [];
	for (const document of documents) {
		const url = text(document.Url);
		if (url === undefined) continue;
		const parts = asArray(document.Snippet)
			.map(asRecord)
			.filter((part) => part !== undefined);
		const snippet = parts
			.filter((part) => part.Type === "text")
			.map((part) => (text(part.Text) ?? "").trim())
			.filter((part) => part !== "")
			.join("\n");
		const entry: SearchResultItem = { title: text(document.Title) ?? url, url, snippet };
		const publishedAt = isoDate(asRecord(document.DocumentInfo)?.PublishTime);
		if (publishedAt !== undefined) entry.publishedAt = publishedAt;
		results.push(entry);
	}
	const details: Record<string, unknown> = {};
	const total = asNumber(result.TotalDocCount);
	if (total !== undefined) details.totalDocCount = total;
	return { results, details };
}

const edition: DoubaoEdition = {
	type: "doubao-global",
	path: "/search_api/global_search",
	facts,
	native: NATIVE,
	body,
	parse,
};

const doubaoEdition = createDoubaoEdition(edition);

export const { buildSearchRequest, parseSearchResponse } = doubaoEdition;

export default doubaoEdition.definition;
