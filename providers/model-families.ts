// Search and fetch through a vendor's native web tools with an explicit model id, for the `model` provider type
// (which follows pi's current conversation model and picks the family: pi's xAI models also speak openai-responses,
// so the provider, not the API name, decides). The base URL is the call's (config → pi auth) or the vendor's.

import type { FetchRequest, SearchRequest } from "../engine/request-types.ts";
import type { CallContext, ProviderFetchResult, ProviderSearchResult } from "./contract.ts";
import { fetchGemini, searchGemini } from "./families/gemini-family.ts";
import { fetchGrok, searchGrok, XAI_DEFAULTS } from "./families/grok-family.ts";
import { ANTHROPIC_DEFAULTS, fetchClaude, searchClaude } from "./families/messages-family.ts";
import { fetchOpenAi, OPENAI_DEFAULTS, searchOpenAi } from "./families/responses-family.ts";

/** What one API family offers the `model` type. */
export interface ModelFamilyEntry {
	/** Fetch extraction: "model" when the model writes the page out. */
	extraction: "verbatim" | "model";
	search(request: SearchRequest, call: CallContext, model: string): Promise<ProviderSearchResult>;
	fetch(request: FetchRequest, call: CallContext, model: string): Promise<ProviderFetchResult>;
}

/**
 * The families. Extension point: add an entry here (e.g. `gemini`, with its own family file in providers/families/)
 * and its name to `ModelFamily`; nothing else changes.
 */
export const MODEL_FAMILIES = {
	openai: {
		extraction: "model",
		search: (request, call, model) => searchOpenAi(request, call, model, OPENAI_DEFAULTS.baseUrl),
		fetch: (request, call, model) => fetchOpenAi(request, call, model, OPENAI_DEFAULTS.baseUrl),
	},
	anthropic: {
		extraction: "verbatim",
		search: (request, call, model) => searchClaude(request, call, model, ANTHROPIC_DEFAULTS.baseUrl),
		fetch: (request, call, model) => fetchClaude(request, call, model, ANTHROPIC_DEFAULTS.baseUrl),
	},
	xai: {
		extraction: "model",
		search: (request, call, model) => searchGrok(request, call, model, XAI_DEFAULTS.baseUrl),
		fetch: (request, call, model) => fetchGrok(request, call, model, XAI_DEFAULTS.baseUrl),
	},
	gemini: {
		extraction: "model",
		search: searchGemini,
		fetch: fetchGemini,
	},
} satisfies Record<string, ModelFamilyEntry>;

export type ModelFamily = keyof typeof MODEL_FAMILIES;

/** Searches with the family's native web search tool and the given model. */
export function searchWithFamily(
	family: ModelFamily,
	request: SearchRequest,
	call: CallContext,
	model: string,
): Promise<ProviderSearchResult> {
	return MODEL_FAMILIES[family].search(request, call, model);
}

/** Fetches with the family's native tool and the given model (Anthropic: verbatim; OpenAI / xAI: model-written). */
export function fetchWithFamily(
	family: ModelFamily,
	request: FetchRequest,
	call: CallContext,
	model: string,
): Promise<ProviderFetchResult> {
	return MODEL_FAMILIES[family].fetch(request, call, model);
}
