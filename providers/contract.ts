// The provider contract: what a provider type implements (`ProviderDefinition`) and what one call receives and
// returns. It names HTTP requests, proxies and pi credentials, so it lives beside the providers, not in engine/.
// Change a field name only by adding: the contract suite (test/contract/) asserts these shapes.

import type { Billing, Config, ProviderConfig } from "../engine/config-types.ts";
import type { ErrorClass, KeyVerdict } from "../engine/error-classes.ts";
import type { LinkReferences } from "../engine/link-references.ts";
import type { Extraction, FetchFormat, FetchRequest, SearchRequest } from "../engine/request-types.ts";
import type { ExtractedAs, SearchResultItem } from "../engine/result-types.ts";
import type { RequestSites } from "../engine/sites.ts";
import type { SourceSettings } from "./sources/contract.ts";

/** What a provider returns for a search, before the executor's post-processing. */
export interface ProviderSearchResult {
	results: SearchResultItem[];
	answer?: string;
	costUsd?: number;
	warnings?: string[];
	/** Backend-specific extras kept for details (e.g. Gemini `webSearchQueries`). */
	details?: Record<string, unknown>;
}

/** What a provider returns for a fetch. Normally the whole text; the executor windows it. */
export interface ProviderFetchResult {
	content: string;
	/** What `content` is; absent: markdown (what every API backend returns). */
	format?: FetchFormat;
	finalUrl?: string;
	title?: string;
	/** The page's author, from its metadata. */
	author?: string;
	/** Published date (ISO 8601), from the page's metadata. */
	publishedAt?: string;
	/** The rest of the page's metadata (engine/result-types.ts FetchResult says each). */
	authors?: string[];
	modifiedAt?: string;
	siteName?: string;
	language?: string;
	canonicalUrl?: string;
	extraction: Extraction;
	/** HTML the provider extracted itself: which way the page was read (article, listing, …, page-text). */
	extractedAs?: ExtractedAs;
	crawledAt?: string;
	costUsd?: number;
	warnings?: string[];
	/** The numbered link targets `content` cites as `[text][n]`; the executor lists a window's after it. */
	references?: LinkReferences;
	/** Set when the provider paged the text itself: `content` is then already the window at `request.offset`. */
	window?: { truncated: boolean; nextOffset?: number; totalChars?: number };
}

/** Which filters a backend applies itself; the executor applies the rest to the results and warns. */
export interface NativeFilters {
	/** Include-domain filters on whole hosts. */
	hosts: boolean;
	/** Include-domain filters with a path (`go.dev/doc`). */
	paths: boolean;
	/** Exclusions on whole hosts. */
	excludeHosts: boolean;
	/** Exclusions with a path. */
	excludePaths: boolean;
	/** day/week/month/year. */
	recency: boolean;
	/** YYYY-MM-DD..YYYY-MM-DD. */
	dateRange: boolean;
	/** Largest result count the backend returns in one call. */
	maxResults: number;
}

/** A classified failure: error class plus what it means for the key and when to retry. */
export interface Classification {
	errorClass: ErrorClass;
	keyVerdict?: KeyVerdict;
	retryAfterMs?: number;
	/** One line for attempts/progress, e.g. "429 rate limited". Never contains a key. */
	reason: string;
	/** The failure's stable code when it has one ("needs-javascript"): what an escalation step waits for. */
	code?: string;
}

/** One resolved key handed to a provider call. */
export interface CallKey {
	/** The secret itself. Never log, print or put into an error. */
	secret: string;
	label: string;
	billing?: Billing;
}

/** Credentials and endpoint pieces resolved from pi for a provider's `provider` reference. */
export interface PiProviderAuth {
	apiKey?: string;
	headers?: Record<string, string>;
	baseUrl?: string;
}

/** Current pi conversation model, for the `model` provider type. */
export interface CurrentModel {
	provider: string;
	id: string;
	/** pi API name, e.g. "openai-responses", "anthropic-messages", "google-generative-ai". */
	api: string;
	baseUrl?: string;
}

/**
 * What the HTTP layer needs of a cancellation: an AbortSignal has it, and so has the executor's attempt signal, which
 * keeps its listeners in a plain list (an AbortSignal's listener costs event tables and a map entry per request).
 */
export interface CancelSignal {
	readonly aborted: boolean;
	readonly reason: unknown;
	addEventListener(type: "abort", listener: EventListenerObject): void;
	removeEventListener(type: "abort", listener: EventListenerObject): void;
}

