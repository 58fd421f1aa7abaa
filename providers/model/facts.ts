// model: follows pi's current conversation model when its API has native search (providers/model.ts).

import { USER_LOCATION_SCHEMA } from "../model-vendors.ts";
import { loadDefault, type ProviderType } from "../type-facts.ts";
import { modelFamily } from "./family-of.ts";

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
	load: () => loadDefault(import("../model.ts")),
} satisfies ProviderType;
