// What differs between a vendor's own type (openai, anthropic, xai) and its Sub2API gateway twin (sub2api-*):
// the gateway has no default endpoint, model or key and requires `provider` + `model`; the vendor type defaults
// all of them. Each model family builds its two definitions from these parts.

import type { CallContext, JsonSchema, ProviderDefinition } from "../contract.ts";
import { configuredModel } from "./model-common.ts";

export interface VendorDefaults {
	baseUrl: string;
	model: string;
	apiKey: string;
	piProvider: string;
	/** A type-wide timeout (xAI's agentic searches are slow), for the gateway twin too. */
	timeoutMs?: number;
}

export interface VendorOrGateway {
	/** Endpoint when neither the config nor pi gives one (none for a gateway). */
	baseUrl: string | undefined;
	modelOf(call: CallContext): string;
	definition: Pick<ProviderDefinition, "optionsSchema" | "required" | "defaults">;
}

export function vendorOrGateway(
	gateway: boolean,
	vendor: VendorDefaults,
	options: Record<string, JsonSchema>,
	modelHelp: string,
): VendorOrGateway {
	const timeout = vendor.timeoutMs === undefined ? {} : { timeoutMs: vendor.timeoutMs };
	if (gateway) {
		return {
			baseUrl: undefined,
			modelOf: (call) => configuredModel(call, undefined),
			definition: { optionsSchema: options, required: ["provider", "model"], defaults: timeout },
		};
	}
	const model: JsonSchema = { type: "string", minLength: 1, description: `${modelHelp} (default ${vendor.model}).` };
	return {
		baseUrl: vendor.baseUrl,
		modelOf: (call) => configuredModel(call, vendor.model),
		definition: {
			optionsSchema: { ...options, model },
			defaults: { baseUrl: vendor.baseUrl, ...timeout, apiKey: vendor.apiKey, piProvider: vendor.piProvider },
		},
	};
}
