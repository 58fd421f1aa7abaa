// Search and fetch through a vendor's native web tools with an explicit model id, for the `model` provider type
// (which follows pi's current conversation model and picks the family: pi's xAI models also speak openai-responses,
// so the provider, not the API name, decides). The base URL is the call's (config → pi auth) or the vendor's.

import type { FetchRequest, SearchRequest } from "../engine/request-types.ts";
import type { CallContext, ProviderFetchResult, ProviderSearchResult } from "./contract.ts";
import type { ModelApiFamily } from "./families/factory.ts";
import { GEMINI_FAMILY } from "./families/gemini-family.ts";
import { GROK_FAMILY } from "./families/grok-family.ts";
import { MESSAGES_FAMILY } from "./families/messages-family.ts";
import { RESPONSES_FAMILY } from "./families/responses-family.ts";

/**
 * The families, by the name the `model` type picks. Extension point: a family made with defineFamily
 * (providers/families/factory.ts) and its entry here; nothing else changes.
 */
export const MODEL_FAMILIES = {
	openai: RESPONSES_FAMILY,
	anthropic: MESSAGES_FAMILY,
	xai: GROK_FAMILY,
	gemini: GEMINI_FAMILY,
} satisfies Record<string, ModelApiFamily>;

export type ModelFamily = keyof typeof MODEL_FAMILIES;

/** Searches with the family's native web search tool and the given model, at the call's or the vendor's endpoint. */
export function searchWithFamily(
	family: ModelFamily,
	request: SearchRequest,
	call: CallContext,
	model: string,
): Promise<ProviderSearchResult> {
	const entry: ModelApiFamily = MODEL_FAMILIES[family];
	return entry.search(request, call, model, entry.vendor.baseUrl);
}

/** Fetches with the family's native tool and the given model (Anthropic: verbatim; OpenAI / xAI: model-written). */
export function fetchWithFamily(
	family: ModelFamily,
	request: FetchRequest,
	call: CallContext,
	model: string,
): Promise<ProviderFetchResult> {
	const entry: ModelApiFamily = MODEL_FAMILIES[family];
	return entry.fetch(request, call, model, entry.vendor.baseUrl);
}
