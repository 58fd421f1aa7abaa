// doubao: Volcengine's Custom web search, key pools with billing types (providers/doubao/provider.ts).

import type { Billing } from "../../engine/config-types.ts";
import type { EnvKeyPool, ProviderFacts } from "../type-facts.ts";

export interface DoubaoEnvKey {
	secret: string;
	billing: Billing;
	/** `env1`, `env2`, … in list order; never derived from the key. */
	label: string;
}

/**
 * Keys from `DOUBAO_SEARCH_API_KEYS` (`postpaid:k1,subscription:k2,k3`; unprefixed = postpaid; duplicates kept once),
 * or, when that yields none, the single `DOUBAO_SEARCH_API_KEY` (postpaid).
 */
export function parseDoubaoKeyEnv(env: Record<string, string | undefined>): DoubaoEnvKey[] {
	const entries: Array<{ secret: string; billing: Billing }> = [];
	for (const raw of (env.DOUBAO_SEARCH_API_KEYS ?? "").split(",")) {
		const entry = parseKeyEntry(raw);
		if (entry !== undefined && !entries.some((known) => known.secret === entry.secret)) entries.push(entry);
	}
	if (entries.length === 0) {
		const single = (env.DOUBAO_SEARCH_API_KEY ?? "").trim();
		if (single !== "") entries.push({ secret: single, billing: "postpaid" });
	}
	return entries.map((entry, index) => ({ ...entry, label: `env${index + 1}` }));
}

function parseKeyEntry(raw: string): { secret: string; billing: Billing } | undefined {
	const text = raw.trim();
	const match = /^(postpaid|subscription)\s*:(.*)$/i.exec(text);
	const billing: Billing = match?.[1]?.toLowerCase() === "subscription" ? "subscription" : "postpaid";
	const secret = (match === null ? text : (match[2] ?? "")).trim();
	return secret === "" ? undefined : { secret, billing };
}

export const DOUBAO_ENV_POOL: EnvKeyPool = { name: "DOUBAO_SEARCH_API_KEYS", read: parseDoubaoKeyEnv };

/** What both editions share: endpoint, the documented timeout, and where keys come from. */
export const DOUBAO_COMMON = {
	credentials: { env: "DOUBAO_SEARCH_API_KEY", envPool: DOUBAO_ENV_POOL },
	/** The documented request timeout; a timed-out call may still be billed, so it is never retried. */
	defaults: { baseUrl: "https://open.feedcoopapi.com", timeoutMs: 10_000 },
} as const;

export default {
	type: "doubao",
	summary: "Doubao (Volcengine) Custom web search, key pools with billing types.",
	search: true,
	fetch: false,
	...DOUBAO_COMMON,
	keyOrder: "subscription-first",
	cost: { basis: "per-request", usd: 0.005, source: "estimated" },
	zeroConfig: { order: 70, capabilities: ["search"] },
	options: {
		authInfoLevel: {
			type: "integer",
			enum: [0, 1],
			description: "Filter.AuthInfoLevel: 0 = any source (default), 1 = only sources rated very authoritative.",
			enumDescriptions: ["Any source (default).", "Only sources rated very authoritative."],
		},
		industry: {
			type: "string",
			enum: ["finance", "game", "gov"],
			description: "Industry: search within one vertical (finance, game or gov). Default: none.",
			enumDescriptions: ["Finance.", "Games.", "Government."],
		},
		queryRewrite: {
			type: "boolean",
			description: "QueryControl.QueryRewrite: let Doubao rewrite the query (slower). Default: not sent (off).",
		},
		contentFormat: {
			type: "string",
			enum: ["markdown", "text"],
			description: "ContentFormats of the page body returned as result content. Default: markdown.",
			enumDescriptions: ["Markdown (default).", "Plain text."],
		},
		needContent: {
			type: "boolean",
			description: "Filter.NeedContent: only return results that have body text. Default: false.",
		},
	},
} satisfies ProviderFacts;
