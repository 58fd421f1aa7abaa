// doubao: Volcengine's Custom web search, key pools with billing types (providers/doubao.ts).

import { loadDefault, type ProviderType } from "../type-facts.ts";
import { DOUBAO_COMMON } from "./key-env.ts";

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
	load: () => loadDefault(import("../doubao.ts")),
} satisfies ProviderType;
