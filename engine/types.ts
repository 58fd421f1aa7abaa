// The contracts between the layers: config, requests, plans, attempts, results and provider definitions.
// Everything here is plain data or an interface; engine/ stays pure, providers/ and executor/ implement.
// Change a field name only by adding: CLI --json output and users' files depend on these shapes.
// One file on purpose (style.md: one contract file per seam), so it is longer than most; keep it declarations only.

/** What a call asks for. */
export type Capability = "search" | "fetch";

/** A named recency or an inclusive date range `YYYY-MM-DD..YYYY-MM-DD`. */
export type Recency = "day" | "week" | "month" | "year" | `${string}..${string}`;

/** The closed set of error classes a provider failure is classified into (see executor issue). */
export type ErrorClass =
	| "transport"
	| "timeout"
	| "rate-limit"
	| "quota"
	| "auth"
	| "server"
	| "bad-request"
	| "parse"
	| "cancelled";

/** What a failure means for the key that was used (key pools). */
export type KeyVerdict = "rate-limited" | "exhausted" | "retry-same-key" | "fatal";

export type Billing = "postpaid" | "subscription";

// ---------------------------------------------------------------------------------------------
// Config (after loading: validated, defaulted, dangling names removed)
// ---------------------------------------------------------------------------------------------

/** One key of a provider's key pool, still as an expression (`literal`, `$NAME`, `${NAME}`, `!cmd`, `$$`, `$!`). */
export interface KeySpec {
	/** The key expression; never printed. */
	expression: string;
	billing?: Billing;
	/** Shown in status and attempts instead of the key; defaults to `key1`, `key2`, … */
	label: string;
}

/** A configured provider. Type options stay in `options`, validated by the type's schema fragment. */
export interface ProviderConfig {
	name: string;
	type: string;
	/** pi provider id whose credentials, headers and base URL are reused. */
	provider?: string;
	model?: string;
	/** Key pool; absent means "use the type's default credential source". */
	apiKey?: KeySpec[];
	baseUrl?: string;
	timeoutMs?: number;
	headers?: Record<string, string>;
	/** `"none"` or a proxy URL for this provider's requests; absent: the top-level `proxy`, else the environment. */
	proxy?: string;
	/** This provider's own spend limits (see `Policy.budget`). */
	budget?: Budget;
	/** `"explicit"`: used only when named (a call's `provider`, a rule's chain), never in a default chain. */
	paid?: "explicit";
	/** Type-specific options (e.g. exa `searchType`), already schema-checked. */
	options: Record<string, unknown>;
}

/** Fallback policy; top level, overridable per rule. Meaning is given by the executor. */
export interface Policy {
	onEmpty?: "next" | "stop" | "next-if-filtered";
	maxAttempts?: number;
	hedgeAfterMs?: number;
	/** When set, only these error classes move on to the next step. */
	fallbackOn?: ErrorClass[];
	/** `false` disables cooldowns; otherwise base and cap of the exponential cooldown. */
	cooldown?: false | { baseMs?: number; maxMs?: number };
	cacheTtlMs?: number;
	/** Spend limits: a paid provider is skipped once today's (or this call's) spend reaches them. */
	budget?: Budget;
}

/** Spend limits in USD. Example: `{ usdPerDay: 0.5, usdPerCall: 0.05 }`. */
export interface Budget {
	usdPerDay?: number;
	usdPerCall?: number;
}

export interface Rule {
	name: string;
	/** Position in the file's `rules` array (stable even when earlier rules were dropped). */
	index: number;
	sites?: string[];
	queryScript?: string[];
	fileTypes?: string[];
	recency?: string[];
	search?: string[];
	fetch?: string[];
	policy?: Policy;
	/** The file the rule came from, when rules were layered from more than one (project config). */
	file?: string;
}

export interface ToolSettings {
	name?: string;
	enabled?: boolean;
}

export interface Config {
	/** Declaration order is meaningful (default chains). */
	providers: ProviderConfig[];
	search?: string[];
	fetch?: string[];
	rules: Rule[];
	policy: Policy;
	tools?: { web_search?: ToolSettings; web_fetch?: ToolSettings };
	output?: { maxChars?: number };
	fetchGuard?: { allowedRanges?: string[]; allowPrivate?: boolean };
	state?: { persist?: boolean };
	/** `"none"` or a proxy URL for every provider without its own `proxy`; absent: HTTPS_PROXY / HTTP_PROXY. */
	proxy?: string;
	/** Global file only: a project file may then also add providers and set endpoints, keys and the fetch guard. */
	trustProjectConfig?: boolean;
}

/** A config problem, located in the source file. Data, never an exception. */
export interface Diagnostic {
	severity: "error" | "warning";
	file: string;
	line: number;
	col: number;
	/** JSON pointer into the config, e.g. `/providers/exa/type`. */
	path: string;
	message: string;
	/** What to do about it, when we know. */
	fix?: string;
}

// ---------------------------------------------------------------------------------------------
// Requests and plans
// ---------------------------------------------------------------------------------------------

export interface SearchRequest {
	kind: "search";
	/** The query without its `site:` / `-site:` operators. */
	query: string;
	domains: string[];
	excludeDomains: string[];
	recency?: Recency;
	maxResults: number;
	includeContent: boolean;
	provider?: string;
}

