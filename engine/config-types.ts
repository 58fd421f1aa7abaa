// The config model: what `schema/load.ts` hands on after loading (validated, defaulted, dangling names removed).
// Plain data only; engine/ reads it, nothing here does I/O.
// Change a field name only by adding: users' files and CLI --json output depend on these shapes.

import type { ErrorClass } from "./error-classes.ts";

export type Billing = "postpaid" | "subscription";

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
	/** `allowRanges` and `allowedRanges` are the same list (both accepted, joined); `allowPrivate` turns the guard off. */
	fetchGuard?: { allowRanges?: string[]; allowedRanges?: string[]; allowPrivate?: boolean };
	state?: { persist?: boolean };
	/** A store several machines share (schema/schema-source.ts `store`): the team's Redis URL, secrets included. */
	store?: { url?: string; cache?: boolean };
	/** `"none"` or a proxy URL for every provider without its own `proxy`; absent: HTTPS_PROXY / HTTP_PROXY. */
	proxy?: string;
	/** Global file only: a project file may then also add providers and set endpoints, keys and the fetch guard. */
	trustProjectConfig?: boolean;
	/** Source readers of the fetchers, by source name (`github`, `npm`, …); absent ones run with their defaults. */
	sources?: Record<string, SourceConfig>;
}

/**
 * One source's settings: where its API lives and which page hosts it reads. Example:
 * `{ apiUrl: "https://ghe.corp/api/v3", hosts: ["ghe.corp"], token: "$GHE_TOKEN" }`.
 */
export interface SourceConfig {
	/** `false` switches the source off: its pages are read as pages. */
	enabled?: boolean;
	/** The API origin (the option is named as the source's facts say: `apiUrl`, `registryUrl` or `url`). */
	apiUrl?: string;
	registryUrl?: string;
	url?: string;
	/** A second origin some sources also ask (`go`: the module proxy, GOPROXY-style). */
	proxyUrl?: string;
	/** Page hosts whose URLs the source reads (default: the public service's). */
	hosts?: string[];
	/** A key expression (`$GITHUB_TOKEN`) sent to the API origin only; never printed. */
	token?: string;
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
