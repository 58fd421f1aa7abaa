// The one factory of the model-API families (Responses, Messages, Gemini; Grok on the Responses API): a family
// gives its request builders, how it streams an answer and how it reads results from it; the factory composes the
// single path build → stream → result, and makes a vendor's provider type or its Sub2API gateway twin from it.

import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type {
	CallContext,
	HttpRequestSpec,
	NativeFilters,
	ProviderDefinition,
	ProviderFetchResult,
	ProviderSearchResult,
} from "../contract.ts";
import { classifyError } from "../http/classify.ts";
import { definitionFacts, type ProviderFacts } from "../type-facts.ts";
import { configuredModel } from "./model-call.ts";

/** The vendor's endpoint and default model (the rest of its facts: providers/model-vendors.ts). */
export interface VendorDefaults {
	baseUrl: string;
	model: string;
}

/** What a family is made of. `Answer` is what its stream folds into (the final response or message). */
export interface FamilyParts<Answer> {
	vendor: VendorDefaults;
	extraction: "verbatim" | "model";
	native: NativeFilters;
	/** The search request (pure); `baseUrl` is the type's default endpoint, undefined for a gateway. */
	searchSpec(request: SearchRequest, call: CallContext, model: string, baseUrl: string | undefined): HttpRequestSpec;
	fetchSpec(request: FetchRequest, call: CallContext, model: string, baseUrl: string | undefined): HttpRequestSpec;
	/** Sends the request and folds its event stream: the family's only way of reading a response. */
	stream(spec: HttpRequestSpec, call: CallContext): Promise<Answer>;
	searchResult(answer: Answer, request: SearchRequest, call: CallContext, model: string): ProviderSearchResult;
	fetchResult(answer: Answer, request: FetchRequest, call: CallContext, model: string): ProviderFetchResult;
	/** Runs before a fetch is built: throws for a URL the family refuses, may report progress. */
	startFetch?(request: FetchRequest, call: CallContext, model: string): void;
}

/** A family ready to call with an explicit model id (the `model` type passes the conversation's). */
export interface ModelApiFamily
	extends Pick<FamilyParts<unknown>, "vendor" | "extraction" | "native" | "searchSpec" | "fetchSpec"> {
	search(
		request: SearchRequest,
		call: CallContext,
		model: string,
		baseUrl: string | undefined,
	): Promise<ProviderSearchResult>;
	fetch(
		request: FetchRequest,
		call: CallContext,
		model: string,
		baseUrl: string | undefined,
	): Promise<ProviderFetchResult>;
}

export function defineFamily<Answer>(parts: FamilyParts<Answer>): ModelApiFamily {
	const { stream, searchResult, fetchResult, startFetch, ...described } = parts;
	return {
		...described,
		async search(request, call, model, baseUrl) {
			const answer = await stream(described.searchSpec(request, call, model, baseUrl), call);
			return searchResult(answer, request, call, model);
		},
		async fetch(request, call, model, baseUrl) {
			startFetch?.(request, call, model);
			const answer = await stream(described.fetchSpec(request, call, model, baseUrl), call);
			return fetchResult(answer, request, call, model);
		},
	};
}

/** A provider type of a family, and its request builders with the type's model and endpoint applied. */
export interface FamilyType {
	definition: ProviderDefinition;
	buildSearchRequest(request: SearchRequest, call: CallContext): HttpRequestSpec;
	buildFetchRequest(request: FetchRequest, call: CallContext): HttpRequestSpec;
}

/**
 * A family's provider type from the type's facts (providers/type-facts.ts: options, defaults, key sources): the
 * vendor's own type calls the vendor's endpoint and default model; its Sub2API gateway twin (key from the pi
 * provider the config names) has neither, so the config's `provider` and `model` say where and what.
 */
export function createFamilyType(family: ModelApiFamily, facts: ProviderFacts): FamilyType {
	const gateway = facts.credentials === "pi-provider";
	const baseUrl = facts.defaults.baseUrl;
	const modelOf = (call: CallContext) => configuredModel(call, gateway ? undefined : family.vendor.model);
	const definition: ProviderDefinition = {
		...definitionFacts(facts),
		native: family.native,
		search: (request, call) => family.search(request, call, modelOf(call), baseUrl),
		fetch: (request, call) => family.fetch(request, call, modelOf(call), baseUrl),
		classify: classifyError,
	};
	return {
		definition,
		buildSearchRequest: (request, call) => family.searchSpec(request, call, modelOf(call), baseUrl),
		buildFetchRequest: (request, call) => family.fetchSpec(request, call, modelOf(call), baseUrl),
	};
}
