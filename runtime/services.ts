// Connects a loaded set-up to the executor: provider bindings (definitions loaded lazily per plan, keys resolved
// on first use) and one executor whose health and key state outlive config reloads.

import type { ProviderConfig } from "../engine/config-types.ts";
import { WebAccessError } from "../engine/errors.ts";
import type { Plan } from "../engine/request-types.ts";
import type { FetchResult, SearchResult } from "../engine/result-types.ts";
import { createExecutor, type Executor, type ProviderBinding, stepTimeoutMs } from "../executor/index.ts";
import type { StateStore } from "../executor/store/contract.ts";
import type { CallKey, ProviderDefinition } from "../providers/contract.ts";
import { proxySettings } from "../providers/http/proxy.ts";
import { providerType } from "../providers/registry.ts";
import { resolveKeys, resolveKeysNow, resolvePiAuth } from "./credentials.ts";
import type { Setup } from "./setup.ts";
import { setupSources } from "./source-status.ts";

export interface Services {
	executor: Executor;
	/** Swap in a reloaded set-up; the executor (cooldowns, keys, cache) stays. */
	use(setup: Setup): void;
	setup(): Setup;
	/** Loads the definitions a plan's ready steps need (lazily, once per type). */
	prepare(plan: Plan): Promise<void>;
	run(
		plan: Plan,
		options?: { signal?: AbortSignal; onProgress?: (line: string) => void },
	): Promise<SearchResult | FetchResult>;
}

export interface ServicesOptions {
	/** Where spend, reservations, cooldowns and key states are shared with other processes (runtime/state-file.ts). */
	store?: StateStore;
}

/** The pool resolved the long way (a `!command`, pi's auth storage), its failure worded as the executor reports it. */
async function waitForKeys(
	config: ProviderConfig,
	deps: Setup["deps"],
	timeoutMs: number,
	signal: AbortSignal | undefined,
): Promise<CallKey[]> {
	try {
		return await resolveKeys(config, deps, timeoutMs, signal);
	} catch (error) {
		throw new WebAccessError(`no credentials: ${(error as Error).message}`, {
			kind: "auth",
			code: "no-credentials",
			provider: config.name,
		});
	}
}

export function createServices(initial: Setup, options: ServicesOptions = {}): Services {
	let current = initial;
	const definitions = new Map<string, ProviderDefinition>();
	const loading = new Map<string, Promise<void>>();

	/** One configured provider as the executor calls it: built once per set-up and loaded definition, not per call. */
	const bindingOf = (config: ProviderConfig, definition: ProviderDefinition, setup: Setup): ProviderBinding => {
		const { deps } = setup;
		const timeoutMs = stepTimeoutMs({ config, definition });
		return {
			config,
			definition,
			resolveKeys(attempt) {
				return resolveKeysNow(config, deps) ?? waitForKeys(config, deps, timeoutMs, attempt?.signal);
			},
			piAuth: () => resolvePiAuth(config, deps),
			proxy: proxySettings(config.proxy, setup.table.config.proxy, deps.env, config.name),
			sources: setupSources(setup),
		};
	};
	// The bindings handed to the executor: the current set-up's providers whose definition is loaded. Kept current
	// here (a reload or a newly loaded type replaces entries), so the executor never asks back for one.
	const bindings = new Map<string, ProviderBinding>();
	const refresh = (type?: string) => {
		if (type === undefined) bindings.clear();
		for (const config of current.table.providers.values()) {
			if (type !== undefined && config.type !== type) continue;
			const definition = definitions.get(config.type);
			if (definition) bindings.set(config.name, bindingOf(config, definition, current));
		}
	};

	const executor = createExecutor({
		bindings,
		...(options.store ? { store: options.store } : {}),
		currentModel: () => current.deps.pi?.currentModel(),
		fetchGuard: () => current.table.config.fetchGuard,
	});

	const load = (type: string): Promise<void> => {
		let pending = loading.get(type);
		if (!pending) {
			const entry = providerType(type);
			pending = entry
				? entry.load().then((definition) => {
						definitions.set(type, definition);
						refresh(type);
					})
				: Promise.resolve();
			loading.set(type, pending);
			pending.catch(() => loading.delete(type));
		}
		return pending;
	};

	const services: Services = {
		executor,
		use(setup) {
			current = setup;
			refresh();
		},
		setup: () => current,
		async prepare(plan) {
			await Promise.all(plan.steps.filter((s) => s.status === "ready").map((s) => load(s.type)));
		},
		async run(plan, callOptions = {}) {
			// Usually every type is loaded already: then nothing is awaited before the executor.
			if (plan.steps.some((step) => step.status === "ready" && !definitions.has(step.type))) {
				await services.prepare(plan);
			}
			const result =
				plan.capability === "search"
					? await executor.search(plan, callOptions)
					: await executor.fetch(plan, callOptions);
			// Planning notes (an unmatchable domain, say) belong with the answer; the executor leaves them to us.
			const fresh = plan.warnings.filter((w) => !result.warnings.includes(w));
			return fresh.length > 0 ? { ...result, warnings: [...fresh, ...result.warnings] } : result;
		},
	};
	return services;
}
