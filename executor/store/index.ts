// The state stores by name, one line each (as providers/index.ts lists provider types): the executor and the
// composition root pick one here and never import an implementation directly.

import type { StateStore } from "./contract.ts";
import { createLocalStore } from "./local/store.ts";
import { createMemoryStore } from "./memory/store.ts";

export interface StoreOptions {
	/** Where the local store keeps its logs (pi's agent dir). */
	dir: string;
	now?: () => number;
}

export const STORES: Record<string, (options: StoreOptions) => StateStore> = {
	memory: (options) => createMemoryStore(options.now),
	local: (options) => createLocalStore(options.dir, options.now),
};
