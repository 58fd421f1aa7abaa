// The provider registry: an alphabetised map from type to the facts routing needs and a lazy loader.
// Modules load only when a provider of that type is first called, so pi's start-up stays cheap.

import type { CostModel, ProviderDefinition } from "./contract.ts";

export interface ProviderTypeEntry {
	/** One line for the schema and /web-access. */
	summary: string;
	search: boolean;
	fetch: boolean;
	/** Fetch extraction: "model" when a language model writes the page out. */
	extraction?: "verbatim" | "model";
	/** True when fetch can return the page's HTML itself (`format: "html"`); other types are skipped for it. */
	rawHtml?: boolean;
	/**
	 * Where the key comes from when the config names none: an env variable, a pi provider, the current
	 * model's provider, or nothing (keyless). Mirrors the definition's `defaults` (a test keeps them equal).
	 */
	credentials: { env?: string; piProvider?: string } | "none" | "pi-provider" | "current-model";
	/** How calls are charged, for status and budgets without loading the module (equal to the definition's). */
	cost: CostModel;
	load: () => Promise<ProviderDefinition>;
}

async function loadDefault(module: Promise<{ default: ProviderDefinition }>): Promise<ProviderDefinition> {
	return (await module).default;
}

export const providerTypes: Record<string, ProviderTypeEntry> = {
	anthropic: {
		summary: "Anthropic Messages API: web_search tool; web_fetch tool (verbatim, live).",
		search: true,
		fetch: true,
		extraction: "verbatim",
		credentials: { env: "ANTHROPIC_API_KEY", piProvider: "anthropic" },
		cost: { basis: "per-request", usd: 0.01, source: "estimated" },
		load: () => loadDefault(import("./anthropic.ts")),
	},
	brave: {
		summary: "Brave Search API (X-Subscription-Token).",
		search: true,
		fetch: false,
		credentials: { env: "BRAVE_API_KEY" },
		cost: { basis: "per-request", usd: 0.005, source: "estimated" },
		load: () => loadDefault(import("./brave.ts")),
	},
	deepseek: {
		summary: "DeepSeek Search and Fetch API (site:/after: operators in the query).",
		search: true,
		fetch: true,
		extraction: "verbatim",
		credentials: { env: "DEEPSEEK_API_KEY", piProvider: "deepseek" },
		cost: { basis: "per-request", usd: 0.00075, source: "docs/providers/deepseek.md", emptyFree: true },
		load: () => loadDefault(import("./deepseek.ts")),
	},
	direct: {
		summary: "Keyless: fetches the page itself and extracts readable markdown (private networks refused).",
		search: false,
		fetch: true,
		extraction: "verbatim",
		rawHtml: true,
		credentials: "none",
		cost: { basis: "free" },
		load: () => loadDefault(import("./direct.ts")),
	},
	doubao: {
		summary: "Doubao (Volcengine) Custom web search, key pools with billing types.",
		search: true,
		fetch: false,
		credentials: { env: "DOUBAO_SEARCH_API_KEY" },
		cost: { basis: "per-request", usd: 0.005, source: "estimated" },
		load: () => loadDefault(import("./doubao.ts")),
	},
	"doubao-global": {
		summary: "Doubao Global search (postpaid keys only; no time/site filters).",
		search: true,
		fetch: false,
		credentials: { env: "DOUBAO_SEARCH_API_KEY" },
		cost: { basis: "per-request", usd: 0.005, source: "estimated" },
		load: () => loadDefault(import("./doubao-global.ts")),
	},
	exa: {
		summary: "Exa /search (domain filters with paths, recency) and /contents (verbatim, PDFs).",
		search: true,
		fetch: true,
		extraction: "verbatim",
		credentials: { env: "EXA_API_KEY" },
		cost: { basis: "reported", usd: 0.005, source: "docs/providers/exa.md" },
		load: () => loadDefault(import("./exa.ts")),
	},
	gemini: {
		summary: "Gemini generateContent with google_search; url_context for fetch (model-written).",
		search: true,
		fetch: true,
		extraction: "model",
		credentials: { env: "GEMINI_API_KEY", piProvider: "google" },
		cost: { basis: "per-request", usd: 0.035, source: "estimated" },
		load: () => loadDefault(import("./gemini.ts")),
	},
	jina: {
		summary: "Jina s.jina.ai search and r.jina.ai reader.",
		search: true,
		fetch: true,
		extraction: "verbatim",
		credentials: { env: "JINA_API_KEY" },
		cost: { basis: "per-request", usd: 0.001, source: "estimated" },
		load: () => loadDefault(import("./jina.ts")),
	},
	model: {
		summary: "Follows pi's current conversation model when its API has native search.",
		search: true,
		fetch: true,
		extraction: "model",
		credentials: "current-model",
		cost: { basis: "per-request", usd: 0.01, source: "estimated" },
		load: () => loadDefault(import("./model.ts")),
	},
	ollama: {
		summary: "Ollama web_search and web_fetch API.",
		search: true,
		fetch: true,
		extraction: "verbatim",
		credentials: { env: "OLLAMA_API_KEY" },
		cost: { basis: "free" },
		load: () => loadDefault(import("./ollama.ts")),
	},
	openai: {
		summary: "OpenAI Responses API with the web_search tool; fetch is model-written.",
		search: true,
		fetch: true,
		extraction: "model",
		credentials: { env: "OPENAI_API_KEY", piProvider: "openai" },
		cost: { basis: "per-request", usd: 0.01, source: "estimated" },
		load: () => loadDefault(import("./openai.ts")),
	},
	searxng: {
		summary: "A SearXNG instance's JSON API (no key; baseUrl required).",
		search: true,
		fetch: false,
		credentials: "none",
		cost: { basis: "free" },
		load: () => loadDefault(import("./searxng.ts")),
	},
	"sub2api-claude": {
		summary: "A gateway's Claude group: Messages web_search and web_fetch (verbatim).",
		search: true,
		fetch: true,
		extraction: "verbatim",
		credentials: "pi-provider",
		cost: { basis: "per-request", usd: 0.01, source: "estimated" },
		load: () => loadDefault(import("./sub2api-claude.ts")),
	},
	"sub2api-codex": {
		summary: "A gateway's Codex group: Responses web_search; fetch is model-written.",
		search: true,
		fetch: true,
		extraction: "model",
		credentials: "pi-provider",
		cost: { basis: "per-request", usd: 0.01, source: "estimated" },
		load: () => loadDefault(import("./sub2api-codex.ts")),
	},
	"sub2api-grok": {
		summary: "A gateway's Grok group: x_search / web_search; the only type that searches and fetches X.",
		search: true,
		fetch: true,
		extraction: "model",
		credentials: "pi-provider",
		cost: { basis: "reported", source: "docs/providers/xai.md" },
		load: () => loadDefault(import("./sub2api-grok.ts")),
	},
	"sub2api-search": {
		summary: "Codex standalone search (/v1/alpha/search): structured results; open for verbatim fetch.",
		search: true,
		fetch: true,
		extraction: "verbatim",
		credentials: "pi-provider",
		cost: { basis: "per-request", usd: 0.01, source: "estimated" },
		load: () => loadDefault(import("./sub2api-search.ts")),
	},
	tavily: {
		summary: "Tavily /search and /extract.",
		search: true,
		fetch: true,
		extraction: "verbatim",
		credentials: { env: "TAVILY_API_KEY" },
		cost: { basis: "per-request", usd: 0.008, source: "estimated" },
		load: () => loadDefault(import("./tavily.ts")),
	},
	xai: {
		summary: "xAI Responses API: x_search / web_search; fetch is model-written.",
		search: true,
		fetch: true,
		extraction: "model",
		credentials: { env: "XAI_API_KEY", piProvider: "xai" },
		cost: { basis: "reported", source: "docs/providers/xai.md" },
		load: () => loadDefault(import("./xai.ts")),
	},
};

export function providerType(type: string): ProviderTypeEntry | undefined {
	return Object.hasOwn(providerTypes, type) ? providerTypes[type] : undefined;
}
