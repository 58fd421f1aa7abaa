// Reading parsed response JSON: narrowing helpers for which a wrong type reads as absent (so a parser never trusts
// a backend's shape), and the calendar day of a date a backend writes.

/** A plain object, else undefined (arrays and null too). */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
	return typeof value === "object" && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: undefined;
}

/** An array, else empty. */
export function asArray(value: unknown): unknown[] {
	return Array.isArray(value) ? value : [];
}

/** A string, else undefined. */
export function asString(value: unknown): string | undefined {
	return typeof value === "string" ? value : undefined;
}

/** A finite number, else undefined. */
export function asNumber(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}/;

/** YYYY-MM-DD from an ISO date / datetime / common date text; undefined when not a date. */
export function isoDate(value: unknown): string | undefined {
	if (typeof value !== "string") return undefined;
	const trimmed = value.trim();
	if (trimmed === "") return undefined;
	// The usual date (an ISO date or datetime, at most blanks around it): its first ten characters, no match array.
	if (ISO_DAY.test(trimmed)) return trimmed.slice(0, 10);
	const parsed = Date.parse(value);
	if (Number.isNaN(parsed)) return undefined;
	// The day as written: with a zone, shift by its offset; without one ("Dec 1, 2025") Date.parse read local time.
	const offset = /([+-])(\d{2}):?(\d{2})\s*$/.exec(value);
	if (offset) {
		const minutes = (offset[1] === "-" ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
		return new Date(parsed + minutes * 60_000).toISOString().slice(0, 10);
	}
	if (/\b(GMT|UTC|Z)\b/i.test(value)) return new Date(parsed).toISOString().slice(0, 10);
	const local = new Date(parsed);
	const pad = (n: number) => String(n).padStart(2, "0");
	return `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
}
