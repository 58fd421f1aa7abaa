// Which state store a process shares its state through: the team's Redis when the config's `store.url` or
// $PI_WEB_ACCESS_STORE_URL names one (the config wins), else this machine's store; and the team's figures for
// `status` and `check`, read without writing. The URL is shown with its secrets masked, everywhere.

import type { Config } from "../engine/config-types.ts";
import type { SpendDay } from "../executor/spend.ts";
import { utcDay } from "../executor/spend.ts";
import type { StateStore, StoreHealth } from "../executor/store/contract.ts";
import { STORES } from "../executor/store/index.ts";
import { createLocalStore } from "../executor/store/local/store.ts";
import { createRedisStore } from "../executor/store/redis/store.ts";
import { redactStoreUrl, storeUrlProblem } from "../executor/store/redis/url.ts";
import { agentDir } from "../schema/paths.ts";

/** The environment variable naming the team's Redis when the config does not. */
export const STORE_URL_ENV = "PI_WEB_ACCESS_STORE_URL";

/** The team store's URL and where it came from, or why the environment's cannot be used (masked). */
export function teamStoreUrl(
	env: Record<string, string | undefined>,
	config: Pick<Config, "store"> | undefined,
): { url?: string; problem?: string } {
	const fromConfig = config?.store?.url;
	if (fromConfig !== undefined) return { url: fromConfig };
	const fromEnv = env[STORE_URL_ENV]?.trim();
	if (fromEnv === undefined || fromEnv === "") return {};
	const problem = storeUrlProblem(fromEnv);
	if (problem === undefined) return { url: fromEnv };
	return { problem: `$${STORE_URL_ENV} (${redactStoreUrl(fromEnv)}): ${problem}; this machine's store is used` };
}

/** The store a process that calls providers shares its state through. */
export function storeIn(env: Record<string, string | undefined>, config?: Pick<Config, "store">): StateStore {
	const dir = agentDir(env);
	const { url } = teamStoreUrl(env, config);
	if (url === undefined) return STORES.local!({ dir });
	return STORES.redis!({ dir, url, ...(config?.store?.cache === false ? { shareResults: false } : {}) });
}

/**
 * The team store's health and today's spend (this machine's, the team's), read once without writing anything
 * (bounded by the store's timeout); undefined when no team store is configured.
 */
export async function teamStoreState(
	env: Record<string, string | undefined>,
	config: Pick<Config, "store"> | undefined,
	nowMs = Date.now(),
): Promise<{ health: StoreHealth; team: SpendDay } | { health: StoreHealth; team?: undefined } | undefined> {
	const { url, problem } = teamStoreUrl(env, config);
	if (problem !== undefined) return { health: { kind: "local", state: "degraded", detail: problem } };
	if (url === undefined) return undefined;
	const dir = agentDir(env);
	const store = createRedisStore({ url, dir, local: createLocalStore(dir, () => nowMs, true), readOnly: true });
	await store.refresh();
	// Results not shared (`store.cache: false`): nothing to size, and no team cache line in status.
	const cache = config?.store?.cache === false ? undefined : await store.cacheSize();
	const health = cache === undefined ? store.health() : { ...store.health(), cache };
	const team = store.today();
	await store.drain();
	return { health, team: { ...team, day: utcDay(nowMs) } };
}
