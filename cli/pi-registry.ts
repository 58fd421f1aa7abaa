// The CLI sees what pi sees: pi's own model registry (models.json + auth.json in the agent dir), loaded
// lazily and offline. Without pi installed, the CLI works with env/apiKey credentials only, and says so.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { suggest } from "../engine/suggest.ts";
import { agentDir } from "../runtime/files.ts";
import { type CurrentModel, type PiBridge, type RegistryLike, registryBridge } from "../runtime/pi-bridge.ts";
import { readOnlyCredentials } from "../runtime/read-only-credentials.ts";

/** Where the CLI's pi credentials came from: pi's registry, or none because pi is not installed or unreadable. */
export type PiUse = "registry" | "not installed" | "unreadable" | "not needed";

export interface CliPi {
	bridge?: PiBridge;
	use: PiUse;
	/** pi's version when its registry was used. */
	version?: string;
	/** Why `--model` cannot be what was meant: not a model pi knows (with the closest one), or no registry. */
	modelWarning?: string;
}

interface CliRegistry extends RegistryLike {
	find(provider: string, id: string): { api: string; baseUrl?: string } | undefined;
	getAll(): Array<{ provider: string; id: string }>;
}

/** `--model "nope/x" is not a model pi knows (did you mean "…"?)…` */
function unknownModel(model: string, registry: CliRegistry): string {
	const hint = suggest(
		model,
		registry.getAll().map((m) => `${m.provider}/${m.id}`),
	);
	const mean = hint ? ` (did you mean "${hint}"?)` : "";
	return `--model "${model}" is not a model pi knows${mean}; the model type cannot search through it`;
}

/**
 * `readOnly` (check, explain, status) never lets pi write: pi's file store creates auth.json when it opens, and
 * refreshes OAuth tokens into it. Commands that call backends use pi's own store when the file exists, so a
 * refreshed login is kept as pi would keep it.
 */
export async function loadPiRegistry(
	env: Record<string, string | undefined>,
	model: string | undefined,
	readOnly: boolean,
): Promise<CliPi> {
	let pi: typeof import("@earendil-works/pi-coding-agent");
	try {
		pi = await import("@earendil-works/pi-coding-agent");
	} catch {
		return { use: "not installed", ...(model ? { modelWarning: "--model is ignored: pi is not installed here" } : {}) };
	}
	const dir = agentDir(env);
	const authPath = join(dir, "auth.json");
	let registry: CliRegistry;
	try {
		const modelRuntime = await pi.ModelRuntime.create({
			authPath,
			modelsPath: join(dir, "models.json"),
			refreshOnCreate: false,
			allowModelNetwork: false,
			...(readOnly || !existsSync(authPath) ? { credentials: readOnlyCredentials(authPath) } : {}),
		});
		registry = new pi.ModelRegistry(modelRuntime) as unknown as CliRegistry;
	} catch {
		return { use: "unreadable", ...(model ? { modelWarning: "--model is ignored: pi's registry is unreadable" } : {}) };
	}
	let current: CurrentModel | undefined;
	let modelWarning: string | undefined;
	if (model) {
		const slash = model.indexOf("/");
		const provider = slash > 0 ? model.slice(0, slash) : model;
		const id = slash > 0 ? model.slice(slash + 1) : "";
		const found = registry.find(provider, id);
		if (!found) modelWarning = unknownModel(model, registry);
		current = {
			provider,
			id,
			api: found?.api ?? "unknown",
			...(found?.baseUrl ? { baseUrl: found.baseUrl } : {}),
		};
	}
	const bridge = registryBridge({
		registry: () => registry,
		readStored: (id) => pi.readStoredCredential(id, authPath),
		currentModel: () => current,
	});
	return {
		bridge,
		use: "registry",
		...(pi.VERSION ? { version: pi.VERSION } : {}),
		...(modelWarning ? { modelWarning } : {}),
	};
}