/** What web_fetch returns: markdown (default), plain text without markup, or the page's HTML itself. */
export type FetchFormat = "markdown" | "text" | "html";
/** Where link targets go in markdown: numbered references after the text (default), inline, or dropped. */
export type LinkStyle = "references" | "inline" | "none";

export interface FetchRequest {
	kind: "fetch";
	url: string;
	offset: number;
	maxChars: number;
	provider?: string;
	/** Absent: markdown. */
	format?: FetchFormat;
	/** Absent: the converter's default (references). */
	links?: LinkStyle;
}

export type WebRequest = SearchRequest | FetchRequest;

/** Readiness of one provider for one request, supplied by the caller of `plan()`. */
export interface Readiness {
	status: "ready" | "skipped";
	/** Why it is skipped ("no credentials", "cannot fetch", "not configured", …). */
	reason?: string;
}

/** What `plan()` needs to know about the world; the engine never looks it up itself. */
export interface PlanContext {
	/** Whether the provider's type can do this at all (used for default chains and "cannot fetch" skips). */
	canServe(provider: ProviderConfig, capability: Capability): boolean;
	readiness(provider: ProviderConfig, capability: Capability, request: WebRequest): Readiness;
	/** Fetch extraction of the provider's type, shown by explain ("extraction: model"). */
	extraction?(provider: ProviderConfig): "verbatim" | "model" | undefined;
}

export interface Step {
	provider: string;
	type: string;
	status: "ready" | "skipped";
	reason?: string;
	/** Set for fetch steps whose text is written by a model. */
	extraction?: "verbatim" | "model";
}

export interface RuleMatch {
	name: string;
	index: number;
	/** The rule's site pattern that matched, or null when the rule has no `sites`. */
	site: string | null;
	/** The domain entry or URL it matched against, or null. */
	matched: string | null;
	/** The file the rule came from, when rules were layered from more than one (project config). */
	file?: string;
}

export interface Plan {
	capability: Capability;
	request: WebRequest;
	source: "provider" | "rule" | "default";
	rule: RuleMatch | null;
	/** Provider names in attempt order (ready and skipped). */
	chain: string[];
	steps: Step[];
	/** Top-level policy with the rule's overrides applied. */
	policy: Policy;
	warnings: string[];
}

// ---------------------------------------------------------------------------------------------
// Attempts and results (the shape the tools return as structuredContent)
// ---------------------------------------------------------------------------------------------

export interface Attempt {
	provider: string;
	outcome: "ok" | "empty" | "error" | "skipped";
	reason?: string;
	latencyMs?: number;
	/** Key-pool label (never the key). */
	key?: string;
	/** Failed or skipped attempts: the error class, or "unavailable" for a provider that was not tried. */
	kind?: ErrorClass | "unavailable";
	/** Failed or skipped attempts: whether the same call could succeed later. */
	retryable?: boolean;
	/** When the backend said how long to wait (Retry-After, rate-limit resets). */
	retryAfterMs?: number;
	/** Failed or skipped attempts: one line on what would make this provider work. */
	hint?: string;
}

export interface SearchResultItem {
	title: string;
	url: string;
	snippet: string;
	content?: string;
	/** YYYY-MM-DD */
	publishedAt?: string;
	score?: number;
}

export interface SearchResult {
	provider: string;
	query: string;
	answer?: string;
	results: SearchResultItem[];
	attempts: Attempt[];
	warnings: string[];
	costUsd?: number;
	latencyMs: number;
	cached?: boolean;
}

export interface FetchResult {
	provider: string;
	url: string;
	finalUrl?: string;
	title?: string;
	/** The page's author, from its metadata (meta tags, JSON-LD), when it names one. */
	author?: string;
	/** When the page says it was published (ISO 8601), from its metadata. */
	publishedAt?: string;
	content: string;
	/** What `content` is: markdown, text without markup, or HTML. */
	format?: FetchFormat;
	extraction: "verbatim" | "model";
	truncated: boolean;
	nextOffset?: number;
	totalChars?: number;
	crawledAt?: string;
	attempts: Attempt[];
	warnings: string[];
	costUsd?: number;
	latencyMs: number;
	cached?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Provider side
// ---------------------------------------------------------------------------------------------

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
	extraction: "verbatim" | "model";
	crawledAt?: string;
	costUsd?: number;
	warnings?: string[];
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

/** Everything one provider call may use. */
export interface CallContext {
	config: ProviderConfig;
	/** Undefined for keyless providers (searxng, direct). */
	key?: CallKey;
	/** Auth of the referenced pi provider (headers, baseUrl), when `config.provider` is set. */
	piAuth?: PiProviderAuth;
	currentModel?: CurrentModel;
	signal: AbortSignal;
	timeoutMs: number;
	/** One line per event, shown as tool progress. */
	onProgress: (line: string) => void;
	/** Settings of the whole config a provider may need (direct fetch guard). */
	fetchGuard?: Config["fetchGuard"];
	/** The proxies this provider's requests use (absent: none, connect directly). */
	proxy?: ProxySettings;
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
	extraction?: "verbatim" | "model";
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