/** Everything one provider call may use. */
export interface CallContext {
	config: ProviderConfig;
	/** Undefined for keyless providers (searxng, direct). */
	key?: CallKey;
	/** Auth of the referenced pi provider (headers, baseUrl), when `config.provider` is set. */
	piAuth?: PiProviderAuth;
	currentModel?: CurrentModel;
	signal: AbortSignal;
	/** The same cancellation as `signal`, lighter; the HTTP layer listens to it when it is there (http/call.ts). */
	cancel?: CancelSignal;
	timeoutMs: number;
	/** One line per event, shown as tool progress. */
	onProgress: (line: string) => void;
	/** Settings of the whole config a provider may need (direct fetch guard). */
	fetchGuard?: Config["fetchGuard"];
	/** The proxies this provider's requests use (absent: none, connect directly). */
	proxy?: ProxySettings;
	/** A search's `domains` / `excludeDomains` as plan() parsed them (Plan.sites), so no provider parses them again. */
	sites?: RequestSites;
	/** The config's `sources` (origins, hosts, tokens) for the fetchers' source readers; absent: the public ones. */
	sources?: SourceSettings;
}

/** One proxy URL and the setting it came from (`HTTPS_PROXY`, `proxy`, `providers.exa.proxy`). */
export interface ProxyChoice {
	/** May carry credentials: never print it (providers/http/proxy.ts maskProxyUrl). */
	url: string;
	source: string;
}

/** Which proxies a provider uses, resolved from its `proxy`, the top-level `proxy` and the environment. */
export interface ProxySettings {
	/** For http:// targets. */
	http?: ProxyChoice;
	/** For https:// targets. */
	https?: ProxyChoice;
	/** Hosts that bypass the proxy (NO_PROXY syntax: `localhost,.corp.example,10.1.2.3:8080,*`). */
	noProxy?: { value: string; source: string };
	/** Set when the config turned proxies off (`proxy: "none"`): the setting that did. */
	off?: string;
}

/** JSON Schema fragment (the subset we write by hand). */
export type JsonSchema = { [key: string]: JsonSchemaValue };
type JsonSchemaValue = string | number | boolean | null | JsonSchemaValue[] | { [key: string]: JsonSchemaValue };

/**
 * How a provider type is charged. Reported `costUsd` always wins; `usd` is the price per request or per result
 * (for "reported": the estimate used when an answer reports none). Example: `{ basis: "per-request", usd: 0.00075,
 * source: "docs/providers/deepseek.md" }`.
 */
export interface CostModel {
	basis: "free" | "per-request" | "per-result" | "reported";
	usd?: number;
	/** Where the price is stated (a docs/providers/<type>.md), or "estimated". */
	source?: string;
	/** The backend does not charge for an answer without results (DeepSeek). */
	emptyFree?: boolean;
}

/**
 * One provider type. `providers/<type>.ts` default-exports one of these.
 * Example: exa searches with `POST /search` and fetches with `POST /contents`.
 */
export interface ProviderDefinition {
	type: string;
	capabilities: { search: boolean; fetch: boolean };
	/** JSON Schema properties for the type's own options (merged into the config schema). */
	optionsSchema: Record<string, JsonSchema>;
	/** Config keys that must be present for this type (e.g. sub2api-*: provider, model; searxng: baseUrl). */
	required?: Array<"provider" | "model" | "baseUrl">;
	defaults: {
		baseUrl?: string;
		timeoutMs?: number;
		/** Key expression used when the config has no `apiKey` and no `provider`, e.g. "$EXA_API_KEY". */
		apiKey?: string;
		/** pi provider whose credentials are used when the config names none (deepseek → "deepseek"). */
		piProvider?: string;
	};
	/** False for keyless types (searxng, direct). */
	needsKey: boolean;
	/** Key-pool order: which billing kinds are used and which first. */
	keyOrder?: "any" | "subscription-first" | "postpaid-only";
	/** Fetch extraction this type produces. */
	extraction?: Extraction;
	native: NativeFilters;
	/**
	 * True when each call talks to a different backend (the requested site itself, as `direct` does): a failure
	 * then concerns that site only and never puts the provider into cooldown.
	 */
	perSite?: boolean;
	/** How calls are charged; absent (in-process test fakes) counts as free. */
	cost?: CostModel;
	search?(request: SearchRequest, call: CallContext): Promise<ProviderSearchResult>;
	fetch?(request: FetchRequest, call: CallContext): Promise<ProviderFetchResult>;
	/** Map any failure thrown by search/fetch (a WebAccessError or anything else) to a classification. */
	classify(error: unknown): Classification;
}

/** An HTTP request as a provider builds it (the contract suite asserts these exactly). */
export interface HttpRequestSpec {
	method: "GET" | "POST";
	url: string;
	headers: Record<string, string>;
	/** JSON body (serialised by the HTTP layer). */
	body?: unknown;
	/** Ask for an SSE stream. */
	stream?: boolean;
}
