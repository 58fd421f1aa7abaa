// The CLI sees what pi sees: pi's own model registry (models.json + auth.json in the agent dir), loaded
// lazily and offline. Without pi installed, the CLI works with env/apiKey credentials only.

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { CredentialStore } from "@earendil-works/pi-ai";
import type { CurrentModel } from "../engine/types.ts";
import type { PiBridge } from "../runtime/credentials.ts";
import { type RegistryLike, registryBridge } from "../runtime/pi-bridge.ts";
import { agentDir } from "../schema/load.ts";

/** A credential store with nothing in it that refuses writes: what the CLI uses when auth.json does not exist. */
const NO_STORED_CREDENTIALS: CredentialStore = {
	read: async () => undefined,
	list: async () => [],
	modify: async () => {
		throw new Error("pi-web-access does not write pi's auth.json");
	},
	delete: async () => {
		throw new Error("pi-web-access does not write pi's auth.json");
	},
};

interface CliRegistry extends RegistryLike {
	find(provider: string, id: string): { api: string; baseUrl?: string } | undefined;
}

export async function cliPiBridge(
	env: Record<string, string | undefined>,
	model: string | undefined,
): Promise<PiBridge | undefined> {
	let pi: typeof import("@earendil-works/pi-coding-agent");
	try {
		pi = await import("@earendil-works/pi-coding-agent");
	} catch {
		return undefined;
	}
	const dir = agentDir(env);
	let registry: CliRegistry;
	try {
		const authPath = join(dir, "auth.json");
		const runtime = await pi.ModelRuntime.create({
			// pi's file store creates auth.json on first use; with none there, an empty store keeps check, explain
			// and status from writing anything (there is no stored key to read anyway).
			...(existsSync(authPath) ? { authPath } : { credentials: NO_STORED_CREDENTIALS }),
			modelsPath: join(dir, "models.json"),
			refreshOnCreate: false,
			allowModelNetwork: false,
		});
		registry = new pi.ModelRegistry(runtime) as unknown as CliRegistry;
	} catch {
		return undefined;
	}
	let current: CurrentModel | undefined;
	if (model) {
		const slash = model.indexOf("/");
		const provider = slash > 0 ? model.slice(0, slash) : model;
		const id = slash > 0 ? model.slice(slash + 1) : "";
		const found = registry.find(provider, id);
		current = {
			provider,
			id,
			api: found?.api ?? "unknown",
			...(found?.baseUrl ? { baseUrl: found.baseUrl } : {}),
		};
	}
	return registryBridge({
		registry: () => registry,
		readStored: (id) => pi.readStoredCredential(id, join(dir, "auth.json")),
		currentModel: () => current,
	});
}
