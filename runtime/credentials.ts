// Where each provider's key comes from and whether it is there: the config's apiKey pool, a pi provider
// (pi's registry and auth.json), the type's usual env variable, or the current model. Never prints a key.

import type { KeySpec, ProviderConfig } from "../engine/config-types.ts";
import type { CallKey, PiProviderAuth } from "../providers/contract.ts";
import { providerType } from "../providers/registry.ts";
import { defaultPiProvider } from "../providers/type-facts.ts";
import { expressionSource, type KeyResolver } from "./key-expressions.ts";
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

/** The pi provider whose credentials this provider uses, if any. */
export function piProviderOf(provider: ProviderConfig, deps: CredentialDeps): string | undefined {
	const facts = providerType(provider.type);
	if (provider.provider) return provider.provider;
	if (facts?.credentials === "current-model") return deps.pi?.currentModel()?.provider;
	return facts ? defaultPiProvider(facts) : undefined;
}

/** One place a key may come from, in the order they are tried (the config's pool first, the type's env last). */
type Source =
	| { kind: "pool"; specs: KeySpec[] }
	| { kind: "pi"; id: string; pi: PiBridge }
	| { kind: "env-pool"; name: string; keys: CallKey[] }
	| { kind: "env"; name: string; value: string };

/**
 * The credential order, once for status and resolution: the config's `apiKey`, else the pi provider (named, the
 * current model's, or the type's), else the type's env pool, else its env variable. Undefined: keyless type.
 */
function sourcesOf(provider: ProviderConfig, deps: CredentialDeps): Source[] | undefined {
	const facts = providerType(provider.type);
	const credentials = facts?.credentials;
	if (credentials === "none") return undefined;
	if (provider.apiKey) return [{ kind: "pool", specs: provider.apiKey }];
	const sources: Source[] = [];
	const piId = piProviderOf(provider, deps);
	if (piId && deps.pi) sources.push({ kind: "pi", id: piId, pi: deps.pi });
	if (typeof credentials === "object") {
		const keys = credentials.envPool?.read(deps.env) ?? [];
		if (credentials.envPool && keys.length > 0)
			sources.push({ kind: "env-pool", name: credentials.envPool.name, keys });
		const value = credentials.env === undefined ? undefined : deps.env[credentials.env];
		if (credentials.env !== undefined && value) sources.push({ kind: "env", name: credentials.env, value });
	}
	return sources;
}

function poolStatus(specs: KeySpec[], deps: CredentialDeps): CredentialStatus {
	const statuses = specs.map((spec) => deps.keys.status(spec.expression));
	const pool = specs.map((spec, i) => {
		const status = statuses[i]!;
		const state = "reason" in status ? `${status.state}: ${status.reason}` : status.state;
		return { label: spec.label, ...(spec.billing ? { billing: spec.billing } : {}), state };
	});
	const usable = pool.some((k) => k.state === "ready" || k.state === "not resolved yet");
	const pending = !pool.some((k) => k.state === "ready");
	if (!usable) {
		// Each key's reason once, after its label: the state (missing) is said by the status itself.
		const why = specs.map((spec, i) => {
			const status = statuses[i]!;
			return `${spec.label}: ${"reason" in status ? status.reason : status.state}`;
		});
		return { state: "missing", reason: why.join(", "), source: "apiKey", pool };
	}
	return { state: pending ? "not resolved yet" : "ready", source: "apiKey", pool };
}

/** A source's status without resolving anything that costs; undefined when it holds no key after all. */
function sourceStatus(source: Source, deps: CredentialDeps): CredentialStatus | undefined {
	switch (source.kind) {
		case "pool":
			return poolStatus(source.specs, deps);
		case "pi":
			if (source.pi.authStatus(source.id)?.configured) return { state: "ready", source: `pi provider ${source.id}` };
			if (source.pi.storedKey(source.id)) return { state: "ready", source: `auth.json (${source.id})` };
			return undefined;
		case "env-pool": {
			const pool = source.keys.map((k) => ({
				label: k.label,
				...(k.billing ? { billing: k.billing } : {}),
				state: "ready",
			}));
			return { state: "ready", source: `$${source.name}`, pool };
		}
		case "env":
			return { state: "ready", source: `$${source.name}` };
	}
}

/** Why no source holds a key, and how to give it one. */
function missing(provider: ProviderConfig, deps: CredentialDeps): CredentialStatus {
	const facts = providerType(provider.type);
	if (facts?.credentials === "current-model" && !deps.pi?.currentModel()) {
		return { state: "missing", reason: "no current model" };
	}
	const env = typeof facts?.credentials === "object" ? facts.credentials.env : undefined;
	const piId = piProviderOf(provider, deps);
	const ways = [env ? `set ${env}` : undefined, "set apiKey", piId ? `log in to pi provider ${piId}` : undefined];
	if (provider.provider && deps.pi && !deps.pi.authStatus(provider.provider)) {
		return { state: "missing", reason: `pi has no provider "${provider.provider}"` };
	}
	return { state: "missing", reason: `no key: ${ways.filter(Boolean).join(" or ")}` };
}

