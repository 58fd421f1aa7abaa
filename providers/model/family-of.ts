// Which model family searches for pi's current model, or why none does. Pure and light: the `model` type's facts
// use it to skip the step with its reason before anything loads; providers/model.ts uses it for the call.

import type { CurrentModel } from "../contract.ts";
import type { ModelFamily } from "../model-families.ts";

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
