// Where keys come from (apiKey pools, pi providers, env defaults, Doubao env pools) and zero-config derivation.

import JSON5 from "json5";
import { describe, expect, it } from "vitest";
import type { ProviderConfig } from "../engine/config-types.ts";
import { modelFamily as currentModelFamily } from "../providers/model/provider.ts";
import { type CredentialDeps, credentialStatus, resolveKeys, resolveKeysNow } from "../runtime/credentials.ts";
import { KeyResolver } from "../runtime/key-expressions.ts";
import type { PiBridge } from "../runtime/pi-bridge.ts";
import { createPlanContext } from "../runtime/plan-context.ts";
import { starterFile } from "../runtime/starter-file.ts";
import { deriveZeroConfig } from "../runtime/zero-config.ts";

const SECRET = "sk-Zq81-very-secret-value";

function fakePi(overrides: Partial<PiBridge> = {}): PiBridge {
	return {
		authStatus: (id) =>
			id === "deepseek" ? { configured: true } : id === "gateway" ? { configured: false } : undefined,
		providerAuth: async (id) => {
			if (id === "gateway") throw new Error("Environment variable GATEWAY_KEY is not set");
			return id === "deepseek" ? { apiKey: SECRET, baseUrl: "https://ds.example/v1" } : undefined;
		},
		storedKey: (id) => (id === "jina-stored" ? SECRET : undefined),
		currentModel: () => undefined,
		...overrides,
	};
}

// The machine's own browser is left out ($PI_WEB_ACCESS_BROWSER=none), so zero-config tables hold on every machine.
const deps = (own: Record<string, string> = {}, pi?: PiBridge): CredentialDeps => {
	const env = { PI_WEB_ACCESS_BROWSER: "none", ...own };
	return {
		env,
		keys: new KeyResolver({ env, run: async () => SECRET }),
		...(pi ? { pi } : {}),
	};
};
const provider = (type: string, extra: Partial<ProviderConfig> = {}): ProviderConfig => ({
	name: type,
	type,
	options: {},
	...extra,
});

describe("credentials", () => {
	it("uses the type's env variable by default and says how to fix a missing key", async () => {
		expect(credentialStatus(provider("exa"), deps({ EXA_API_KEY: SECRET }))).toEqual({
			state: "ready",
			source: "$EXA_API_KEY",
		});
		const missing = credentialStatus(provider("exa"), deps());
		expect(missing).toEqual({ state: "missing", reason: "no key: set EXA_API_KEY or set apiKey" });
		expect(await resolveKeys(provider("exa"), deps({ EXA_API_KEY: SECRET }), 1000)).toEqual([
			{ secret: SECRET, label: "EXA_API_KEY" },
		]);
		await expect(resolveKeys(provider("exa"), deps(), 1000)).rejects.toThrow("no key: set EXA_API_KEY or set apiKey");
	});

	it("prefers pi's provider for types that have one, through its registry", async () => {
		expect(credentialStatus(provider("deepseek"), deps({}, fakePi()))).toMatchObject({
			state: "ready",
			source: "pi provider deepseek",
		});
		expect(await resolveKeys(provider("deepseek"), deps({}, fakePi()), 1000)).toEqual([
			{ secret: SECRET, label: "deepseek" },
		]);
	});

	it("a pi provider whose $VAR is unset fails with pi's message, which names the variable and not a key", async () => {
		const p = provider("sub2api-codex", { provider: "gateway", model: "m" });
		const error = await resolveKeys(p, deps({}, fakePi()), 1000).catch((e: Error) => e);
		expect((error as Error).message).toBe("pi provider gateway: Environment variable GATEWAY_KEY is not set");
	});

	it("an apiKey pool reports each key's state by label, and !command keys as not resolved yet", async () => {
		const p = provider("doubao", {
			apiKey: [
				{ expression: "$UNSET_KEY", label: "a" },
				{ expression: "!vault read", label: "b", billing: "subscription" },
			],
		});
		const status = credentialStatus(p, deps());
		expect(status).toEqual({
			state: "not resolved yet",
			source: "apiKey",
			pool: [
				{ label: "a", state: "missing: $UNSET_KEY is not set" },
				{ label: "b", billing: "subscription", state: "not resolved yet" },
			],
		});
		expect(await resolveKeys(p, deps(), 1000)).toEqual([{ secret: SECRET, label: "b", billing: "subscription" }]);
	});

	it("Doubao keys can come from DOUBAO_SEARCH_API_KEYS with billing prefixes", async () => {
		const env = { DOUBAO_SEARCH_API_KEYS: `subscription:${SECRET},postpaid:other-key` };
		const keys = await resolveKeys(provider("doubao"), deps(env), 1000);
		expect(keys.map((k) => [k.label, k.billing])).toEqual([
			["env1", "subscription"],
			["env2", "postpaid"],
		]);
	});

	it("hands over without waiting what needs no waiting, and leaves the rest (and every error) to resolveKeys", async () => {
		const env = { EXA_API_KEY: SECRET, POOL_KEY: "pool-key-1", DOUBAO_SEARCH_API_KEYS: `subscription:${SECRET}` };
		const literalPool = provider("exa", {
			apiKey: [
				{ expression: "literal-key-1", label: "a" },
				{ expression: "$POOL_KEY", label: "b", billing: "postpaid" },
			],
		});
		const cases: [string, ProviderConfig, CredentialDeps][] = [
			["the type's env variable", provider("exa"), deps(env)],
			["literal and $VAR keys", literalPool, deps(env)],
			["the type's env pool", provider("doubao"), deps(env)],
			["a keyless type", provider("searxng"), deps()],
		];
		for (const [what, p, d] of cases) {
			const now = resolveKeysNow(p, d);
			expect(now, what).toBeDefined();
			expect(now, what).toEqual(await resolveKeys(p, d, 1000));
		}
		// A wait (a !command, pi's auth storage), or a key missing from a pool: resolveKeys takes over.
		const command = provider("exa", { apiKey: [{ expression: "!vault read", label: "c" }] });
		const unset = provider("exa", {
			apiKey: [
				{ expression: "$UNSET_KEY", label: "u" },
				{ expression: "x1", label: "x" },
			],
		});
		expect(resolveKeysNow(command, deps(env))).toBeUndefined();
		expect(resolveKeysNow(unset, deps(env))).toBeUndefined();
		expect(resolveKeysNow(provider("deepseek"), deps({}, fakePi()))).toBeUndefined();
		expect(resolveKeysNow(provider("exa"), deps())).toBeUndefined();
		expect(await resolveKeys(unset, deps(env), 1000)).toEqual([{ secret: "x1", label: "x" }]);
	});

	it("keyless types need nothing", () => {
		expect(credentialStatus(provider("direct"), deps())).toEqual({ state: "none needed" });
	});

	it("no status text ever contains the key", () => {
		const env = { EXA_API_KEY: SECRET, DOUBAO_SEARCH_API_KEYS: SECRET };
		for (const type of ["exa", "deepseek", "doubao", "jina", "model"]) {
			const text = JSON.stringify(
				credentialStatus(provider(type, { apiKey: [{ expression: SECRET, label: "k" }] }), deps(env, fakePi())),
			);
			expect(text).not.toContain(SECRET.slice(0, 8));
		}
	});
});

