// The one definition of what a named recency means: day, week, month and year are 1, 7, 30 and 365 days back
// from now (never calendar months). Every user (request validation, providers, the executor's filter) reads it here.

import type { Recency } from "./request-types.ts";

export type NamedRecency = "day" | "week" | "month" | "year";

/** Days back each named recency covers. */
export const RECENCY_DAYS: Readonly<Record<NamedRecency, number>> = { day: 1, week: 7, month: 30, year: 365 };

export const NAMED_RECENCIES = Object.keys(RECENCY_DAYS) as readonly NamedRecency[];

export const DAY_MS = 86_400_000;

/** For tool and CLI help: "day, week, month or year (1, 7, 30 or 365 days back)". */
export const RECENCY_WORDING = `day, week, month or year (${Object.values(RECENCY_DAYS)
	.join(", ")
	.replace(/, (\d+)$/, " or $1")} days back)`;

export function isNamedRecency(recency: string): recency is NamedRecency {
	return Object.hasOwn(RECENCY_DAYS, recency);
}

/** The start instant of a named recency, counted back from `nowMs`. */
export function recencyStart(named: NamedRecency, nowMs: number): Date {
	return new Date(nowMs - RECENCY_DAYS[named] * DAY_MS);
}

/** The inclusive date bounds (YYYY-MM-DD, UTC) of a recency: `from` always, `to` only for an explicit range. */
export function recencyBounds(recency: Recency, nowMs: number): { from?: string; to?: string } {
	if (isNamedRecency(recency)) return { from: recencyStart(recency, nowMs).toISOString().slice(0, 10) };
	const [from = "", to = ""] = recency.split("..");
	return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
