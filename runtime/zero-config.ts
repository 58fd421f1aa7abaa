// Zero-config: with no config file, build providers and chains from what is already authenticated —
// the current model's native search, each API provider whose key is found, and `direct` last for fetch.

import type { Config, ProviderConfig } from "../engine/config-types.ts";
import { modelFamily } from "../providers/model.ts";
import { type CredentialDeps, credentialStatus } from "./credentials.ts";

/** API types tried in zero-config, in chain order (cheap, structured results first). */
export const ZERO_CONFIG_API_TYPES = ["exa", "tavily", "brave", "deepseek", "jina", "ollama", "doubao"] as const;

export function deriveZeroConfig(deps: CredentialDeps): Config {
	const providers: ProviderConfig[] = [];
	const search: string[] = [];
	const fetch: string[] = [];
	if (!("reason" in modelFamily(deps.pi?.currentModel()))) {
		providers.push({ name: "model", type: "model", options: {} });
		search.push("model");
	}
	for (const type of ZERO_CONFIG_API_TYPES) {
		const provider: ProviderConfig = { name: type, type, options: {} };
		if (credentialStatus(provider, deps).state !== "ready") continue;
		providers.push(provider);
		search.push(type);
		if (type !== "brave" && type !== "doubao") fetch.push(type);
	}
	providers.push({ name: "direct", type: "direct", options: {} });
	fetch.push("direct");
	return { providers, search, fetch, rules: [], policy: {} };
}
