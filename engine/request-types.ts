// Requests and plans: what a call asks for and the chain `plan()` compiles for it.
// Plain data and one interface (`PlanContext`) the caller implements; the engine never looks the world up itself.
// Change a field name only by adding: CLI --json output depends on these shapes.

import type { Policy, ProviderConfig } from "./config-types.ts";
import type { RequestSites } from "./sites.ts";

/** What a call asks for. */
export type Capability = "search" | "fetch";

/** A named recency or an inclusive date range `YYYY-MM-DD..YYYY-MM-DD`. */
export type Recency = "day" | "week" | "month" | "year" | `${string}..${string}`;

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
/** Who wrote a fetch's text: the page itself (verbatim) or a model reading it (model). */
export type Extraction = "verbatim" | "model";
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
	extraction?(provider: ProviderConfig): Extraction | undefined;
	/** When the provider's type runs only as an escalation after an earlier step's failure (see `Escalation`). */
	escalation?(provider: ProviderConfig, capability: Capability): Escalation | undefined;
}

/**
 * A step taken only after an earlier step of the call failed with one of `codes` (the `browser` fetcher after
 * `direct` reports a page that needs JavaScript); first in its chain, it always runs.
 */
export interface Escalation {
	/** Failure codes (WebAccessError codes, e.g. "needs-javascript") that let the step run. */
	codes: readonly string[];
	/** What it waits for, for explain and attempts: "an earlier step finds a page that needs JavaScript". */
	when: string;
}

export interface Step {
	provider: string;
	type: string;
	status: "ready" | "skipped";
	reason?: string;
	/** Set for fetch steps whose text is written by a model. */
	extraction?: Extraction;
	/** Set when the step runs only after an earlier one failed in one of these ways (not on a chain's first step). */
	onlyAfter?: Escalation;
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
	/** A search's `domains` / `excludeDomains`, parsed once by plan() for everything after it (absent for a fetch). */
	sites?: RequestSites;
}
