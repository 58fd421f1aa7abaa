// The config schema as the provider registry describes it: each type's facts give its options fragment, required
// keys and defaults (providers/type-facts.ts), so no implementation is loaded. schema/build.ts writes it out;
// schema/validate.ts compiles it at run time only when a type was registered after the shipped build and
// installRegistrySchema() was called (registering at run time is for tests and embedders, never pi's start-up).

import { allProviderTypes } from "../providers/registry.ts";
import { defaultKeyExpression } from "../providers/type-facts.ts";
import { packageRoot } from "./schema-ref.ts";
import { buildConfigSchema, type TypeFragment } from "./schema-source.ts";
import { useRegistrySchema } from "./validate.ts";

export function typeFragments(): TypeFragment[] {
	return allProviderTypes().map((facts) => {
		const apiKey = defaultKeyExpression(facts);
		return {
			type: facts.type,
			description: facts.summary,
			optionsSchema: facts.options,
			...(facts.required ? { required: facts.required } : {}),
			defaults: { ...facts.defaults, ...(apiKey === undefined ? {} : { apiKey }) },
		};
	});
}

/** The whole schema; its $id is the published copy of this version (schema/schema-ref.ts). */
export function schemaFromRegistry(): Record<string, unknown> {
	return buildConfigSchema(typeFragments(), packageRoot().version);
}

/** Lets the config loader validate types registered at run time (providers/registry.ts registerProviderType). */
export function installRegistrySchema(): void {
	useRegistrySchema(schemaFromRegistry);
}
