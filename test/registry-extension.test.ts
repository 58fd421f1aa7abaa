// A provider type describes itself once: a test-only type ("scrape", test/helpers/scrape-type/), registered with the
// one line every built-in type has in providers/index.ts, gets its schema fragment, zero-config role, readiness,
// credential status, fault-matrix rows and key-leak run from the registry — no other file knows its name.

import "./helpers/scrape-type/register.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plan } from "../engine/plan.ts";
import { fetchRequest } from "../engine/requests.ts";
import { providerType, providerTypes } from "../providers/registry.ts";
import { type CredentialDeps, credentialStatus } from "../runtime/credentials.ts";
import { KeyResolver } from "../runtime/key-expressions.ts";
import { deriveZeroConfig } from "../runtime/zero-config.ts";
import { loadConfigText } from "../schema/load.ts";
import { schemaFromRegistry } from "../schema/registry-schema.ts";
import { type EchoServer, startEchoServer } from "./helpers/echo-server.ts";
import { describeFaultMatrix, ROWS } from "./helpers/fault-matrix-run.ts";
import { FAULTS } from "./helpers/fault-rows.ts";
import { assertNoLeak, CLI_TYPES, capabilities, newTally, removeLeakDirs, TYPES } from "./helpers/leak-run.ts";
import { wire } from "./helpers/wired.ts";

const SECRET = "scrape-Zk9-test-key-4471";
// The machine's own browser is left out ($PI_WEB_ACCESS_BROWSER=none), so the chains hold on every machine.
const deps = (own: Record<string, string> = {}): CredentialDeps => {
	const env = { PI_WEB_ACCESS_BROWSER: "none", ...own };
	return { env, keys: new KeyResolver({ env }) };
};

describe("a provider type registered at run time", () => {
	it("is in the registry with its facts, and its implementation loads lazily", async () => {
		expect(Object.keys(providerTypes)).toContain("scrape");
		const definition = await providerType("scrape")!.load();
		expect(definition).toMatchObject({
			type: "scrape",
			capabilities: { search: true, fetch: true },
			defaults: { baseUrl: "https://scrape.invalid", apiKey: "$SCRAPE_API_KEY" },
			needsKey: true,
			extraction: "verbatim",
		});
	});

	it("gets its schema fragment: the type enum, its options and defaults", () => {
		const schema = JSON.stringify(schemaFromRegistry());
		expect(schema).toContain('"const":"scrape"');
		expect(schema).toContain("Test-only: a scraping API");
		expect(schema).toContain("onlyMainContent");
	});

	it("is accepted by the config loader, which checks its options like a built-in type's", () => {
		const good = loadConfigText('{ providers: { s: { type: "scrape", onlyMainContent: false } } }', "c.json");
		expect(good.diagnostics).toEqual([]);
		expect(good.config.providers).toEqual([{ name: "s", type: "scrape", options: { onlyMainContent: false } }]);
		const bad = loadConfigText(
			'{ providers: { s: { type: "scrape", onlyMainContent: 3, onlyMainContnet: true } } }',
			"c.json",
		);
		const messages = bad.diagnostics.map((d) => d.message).join("\n");
		expect(messages).toMatch(/onlyMainContent must be boolean/);
		expect(messages).toMatch(/unknown key "onlyMainContnet" \(did you mean "onlyMainContent"\?\)/);
	});

	it("gets its zero-config role: in order, with search and fetch, once its key is found", () => {
		const env = { SCRAPE_API_KEY: SECRET, JINA_API_KEY: SECRET, OLLAMA_API_KEY: SECRET };
		const config = deriveZeroConfig(deps(env));
		expect(config.search).toEqual(["jina", "scrape", "ollama"]);
		expect(config.fetch).toEqual(["jina", "scrape", "ollama", "direct"]);
		expect(deriveZeroConfig(deps({ JINA_API_KEY: SECRET })).search).toEqual(["jina"]);
	});

	it("gets credential status and readiness from its facts, and what it cannot serve skips it", () => {
		const provider = { name: "s", type: "scrape", options: {} };
		expect(credentialStatus(provider, deps({ SCRAPE_API_KEY: SECRET }))).toEqual({
			state: "ready",
			source: "$SCRAPE_API_KEY",
		});
		expect(credentialStatus(provider, deps()).reason).toBe("no key: set SCRAPE_API_KEY or set apiKey");
		const wired = wire({ providers: { s: { type: "scrape", apiKey: "k" } } });
		const skip = plan(wired.setup.table, fetchRequest({ url: "https://a.example/x.zip" }), wired.setup.context);
		expect(skip.steps).toEqual([
			{ provider: "s", type: "scrape", status: "skipped", reason: "cannot fetch archives", extraction: "verbatim" },
		]);
		const ready = plan(wired.setup.table, fetchRequest({ url: "https://a.example/x" }), wired.setup.context);
		expect(ready.steps[0]?.status).toBe("ready");
	});

	it("gets its fault-matrix rows and key-leak types", () => {
		expect(ROWS.filter((row) => row.type === "scrape").map((row) => [row.id, row.keys])).toEqual([
			["scrape-search", "pool"],
			["scrape-fetch", "pool"],
		]);
		expect(TYPES).toContain("scrape");
		expect(CLI_TYPES).toContain("scrape");
		expect(capabilities("scrape")).toEqual(["search", "fetch"]);
	});
});

// Its rows of the fault matrix, run for real: documented classes from the shared HTTP stack, decide(), cooldowns.
describeFaultMatrix("fault matrix of the registered type", {
	faults: FAULTS,
	rowsFor: () => ROWS.filter((row) => row.type === "scrape"),
});

describe("key leakage of the registered type", () => {
	let echo: EchoServer;
	beforeAll(async () => {
		echo = await startEchoServer();
	});
	afterAll(async () => {
		await echo.close();
		removeLeakDirs();
	});

	it("never shows its key through createServices, whatever the backend echoes", async () => {
		const tally = newTally();
		await assertNoLeak({
			path: "services",
			echo,
			numRuns: 2,
			types: ["scrape"],
			sources: ["literal", "command"],
			tally,
		});
		expect(echo.counts.withCredential).toBeGreaterThan(0);
	}, 120_000);
});
