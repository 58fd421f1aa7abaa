// Writes schema/pi-web-access.schema.json from the common keys and every provider type's options fragment.
// Run with `npm run schema`; test/schema-sync.test.ts fails when the file is stale.

import { writeFileSync } from "node:fs";
import { providerTypes } from "../providers/index.ts";
import { packageRoot } from "./schema-ref.ts";
import { buildConfigSchema, type TypeFragment } from "./schema-source.ts";

/** Loads every provider definition (this is a build step: start-up never does it). */
export async function schemaFromDefinitions(): Promise<Record<string, unknown>> {
	const fragments: TypeFragment[] = [];
	for (const [type, entry] of Object.entries(providerTypes)) {
		const definition = await entry.load();
		fragments.push({
			type,
			description: entry.summary,
			optionsSchema: definition.optionsSchema,
			...(definition.required ? { required: definition.required } : {}),
			defaults: definition.defaults,
		});
	}
	// The $id is the published copy of this version (schema/schema-ref.ts): a version bump needs `npm run schema`.
	return buildConfigSchema(fragments, packageRoot().version);
}

export function schemaText(schema: Record<string, unknown>): string {
	return `${JSON.stringify(schema, null, "\t")}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const target = new URL("./pi-web-access.schema.json", import.meta.url);
	writeFileSync(target, schemaText(await schemaFromDefinitions()));
	console.log(`wrote ${target.pathname}`);
}
