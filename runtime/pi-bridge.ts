// What pi knows (PiBridge) and its one implementation over pi's model registry, shared by the extension
// (ctx.modelRegistry, which changes per context) and the CLI (pi's own registry loaded from the agent dir).
// Never returns a key in anything but providerAuth.

import type { CurrentModel, PiProviderAuth } from "../providers/contract.ts";

/** pi's current conversation model as the shells hand it on (the `model` provider type answers with it). */
export type { CurrentModel } from "../providers/contract.ts";

/** What pi knows, seen through one narrow interface (the extension wraps ctx.modelRegistry, the CLI pi's own registry). */
export interface PiBridge {
	/** Synchronous: whether pi has credentials configured for this provider id (undefined: unknown id). */
	authStatus(providerId: string): { configured: boolean } | undefined;
	/** pi's request auth for a provider; throws when its `$VAR` is unset. */
	providerAuth(providerId: string): Promise<PiProviderAuth | undefined>;
	/** A key stored only in auth.json for an id pi has no provider for. */
	storedKey(providerId: string): string | undefined;
	currentModel(): CurrentModel | undefined;
}

/** The parts of pi's ModelRegistry the bridge reads; optional so tests can pass a plain object. */
export interface RegistryLike {
	getProviderAuthStatus?(id: string): { configured: boolean };
	getProvider?(id: string): { baseUrl?: string } | undefined;
	getProviderAuth?(id: string): Promise<{ auth?: { apiKey?: string; headers?: Record<string, string> } } | undefined>;
}

export interface RegistryBridgeOptions {
	/** Read on every call: the extension's registry is the latest context's. */
	registry(): RegistryLike | undefined;
	/** pi's readStoredCredential for the agent dir's auth.json. */
	readStored(id: string): unknown;
	currentModel(): CurrentModel | undefined;
}

export function registryBridge(options: RegistryBridgeOptions): PiBridge {
	return {
		authStatus(id) {
			const registry = options.registry();
			try {
				if (!registry?.getProvider?.(id)) return undefined;
				return registry.getProviderAuthStatus?.(id);
			} catch {
				return undefined;
			}
		},
		async providerAuth(id) {
			const registry = options.registry();
			const result = await registry?.getProviderAuth?.(id);
			if (!result) return undefined;
			const baseUrl = registry?.getProvider?.(id)?.baseUrl;
			return {
				...(result.auth?.apiKey ? { apiKey: result.auth.apiKey } : {}),
				...(result.auth?.headers ? { headers: result.auth.headers } : {}),
				...(baseUrl ? { baseUrl } : {}),
			};
		},
		storedKey(id) {
			try {
				const credential = options.readStored(id) as { type?: string; key?: string } | undefined;
				return credential?.type === "api_key" ? credential.key : undefined;
			} catch {
				return undefined;
			}
		},
		currentModel: () => options.currentModel(),
	};
}
