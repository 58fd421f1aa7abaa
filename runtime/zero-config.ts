// Zero-config: with no config file, build providers and chains from what is already authenticated — every type
// with a zero-config role in its facts, in its order: the current model's native search, each API provider whose
// key is found, and the keyless `direct` last for fetch.

import type { Config, ProviderConfig } from "../engine/config-types.ts";
import { allProviderTypes } from "../providers/registry.ts";
import type { ProviderType } from "../providers/type-facts.ts";
import { type CredentialDeps, credentialStatus } from "./credentials.ts";

/** The types that take part without a config file, in chain order. */
export function zeroConfigTypes(): ProviderType[] {
	return allProviderTypes()
		.filter((facts) => facts.zeroConfig !== undefined)
		.sort((a, b) => (a.zeroConfig?.order ?? 0) - (b.zeroConfig?.order ?? 0));
}

/** Whether a type joins on this machine: it is available and, when it takes a key of its own, the key is found. */
function joins(facts: ProviderType, provider: ProviderConfig, deps: CredentialDeps): boolean {
	if (facts.unavailable?.({ currentModel: deps.pi?.currentModel(), env: deps.env }) !== undefined) return false;
	if (facts.credentials === "none" || facts.credentials === "current-model") return true;
	return credentialStatus(provider, deps).state === "ready";
}

export function deriveZeroConfig(deps: CredentialDeps): Config {
	const providers: ProviderConfig[] = [];
	const search: string[] = [];
	const fetch: string[] = [];
	for (const facts of zeroConfigTypes()) {
		const provider: ProviderConfig = { name: facts.type, type: facts.type, options: {} };
		if (!joins(facts, provider, deps)) continue;
		providers.push(provider);
		const serves = facts.zeroConfig?.capabilities ?? [];
		if (serves.includes("search")) search.push(facts.type);
		if (serves.includes("fetch")) fetch.push(facts.type);
	}
	return { providers, search, fetch, rules: [], policy: {} };
}