/** Status without resolving anything that costs (no `!command` runs, no network). */
export function credentialStatus(provider: ProviderConfig, deps: CredentialDeps): CredentialStatus {
	const sources = sourcesOf(provider, deps);
	if (sources === undefined) return { state: "none needed" };
	const facts = providerType(provider.type);
	// Without a current model the `model` type has no pi provider to ask (the config's pool still counts).
	if (facts?.credentials === "current-model" && !provider.apiKey && !deps.pi?.currentModel()) {
		return missing(provider, deps);
	}
	for (const source of sources) {
		const status = sourceStatus(source, deps);
		if (status) return status;
	}
	return missing(provider, deps);
}

async function resolvePool(specs: KeySpec[], deps: CredentialDeps, timeoutMs: number, signal?: AbortSignal) {
	const keys: CallKey[] = [];
	const failures: string[] = [];
	for (const spec of specs) {
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

/** A source's keys; empty when it holds none after all. Throws for a pool without a usable key. */
async function sourceKeys(source: Source, deps: CredentialDeps, timeoutMs: number, signal?: AbortSignal) {
	switch (source.kind) {
		case "pool":
			return resolvePool(source.specs, deps, timeoutMs, signal);
		case "pi": {
			let auth: PiProviderAuth | undefined;
			try {
				auth = await source.pi.providerAuth(source.id);
			} catch (error) {
				// pi throws when the provider's $VAR is unset; its message names the variable, not the key.
				throw new Error(`pi provider ${source.id}: ${(error as Error).message}`);
			}
			if (auth?.apiKey) return [{ secret: auth.apiKey, label: source.id }];
			const stored = source.pi.storedKey(source.id);
			return stored ? [{ secret: stored, label: source.id }] : [];
		}
		case "env-pool":
			return source.keys;
		case "env":
			return [{ secret: source.value, label: source.name }];
	}
}

/** Resolves the key pool for a call. Throws an Error whose message names what is missing (never a key). */
export async function resolveKeys(
	provider: ProviderConfig,
	deps: CredentialDeps,
	timeoutMs: number,
	signal?: AbortSignal,
): Promise<CallKey[]> {
	const sources = sourcesOf(provider, deps);
	if (sources === undefined) return [];
	for (const source of sources) {
		const keys = await sourceKeys(source, deps, timeoutMs, signal);
		if (keys.length > 0) return keys;
	}
	throw new Error(credentialStatus(provider, deps).reason ?? "no key");
}

/**
 * The pool resolveKeys would give, when every source up to the one that answers needs no waiting (the config's
 * literal and `$VAR` keys, the type's env pool and variable); undefined as soon as one would (a `!command`, pi's
 * auth storage) or no key is found, and then resolveKeys resolves it and words any error.
 */
export function resolveKeysNow(provider: ProviderConfig, deps: CredentialDeps): CallKey[] | undefined {
	const sources = sourcesOf(provider, deps);
	if (sources === undefined) return [];
	for (const source of sources) {
		const keys = sourceKeysNow(source, deps);
		if (keys === undefined) return undefined;
		if (keys.length > 0) return keys;
	}
	return undefined;
}

function sourceKeysNow(source: Source, deps: CredentialDeps): CallKey[] | undefined {
	switch (source.kind) {
		case "pool": {
			const keys: CallKey[] = [];
			for (const spec of source.specs) {
				const secret = deps.keys.resolveNow(spec.expression);
				// One key that needs a wait or is missing: the whole pool goes the usual way (it skips what fails).
				if (secret === undefined) return undefined;
				keys.push({ secret, label: spec.label, ...(spec.billing ? { billing: spec.billing } : {}) });
			}
			return keys;
		}
		case "pi":
			return undefined;
		case "env-pool":
			return source.keys;
		case "env":
			return [{ secret: source.value, label: source.name }];
	}
}

/**
 * Where the key a call labelled `label` came from, in words (`from $EXA_API_KEY`, `a !command`, `pi provider x`);
 * never the key. Undefined when the label is no longer in the set-up.
 */
export function keySource(provider: ProviderConfig, label: string, deps: CredentialDeps): string | undefined {
	for (const source of sourcesOf(provider, deps) ?? []) {
		if (source.kind === "pool") {
			const spec = source.specs.find((s) => s.label === label);
			if (spec) return expressionSource(spec.expression);
		} else if (source.kind === "pi" && source.id === label) return `pi provider ${label}`;
		else if (source.kind === "env-pool" && source.keys.some((k) => k.label === label)) return `from $${source.name}`;
		else if (source.kind === "env" && source.name === label) return `from $${label}`;
	}
	return undefined;
}

/** Headers and base URL of the referenced pi provider (sub2api-*, official types), when there is one. */
export function resolvePiAuth(
	provider: ProviderConfig,
	deps: CredentialDeps,
): Promise<PiProviderAuth | undefined> | undefined {
	const piId = piProviderOf(provider, deps);
	// No pi provider to ask: undefined at once, so a call does not wait a turn of the event loop for nothing.
	if (!piId || !deps.pi) return undefined;
	// resolveKeys reports a missing key; headers and baseUrl just stay default.
	try {
		return deps.pi.providerAuth(piId).catch(() => undefined);
	} catch {
		return undefined;
	}
}
