// The executor: walks a plan with fallback, timeouts, cancellation, cooldowns, key pools, hedging and caching.
// Only re-exports; createExecutor lives in create.ts.

export { stepTimeoutMs } from "./chain.ts";
export { createExecutor } from "./create.ts";
export { createStateFile, STATE_FILE_NAME, type StateFile, spendOnly, stateFilePath } from "./persist.ts";
export { normalizeResultUrl } from "./results.ts";
export type {
	CallOptions,
	CooldownState,
	Executor,
	ExecutorOptions,
	ExecutorStateSnapshot,
	KeyState,
	ProviderBinding,
} from "./types.ts";
