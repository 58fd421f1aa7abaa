// Provider cooldowns: provider-wide failures put a provider behind healthy ones for 60 s, doubling per failed
// probe up to 10 min (a longer Retry-After wins, up to 1 h). Failures while a cooldown runs count once.

import type { Policy } from "../engine/config-types.ts";
import type { ErrorClass } from "../engine/error-classes.ts";
import type { Classification } from "../providers/contract.ts";
import type { CooldownState } from "./types.ts";

export const HEALTH_DEFAULTS = { baseMs: 60_000, maxMs: 600_000, retryAfterCapMs: 3_600_000 };

/** Failures that say something about the whole backend; bad-request, parse and empty answers do not. */
const PROVIDER_WIDE: ReadonlySet<ErrorClass> = new Set<ErrorClass>([
	"transport",
	"timeout",
	"rate-limit",
	"quota",
	"auth",
	"server",
]);

export function isProviderWide(errorClass: ErrorClass): boolean {
	return PROVIDER_WIDE.has(errorClass);
}

export interface Health {
	/** Cooldown left for the provider, 0 when it is healthy. */
	remainingMs(provider: string): number;
	/** Records a failure; returns true when the stored state changed. */
	fail(provider: string, failure: Classification, cooldown: Policy["cooldown"]): boolean;
	/** A working answer clears the provider's record; returns true when there was one. */
	succeed(provider: string): boolean;
	entries(): CooldownState[];
	/** Takes stored or shared entries; one whose `untilMs` is 0 clears the provider's record (it answered). */
	load(entries: readonly CooldownState[]): void;
}

export function createHealth(now: () => number): Health {
	const records = new Map<string, CooldownState>();
	return {
		remainingMs(provider) {
			const record = records.get(provider);
			return record === undefined ? 0 : Math.max(0, record.untilMs - now());
		},
		fail(provider, failure, cooldown) {
			if (cooldown === false || !isProviderWide(failure.errorClass)) return false;
			const baseMs = cooldown?.baseMs ?? HEALTH_DEFAULTS.baseMs;
			const maxMs = Math.max(baseMs, cooldown?.maxMs ?? HEALTH_DEFAULTS.maxMs);
			const retryAfterMs = Math.min(failure.retryAfterMs ?? 0, HEALTH_DEFAULTS.retryAfterCapMs);
			const at = now();
			const record = records.get(provider);
			if (record !== undefined && at < record.untilMs) {
				// Same outage seen by a concurrent call: only a longer Retry-After may extend it.
				if (at + retryAfterMs <= record.untilMs) return false;
				record.untilMs = at + retryAfterMs;
				return true;
			}
			const failures = (record?.failures ?? 0) + 1;
			const durationMs = Math.max(Math.min(baseMs * 2 ** (failures - 1), maxMs), retryAfterMs);
			records.set(provider, {
				provider,
				untilMs: at + durationMs,
				failures,
				reason: `${failure.errorClass}: ${failure.reason}`,
			});
			return true;
		},
		succeed(provider) {
			return records.delete(provider);
		},
		entries() {
			return [...records.values()].map((record) => ({ ...record }));
		},
		load(entries) {
			for (const entry of entries) {
				if (entry.untilMs === 0) records.delete(entry.provider);
				else records.set(entry.provider, { ...entry });
			}
		},
	};
}
