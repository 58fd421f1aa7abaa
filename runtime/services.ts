// Connects a loaded set-up to the executor: provider bindings (definitions loaded lazily per plan, keys resolved
// on first use) and one executor whose health and key state outlive config reloads.

import { WebAccessError } from "../engine/errors.ts";
import type { Plan } from "../engine/request-types.ts";
import type { FetchResult, SearchResult } from "../engine/result-types.ts";
import {
	createExecutor,
	createStateFile,
	type Executor,
	type ProviderBinding,
	spendOnly,
	stepTimeoutMs,
} from "../executor/index.ts";
import type { ProviderDefinition } from "../providers/contract.ts";
import { proxySettings } from "../providers/http/proxy.ts";
import { providerType } from "../providers/registry.ts";
import { resolveKeys, resolvePiAuth } from "./credentials.ts";
import type { Setup } from "./setup.ts";

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
	/** Path of the state file; omitted: no persistence. */
	stateFile?: string;
	/** Share only today's spend through this state file (the CLI: a one-off run keeps its cooldowns to itself). */
	spendFile?: string;
}

export function createServices(initial: Setup, options: ServicesOptions = {}): Services {
	let current = initial;
	const definitions = new Map<string, ProviderDefinition>();
	const loading = new Map<string, Promise<void>>();

	const binding = (name: string): ProviderBinding | undefined => {
		const config = current.table.providers.get(name);
		const definition = config ? definitions.get(config.type) : undefined;
		if (!config || !definition) return undefined;
		const deps = current.deps;
		const timeoutMs = stepTimeoutMs({ config, definition });
		return {
			config,
			definition,
			async resolveKeys(signal) {
				try {
					return await resolveKeys(config, deps, timeoutMs, signal);
				} catch (error) {
					throw new WebAccessError(`no credentials: ${(error as Error).message}`, {
						kind: "auth",
						code: "no-credentials",
						provider: name,
					});
				}
			},
			piAuth: () => resolvePiAuth(config, deps),
			proxy: proxySettings(config.proxy, current.table.config.proxy, deps.env, name),
		};
	};

	const persistence = options.stateFile
		? createStateFile(options.stateFile)
		: options.spendFile
			? spendOnly(createStateFile(options.spendFile))
			: undefined;
	const executor = createExecutor({
		binding,
		...(persistence ? { state: persistence } : {}),
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
		},
		setup: () => current,
		async prepare(plan) {
			await Promise.all(plan.steps.filter((s) => s.status === "ready").map((s) => load(s.type)));
		},
		async run(plan, callOptions = {}) {
			await services.prepare(plan);
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
