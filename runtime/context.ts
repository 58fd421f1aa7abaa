// The plan context the engine asks about the world: what a type can do, whether a provider has
// credentials, and whether it can serve this request — all from static facts, no provider module loaded.

import type { Capability, CurrentModel, PlanContext, ProviderConfig, WebRequest } from "../engine/types.ts";
import { providerType } from "../providers/index.ts";
import { type CredentialDeps, credentialStatus } from "./credentials.ts";

const MODEL_FAMILIES: Record<string, string> = {
	"openai-responses": "openai",
	"openai-codex-responses": "openai",
	"azure-openai-responses": "openai",
	"anthropic-messages": "anthropic",
	"google-generative-ai": "gemini",
};

/** The native-search family of the current model, or why there is none (pure, cheap). */
export function currentModelFamily(current: CurrentModel | undefined): { family: string } | { reason: string } {
	if (!current) return { reason: "no current model" };
	if (current.provider === "xai" || /(^|\/)api\.x\.ai/.test(current.baseUrl ?? "")) return { family: "xai" };
	const family = MODEL_FAMILIES[current.api];
	if (family) return { family };
	return {
		reason: `current model ${current.provider}/${current.id} has no native search through this API (${current.api})`,
	};
}

function cannotServe(provider: ProviderConfig, request: WebRequest): string | undefined {
	if (request.kind !== "fetch") return undefined;
	const isClaude = provider.type === "anthropic" || provider.type === "sub2api-claude";
	if (isClaude) {
		let path = "";
		try {
			path = new URL(request.url).pathname.toLowerCase();
		} catch {
			return undefined;
		}
		if (path.endsWith(".pdf")) return "cannot fetch PDFs";
	}
	return undefined;
}

export function createPlanContext(deps: CredentialDeps): PlanContext {
	return {
		canServe(provider: ProviderConfig, capability: Capability): boolean {
			const entry = providerType(provider.type);
			return entry ? entry[capability] : false;
		},
		extraction(provider: ProviderConfig) {
			return providerType(provider.type)?.extraction;
		},
		readiness(provider: ProviderConfig, _capability: Capability, request: WebRequest) {
			if (provider.type === "model") {
				const family = currentModelFamily(deps.pi?.currentModel());
				if ("reason" in family) return { status: "skipped", reason: family.reason };
			}
			const unfit = cannotServe(provider, request);
			if (unfit) return { status: "skipped", reason: unfit };
			const status = credentialStatus(provider, deps);
			if (status.state === "missing" || status.state === "error") {
				return { status: "skipped", reason: `no credentials: ${status.reason ?? status.state}` };
			}
			return { status: "ready" };
		},
	};
}