describe("plan context and the model type", () => {
	it("names the family of the current model, or why it has none", () => {
		expect(currentModelFamily({ provider: "openai", id: "gpt-5", api: "openai-responses" })).toEqual({
			family: "openai",
		});
		expect(currentModelFamily({ provider: "anthropic", id: "c", api: "anthropic-messages" })).toEqual({
			family: "anthropic",
		});
		expect(currentModelFamily({ provider: "google", id: "g", api: "google-generative-ai" })).toEqual({
			family: "gemini",
		});
		expect(currentModelFamily({ provider: "xai", id: "grok", api: "openai-completions" })).toEqual({ family: "xai" });
		expect(currentModelFamily({ provider: "ds", id: "chat", api: "openai-completions" })).toEqual({
			reason: "current model ds/chat has no native search through this API (openai-completions)",
		});
		expect(currentModelFamily(undefined)).toEqual({ reason: "no current model" });
	});

	it("skips Claude-family fetches of PDFs and model steps without a searching model", () => {
		const context = createPlanContext(deps({ ANTHROPIC_API_KEY: "x" }));
		const fetch = { kind: "fetch" as const, url: "https://a.org/paper.PDF", offset: 0, maxChars: 20000 };
		expect(context.readiness(provider("anthropic"), "fetch", fetch)).toEqual({
			status: "skipped",
			reason: "cannot fetch PDFs",
		});
		expect(context.readiness(provider("model"), "fetch", fetch)).toEqual({
			status: "skipped",
			reason: "no current model",
		});
	});
});

describe("zero-config", () => {
	it("builds chains from what is authenticated: current model, API keys found, direct last for fetch", () => {
		const pi = fakePi({ currentModel: () => ({ provider: "openai", id: "gpt-5", api: "openai-responses" }) });
		const config = deriveZeroConfig(deps({ EXA_API_KEY: SECRET, BRAVE_API_KEY: SECRET }, pi));
		expect(config.search).toEqual(["model", "exa", "brave", "deepseek"]);
		expect(config.fetch).toEqual(["exa", "deepseek", "direct"]);
		const file = starterFile(config, deps({ EXA_API_KEY: SECRET, BRAVE_API_KEY: SECRET }, pi), "s.json", "c.json");
		expect(file).not.toContain(SECRET);
		expect(JSON5.parse(file).providers.direct).toEqual({ type: "direct" });
	});

	it("with nothing authenticated, fetch still works keyless", () => {
		const config = deriveZeroConfig(deps());
		expect(config.search).toEqual([]);
		expect(config.fetch).toEqual(["direct"]);
	});
});
