// A PiBridge over pi's model registry, shared by the extension (ctx.modelRegistry, which changes per context)
// and the CLI (pi's own registry loaded from the agent dir). Never returns a key in anything but providerAuth.

import type { CurrentModel } from "../providers/contract.ts";
import type { PiBridge } from "./credentials.ts";

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
