// What a provider type says about itself, once: capabilities, extraction, where its key comes from, its price, what
// it cannot serve, its zero-config role and its options schema; the registry adds a lazy loader for its
// implementation. A type's `providers/<type>/facts.ts` default-exports them; providers/index.ts lists them, and planning, status,
// zero-config, the config schema and the test tables read only these. Facts modules import nothing heavy.

import type { Capability, Escalation, WebRequest } from "../engine/request-types.ts";
import type { CallKey, CostModel, CurrentModel, JsonSchema, ProviderDefinition } from "./contract.ts";

/** Keys read from the environment as a pool (Doubao's `DOUBAO_SEARCH_API_KEYS`, entries `billing:key`). */
export interface EnvKeyPool {
	/** The variable status displays name as the source (`$DOUBAO_SEARCH_API_KEYS`). */
	name: string;
	/** The pool this environment holds, in order; empty when there is none. Never logs a key. */
	read(env: Record<string, string | undefined>): CallKey[];
}

/**
 * Where the key comes from when the config names none: env variables and a pi provider (tried pi first, then the
 * pool, then `env`), the config's own `provider` (gateways), the current model's provider, or nothing (keyless).
 */
export type CredentialSources =
	| { env?: string; piProvider?: string; envPool?: EnvKeyPool }
	| "none"
	| "pi-provider"
	| "current-model";

/** What the world looks like to the pure predicates (no I/O). */
export interface TypeWorld {
	currentModel?: CurrentModel;
	/** The environment the set-up reads (a browser's path may come from it). */
	env?: Record<string, string | undefined>;
}

/**
 * How a type takes part when there is no config file: `order` places it in the providers and chains (lower first),
 * and it serves the capabilities listed. Keyed types join when their key is found, keyless ones always.
 */
export interface ZeroConfigRole {
	order: number;
	capabilities: readonly Capability[];
}

export interface ProviderType {
	type: string;
	/** One line for the schema, the starter file and /web-access. */
	summary: string;
	search: boolean;
	fetch: boolean;
	/** Fetch extraction: "model" when a language model writes the page out. */
	extraction?: "verbatim" | "model";
	/** True when fetch can return the page's HTML itself (`format: "html"`); other types are skipped for it. */
	rawHtml?: boolean;
	credentials: CredentialSources;
	/** Key-pool order: which billing kinds are used and which first (default "any"). */
	keyOrder?: "any" | "subscription-first" | "postpaid-only";
	/** How calls are charged, for status and budgets without loading the implementation. */
	cost: CostModel;
	/**
	 * Why the type cannot serve anything right now (the `model` type without a searching current model, `browser`
	 * without a browser on the machine); `options` are the provider's own (absent for zero-config).
	 */
	unavailable?(world: TypeWorld, options?: Record<string, unknown>): string | undefined;
	/** A fetch type taken only after an earlier step's failure with one of these codes, unless first in its chain. */
	escalation?: Escalation;
	/** Why the type cannot serve this request (Claude's fetch refuses PDFs), checked before any key. */
	cannotServe?(request: WebRequest): string | undefined;
	zeroConfig?: ZeroConfigRole;
	/** JSON Schema properties of the type's own options (merged into the config schema). */
	options: Record<string, JsonSchema>;
	/** Config keys that must be present for this type (gateways: provider, model; searxng: baseUrl). */
	required?: Array<"provider" | "model" | "baseUrl">;
	/** The type's endpoint and timeout when the config gives none. */
	defaults: { baseUrl?: string; timeoutMs?: number };
	/** The implementation, loaded on first use only. */
	load(): Promise<ProviderDefinition>;
}

/** A type's facts module exports these; the registry line adds the loader (the implementation imports its facts). */
export type ProviderFacts = Omit<ProviderType, "load">;

/** The definition fields the facts decide; an implementation spreads these and adds its calls. */
export type DefinitionFacts = Pick<
	ProviderDefinition,
	"type" | "capabilities" | "optionsSchema" | "required" | "defaults" | "needsKey" | "keyOrder" | "extraction" | "cost"
>;

/** The key expression a type falls back to (`$EXA_API_KEY`), shown as the schema's `apiKey` default. */
export function defaultKeyExpression(facts: ProviderFacts): string | undefined {
	const { credentials } = facts;
	return typeof credentials === "object" && credentials.env !== undefined ? `$${credentials.env}` : undefined;
}

/** The pi provider a type falls back to when the config names none. */
export function defaultPiProvider(facts: ProviderFacts): string | undefined {
	return typeof facts.credentials === "object" ? facts.credentials.piProvider : undefined;
}

export function definitionFacts(facts: ProviderFacts): DefinitionFacts {
	const apiKey = defaultKeyExpression(facts);
	const piProvider = defaultPiProvider(facts);
	return {
		type: facts.type,
		capabilities: { search: facts.search, fetch: facts.fetch },
		optionsSchema: facts.options,
		...(facts.required ? { required: facts.required } : {}),
		defaults: {
			...facts.defaults,
			...(apiKey === undefined ? {} : { apiKey }),
			...(piProvider === undefined ? {} : { piProvider }),
		},
		needsKey: facts.credentials !== "none",
		...(facts.credentials === "none" ? {} : { keyOrder: facts.keyOrder ?? "any" }),
		...(facts.extraction ? { extraction: facts.extraction } : {}),
		cost: facts.cost,
	};
}

/** `module.default` of a lazily imported implementation. */
export async function loadDefault(module: Promise<{ default: ProviderDefinition }>): Promise<ProviderDefinition> {
	return (await module).default;
}
