// The plan context the engine asks about the world: what a type can do, whether a provider has
// credentials, and whether it can serve this request — all from static facts, no provider module loaded.

import type { ProviderConfig } from "../engine/config-types.ts";
import type { Capability, PlanContext, WebRequest } from "../engine/request-types.ts";
import { providerType } from "../providers/index.ts";
import { modelFamily } from "../providers/model.ts";
import { type CredentialDeps, credentialStatus } from "./credentials.ts";

function cannotServe(provider: ProviderConfig, request: WebRequest): string | undefined {
	if (request.kind !== "fetch") return undefined;
	// Backends answer with markdown: one asked for HTML is skipped rather than handing back something else.
	if (request.format === "html" && !providerType(provider.type)?.rawHtml) return 'cannot return HTML (format "html")';
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
				const family = modelFamily(deps.pi?.currentModel());
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
