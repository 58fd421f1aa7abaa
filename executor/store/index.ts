// The state stores by name, one line each (as providers/index.ts lists provider types): the executor and the
// composition root pick one here and never import an implementation directly.

import type { StateStore } from "./contract.ts";
import { createLocalStore } from "./local/store.ts";
import { createMemoryStore } from "./memory/store.ts";
import { createRedisStore } from "./redis/store.ts";

export interface StoreOptions {
	/** Where the local store keeps its logs (pi's agent dir). */
	dir: string;
	now?: () => number;
	/** The team's Redis (redis:// or rediss://), for the redis store. */
	url?: string;
	/** false: the redis store shares no results (the config's `store.cache`). */
	shareResults?: boolean;
}

export const STORES: Record<string, (options: StoreOptions) => StateStore> = {
	memory: (options) => createMemoryStore(options.now),
	local: (options) => createLocalStore(options.dir, options.now),
	redis: (options) =>
		createRedisStore({
			url: options.url ?? "",
			dir: options.dir,
			local: createLocalStore(options.dir, options.now),
			...(options.shareResults === false ? { cache: false as const } : {}),
		}),
};
