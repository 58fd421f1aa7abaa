// The plan context the engine asks about the world: what a type can do, whether a provider has
// credentials, and whether it can serve this request — all from the types' facts, no implementation loaded.

import type { ProviderConfig } from "../engine/config-types.ts";
import type { Capability, PlanContext, WebRequest } from "../engine/request-types.ts";
import { providerType } from "../providers/registry.ts";
import { type CredentialDeps, credentialStatus } from "./credentials.ts";

export function createPlanContext(deps: CredentialDeps): PlanContext {
	const world = () => ({ currentModel: deps.pi?.currentModel(), env: deps.env });
	return {
		canServe(provider: ProviderConfig, capability: Capability): boolean {
			const facts = providerType(provider.type);
			return facts ? facts[capability] : false;
		},
		extraction(provider: ProviderConfig) {
			return providerType(provider.type)?.extraction;
		},
		escalation(provider: ProviderConfig, capability: Capability) {
			return capability === "fetch" ? providerType(provider.type)?.escalation : undefined;
		},
		readiness(provider: ProviderConfig, _capability: Capability, request: WebRequest) {
			const facts = providerType(provider.type);
			const unfit =
				facts?.unavailable?.(world(), provider.options) ??
				// Backends answer with markdown: one asked for HTML is skipped rather than handing back something else.
				(request.kind === "fetch" && request.format === "html" && !facts?.rawHtml
					? 'cannot return HTML (format "html")'
					: undefined) ??
				facts?.cannotServe?.(request);
			if (unfit) return { status: "skipped", reason: unfit };
			const status = credentialStatus(provider, deps);
			if (status.state === "missing" || status.state === "error") {
				return { status: "skipped", reason: `no credentials: ${status.reason ?? status.state}` };
			}
			return { status: "ready" };
		},
	};
}
