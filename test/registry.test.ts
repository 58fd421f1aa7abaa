// The registry's static facts (read at planning time without loading providers) agree with each definition,
// and the shipped JSON Schema is exactly what the definitions' option fragments generate.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { providerTypes } from "../providers/registry.ts";
import { schemaFromRegistry, schemaText, validatorText } from "../schema/build.ts";

describe("provider registry", () => {
	const types = Object.keys(providerTypes);

	it("is alphabetised", () => {
		expect(types).toEqual([...types].sort());
	});

	for (const type of types) {
		it(`${type}: loads, and its static facts match the definition`, async () => {
			const entry = providerTypes[type]!;
			const definition = await entry.load();
			expect(definition.type).toBe(type);
			expect(Boolean(definition.capabilities.search && definition.search)).toBe(entry.search);
			expect(Boolean(definition.capabilities.fetch && definition.fetch)).toBe(entry.fetch);
			if (entry.fetch) expect(definition.extraction).toBe(entry.extraction);
			expect(definition.cost).toEqual(entry.cost);
			if (entry.cost.basis === "per-request" || entry.cost.basis === "per-result") {
				expect(entry.cost.usd).toBeGreaterThan(0);
				expect(entry.cost.source).toMatch(/^(estimated|docs\/providers\/[a-z0-9-]+\.md)$/);
			}
			const credentials = entry.credentials;
			if (credentials === "none") expect(definition.needsKey).toBe(false);
			else expect(definition.needsKey).toBe(true);
			if (credentials === "pi-provider")
				expect(definition.required).toEqual(expect.arrayContaining(["provider", "model"]));
			if (typeof credentials === "object") {
				expect(definition.defaults.apiKey).toBe(credentials.env ? `$${credentials.env}` : undefined);
				expect(definition.defaults.piProvider).toBe(credentials.piProvider);
			}
		});
	}

	it("schema/pi-web-access.schema.json is up to date (run `npm run schema` after changing a provider's options)", async () => {
		const shipped = readFileSync(new URL("../schema/pi-web-access.schema.json", import.meta.url), "utf8");
		expect(shipped).toBe(schemaText(schemaFromRegistry()));
	});

	it("schema/config-validator.js is the shipped schema compiled ahead of time (run `npm run schema`)", () => {
		const shipped = readFileSync(new URL("../schema/config-validator.js", import.meta.url), "utf8");
		const schema = JSON.parse(readFileSync(new URL("../schema/pi-web-access.schema.json", import.meta.url), "utf8"));
		expect(shipped).toBe(validatorText(schema));
	});
});
