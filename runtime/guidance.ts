// What to tell a model or a person when no provider can serve a call: which env variables would enable one (per
// API type), the config file to edit, that the keyless `direct` covers fetch, and where to look — in the caller's
// own terms (`/web-access` inside pi, `pi-web-access status` on the command line).

import { planVerdict } from "../engine/explain.ts";
import type { Plan } from "../engine/request-types.ts";
import { providerType } from "../providers/registry.ts";
import type { Setup } from "./setup.ts";
import { zeroConfigTypes } from "./zero-config.ts";

/** `EXA_API_KEY (exa), TAVILY_API_KEY (tavily), …` for the API types that can serve `capability`. */
function envHints(plan: Plan, setup: Setup): string[] {
	const types = setup.zeroConfig
		? zeroConfigTypes().map((facts) => facts.type)
		: plan.steps.filter((s) => /^no credentials/.test(s.reason ?? "")).map((s) => s.type);
	const hints = new Set<string>();
	for (const type of types) {
		const facts = providerType(type);
		const credentials = facts?.credentials;
		if (!facts?.[plan.capability] || typeof credentials !== "object" || credentials.env === undefined) continue;
		hints.add(`${credentials.env} (${type})`);
	}
	return [...hints];
}

/**
 * `no search provider is usable: exa has no credentials. To enable one: set EXA_API_KEY (exa), …; or add a
 * provider to /path/pi-web-access.json. See pi-web-access status.` Undefined when some step is ready.
 */
export function noUsableProviderMessage(plan: Plan, setup: Setup, seeAlso: string): string | undefined {
	const verdict = planVerdict(plan);
	if (verdict === undefined) return undefined;
	const why = verdict.replace(/^no provider can serve this call: /, "");
	const ways: string[] = [];
	const env = envHints(plan, setup);
	if (env.length > 0) ways.push(`set ${env.join(", ")}`);
	ways.push(`add or fix a provider in ${setup.loaded.file}`);
	if (plan.capability === "fetch") {
		ways.push(
			'the keyless "direct" provider covers fetch: add direct: { type: "direct" } to providers and the fetch chain',
		);
	}
	const notice = setup.notice ? ` ${setup.notice}.` : "";
	return `no ${plan.capability} provider is usable: ${why}.${notice} To enable one: ${ways.join("; or ")}. See ${seeAlso}.`;
}
