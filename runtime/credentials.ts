// Where each provider's key comes from and whether it is there: the config's apiKey pool, a pi provider
// (pi's registry and auth.json), the type's usual env variable, or the current model. Never prints a key.

import type { ProviderConfig } from "../engine/config-types.ts";
import type { CallKey, PiProviderAuth } from "../providers/contract.ts";
import { parseDoubaoKeyEnv } from "../providers/doubao-edition.ts";
import { type ProviderTypeEntry, providerType } from "../providers/index.ts";
import type { KeyResolver } from "./key-expressions.ts";
import type { PiBridge } from "./pi-bridge.ts";

export interface PoolStatus {
	label: string;
	billing?: string;
	state: string;
	/** Requests sent with this key since pi started (filled in by status displays). */
	uses?: number;
}

export interface CredentialStatus {
	state: "ready" | "missing" | "not resolved yet" | "error" | "none needed";
	/** For missing/error: what is wrong and how to fix it. Never a key. */
	reason?: string;
	/** Where the key comes from, for status displays ("apiKey", "pi provider deepseek", "$EXA_API_KEY"). */
	source?: string;
	pool?: PoolStatus[];
	/** Requests sent with this provider's key since pi started, when it has no pool (status displays). */
	uses?: number;
}

export interface CredentialDeps {
	keys: KeyResolver;
	pi?: PiBridge;
	env: Record<string, string | undefined>;
}

const isDoubao = (type: string) => type === "doubao" || type === "doubao-global";

/** The pi provider whose credentials this provider uses, if any. */
export function piProviderOf(provider: ProviderConfig, deps: CredentialDeps): string | undefined {
	const entry = providerType(provider.type);
	if (provider.provider) return provider.provider;
	if (entry?.credentials === "current-model") return deps.pi?.currentModel()?.provider;
	if (entry && typeof entry.credentials === "object") return entry.credentials.piProvider;
	return undefined;
}

function defaultEnv(entry: ProviderTypeEntry | undefined): string | undefined {
	return entry && typeof entry.credentials === "object" ? entry.credentials.env : undefined;
}

/** Status without resolving anything that costs (no `!command` runs, no network). */
export function credentialStatus(provider: ProviderConfig, deps: CredentialDeps): CredentialStatus {
	const entry = providerType(provider.type);
	if (entry?.credentials === "none") return { state: "none needed" };
	if (provider.apiKey) {
		const pool = provider.apiKey.map((spec) => {
			const status = deps.keys.status(spec.expression);
			const state = "reason" in status ? `${status.state}: ${status.reason}` : status.state;
			return { label: spec.label, ...(spec.billing ? { billing: spec.billing } : {}), state };
		});
		const usable = pool.some((k) => k.state === "ready" || k.state === "not resolved yet");
		const pending = !pool.some((k) => k.state === "ready");
		if (!usable) {
			return { state: "missing", reason: pool.map((k) => `${k.label}: ${k.state}`).join(", "), source: "apiKey", pool };
		}
		return { state: pending ? "not resolved yet" : "ready", source: "apiKey", pool };
	}
	if (entry?.credentials === "current-model" && !deps.pi?.currentModel()) {
		return { state: "missing", reason: "no current model" };
	}
	const piId = piProviderOf(provider, deps);
	if (piId && deps.pi) {
		const status = deps.pi.authStatus(piId);
		if (status?.configured) return { state: "ready", source: `pi provider ${piId}` };
		if (deps.pi.storedKey(piId)) return { state: "ready", source: `auth.json (${piId})` };
	}
	if (isDoubao(provider.type) && parseDoubaoKeyEnv(deps.env).length > 0) {
		const pool = parseDoubaoKeyEnv(deps.env).map((k) => ({ label: k.label, billing: k.billing, state: "ready" }));
		return { state: "ready", source: "$DOUBAO_SEARCH_API_KEYS", pool };
	}
	const env = defaultEnv(entry);
	if (env && deps.env[env]) return { state: "ready", source: `$${env}` };
	const ways = [env ? `set ${env}` : undefined, "set apiKey", piId ? `log in to pi provider ${piId}` : undefined];
	if (provider.provider && deps.pi && !deps.pi.authStatus(provider.provider)) {
		return { state: "missing", reason: `pi has no provider "${provider.provider}"` };
	}
	return { state: "missing", reason: `no key: ${ways.filter(Boolean).join(" or ")}` };
}

/** Resolves the key pool for a call. Throws an Error whose message names what is missing (never a key). */
export async function resolveKeys(
	provider: ProviderConfig,
	deps: CredentialDeps,
	timeoutMs: number,
	signal?: AbortSignal,
): Promise<CallKey[]> {
	const entry = providerType(provider.type);
	if (entry?.credentials === "none") return [];
	if (provider.apiKey) {
		const keys: CallKey[] = [];
		const failures: string[] = [];
		for (const spec of provider.apiKey) {
			try {
				const secret = await deps.keys.resolve(spec.expression, timeoutMs, signal);
				keys.push({ secret, label: spec.label, ...(spec.billing ? { billing: spec.billing } : {}) });
			} catch (error) {
				failures.push(`${spec.label}: ${(error as Error).message}`);
			}
		}
		if (keys.length === 0) throw new Error(`no usable key (${failures.join(", ")})`);
		return keys;
	}
	const piId = piProviderOf(provider, deps);
	if (piId && deps.pi) {
		let auth: PiProviderAuth | undefined;
		try {
			auth = await deps.pi.providerAuth(piId);
		} catch (error) {
			// pi throws when the provider's $VAR is unset; its message names the variable, not the key.
			throw new Error(`pi provider ${piId}: ${(error as Error).message}`);
		}
		if (auth?.apiKey) return [{ secret: auth.apiKey, label: piId }];
		const stored = deps.pi.storedKey(piId);
		if (stored) return [{ secret: stored, label: piId }];
	}
	if (isDoubao(provider.type)) {
		const pool = parseDoubaoKeyEnv(deps.env);
		if (pool.length > 0) return pool;
	}
	const env = defaultEnv(entry);
	const value = env ? deps.env[env] : undefined;
	if (env && value) return [{ secret: value, label: env }];
	throw new Error(credentialStatus(provider, deps).reason ?? "no key");
}

/** Headers and base URL of the referenced pi provider (sub2api-*, official types), when there is one. */
export async function resolvePiAuth(
	provider: ProviderConfig,
	deps: CredentialDeps,
): Promise<PiProviderAuth | undefined> {
	const piId = piProviderOf(provider, deps);
	if (!piId || !deps.pi) return undefined;
	try {
		return await deps.pi.providerAuth(piId);
	} catch {
		return undefined; // resolveKeys reports the missing key; headers/baseUrl just stay default
	}
}
