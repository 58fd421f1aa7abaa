// The one definition of what a recency means: day, week, month and year are 1, 7, 30 and 365 days back from now
// (never calendar months), a range is inclusive UTC dates. Every user (request validation, every provider, the
// executor's filter) reads it here; callers pass the clock in, so this stays pure.

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
	return rangeBounds(recency);
}

/** The ends of a `YYYY-MM-DD..YYYY-MM-DD` range; an open end is absent. */
function rangeBounds(range: string): { from?: string; to?: string } {
	const [from = "", to = ""] = range.split("..");
	return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** A recency as a date window: `named` for day/week/month/year, `from` / `to` as YYYY-MM-DD (inclusive). */
export interface RecencyWindow {
	named?: NamedRecency;
	/** For a named recency: the exact start instant (ISO 8601). */
	since?: string;
	from?: string;
	to?: string;
}

/** The window a backend filter is built from; a named recency counts back from `now` (a month is 30 days). */
export function recencyWindow(recency: Recency, now: Date): RecencyWindow {
	if (isNamedRecency(recency)) {
		const since = recencyStart(recency, now.getTime()).toISOString();
		return { named: recency, since, from: since.slice(0, 10) };
	}
	return rangeBounds(recency);
}

const RECENCY_PHRASES: Readonly<Record<NamedRecency, string>> = {
	day: "in the past day",
	week: "in the past week",
	month: "in the past month",
	year: "in the past year",
};

/** The recency as words for a prompt ("in the past week", "between 2026-01-01 and 2026-01-31"). */
export function recencyWords(recency: Recency): string {
	if (isNamedRecency(recency)) return RECENCY_PHRASES[recency];
	const { from, to } = rangeBounds(recency);
	if (from !== undefined && to !== undefined) return `between ${from} and ${to}`;
	return from !== undefined ? `on or after ${from}` : `on or before ${to}`;
}
