// model: follows pi's current conversation model when its API has native search (providers/model/provider.ts).

import type { CurrentModel } from "../contract.ts";
import { USER_LOCATION_SCHEMA } from "../model-vendors.ts";
import type { ProviderFacts } from "../type-facts.ts";
import type { ModelFamily } from "./family-table.ts";

/** pi API names whose endpoints carry a native web search tool, and the family that speaks them. */
const FAMILY_BY_API: Readonly<Record<string, ModelFamily>> = {
	"openai-responses": "openai",
	"openai-codex-responses": "openai",
	"anthropic-messages": "anthropic",
	"google-generative-ai": "gemini",
};

function isXai(current: CurrentModel): boolean {
	if (current.provider === "xai" || /xai/i.test(current.api)) return true;
	try {
		const host = new URL(current.baseUrl ?? "").hostname;
		return host === "x.ai" || host.endsWith(".x.ai");
	} catch {
		return false;
	}
}

/**
 * The family that searches for the current model, or why there is none. xAI is decided by the provider (pi's xAI
 * models speak openai-responses, but their search tools are Grok's); everything else by the API name.
 */
export function modelFamily(current?: CurrentModel): { family: ModelFamily } | { reason: string } {
	if (current === undefined) return { reason: "no current model" };
	if (isXai(current)) return { family: "xai" };
	const family = FAMILY_BY_API[current.api];
	if (family !== undefined) return { family };
	return {
		reason: `current model ${current.provider}/${current.id} has no native search through this API (${current.api})`,
	};
}

export default {
	type: "model",
	summary: "Follows pi's current conversation model when its API has native search.",
	search: true,
	fetch: true,
	extraction: "model",
	credentials: "current-model",
	cost: { basis: "per-request", usd: 0.01, source: "estimated" },
	unavailable: (world) => {
		const found = modelFamily(world.currentModel);
		return "reason" in found ? found.reason : undefined;
	},
	// With no config file the current model searches first; its fetch is model-written, so fetch goes elsewhere.
	zeroConfig: { order: 0, capabilities: ["search"] },
	options: { userLocation: USER_LOCATION_SCHEMA },
	/** Model-written answers are slow (a Grok fetch often takes 40 s or more). */
	defaults: { timeoutMs: 120_000 },
} satisfies ProviderFacts;
