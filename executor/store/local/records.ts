// A log line back into a ledger record, a compaction's marker or its snapshot: anything not of the shape the store
// writes is refused (undefined), so a corrupted or hand-edited line costs that line only. Keys never appear: marks
// carry sha256 fingerprints.

import type { SpendEntry } from "../../spend.ts";
import type { CooldownMark, KeyMark } from "../contract.ts";
import type { LedgerRecord, LedgerSnapshot } from "../ledger.ts";

/** The log moved on to the next generation's file: lines after the first marker belong to no one (log.ts). */
export interface MovedRecord {
	t: "m";
	at: number;
}

/** The state of the previous generation up to its marker, written at the start of the next one. */
export interface SnapshotRecord extends LedgerSnapshot {
	t: "S";
	at: number;
}

export type LogRecord = LedgerRecord | MovedRecord | SnapshotRecord;

/** More entries than a snapshot of a real ledger holds: such a snapshot is refused whole. */
const MAX_ENTRIES = 100_000;

type Data = Record<string, unknown>;

const isData = (value: unknown): value is Data => typeof value === "object" && value !== null && !Array.isArray(value);
const amount = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0;
const text = (value: unknown): value is string => typeof value === "string" && value.length <= 500;

function cooldown(m: unknown): CooldownMark | undefined {
	if (!isData(m) || !text(m.provider) || !amount(m.untilMs) || !amount(m.failures)) return undefined;
	return { provider: m.provider, untilMs: m.untilMs, failures: m.failures, reason: text(m.reason) ? m.reason : "" };
}

function key(m: unknown): KeyMark | undefined {
	if (!isData(m) || typeof m.fingerprint !== "string" || !/^[0-9a-f]{8,64}$/.test(m.fingerprint)) return undefined;
	if (m.state !== "rate-limited" && m.state !== "exhausted" && m.state !== "active") return undefined;
	return {
		fingerprint: m.fingerprint,
		label: text(m.label) ? m.label : "key",
		state: m.state,
		...(amount(m.untilMs) ? { untilMs: m.untilMs } : {}),
		...(amount(m.sinceMs) ? { sinceMs: m.sinceMs } : {}),
	};
}

function entry(e: unknown): SpendEntry | undefined {
	if (!isData(e) || !text(e.provider) || !amount(e.usd) || !amount(e.calls)) return undefined;
	return { provider: e.provider, usd: e.usd, calls: e.calls, ...(e.estimated === true ? { estimated: true } : {}) };
}

function hold(h: unknown): LedgerSnapshot["held"][number] | undefined {
	if (!isData(h) || !text(h.id) || !text(h.p) || !amount(h.usd) || !amount(h.at)) return undefined;
	return { id: h.id, p: h.p, usd: h.usd, at: h.at };
}

/** Every item read by `one`, or undefined when the list is not one or any item is malformed. */
function all<T>(list: unknown, one: (item: unknown) => T | undefined): T[] | undefined {
	if (!Array.isArray(list) || list.length > MAX_ENTRIES) return undefined;
	const out: T[] = [];
	for (const item of list) {
		const parsed = one(item);
		if (parsed === undefined) return undefined;
		out.push(parsed);
	}
	return out;
}

const timed =
	<M>(mark: (m: unknown) => M | undefined) =>
	(item: unknown): { m: M; at: number } | undefined => {
		if (!isData(item) || !amount(item.at)) return undefined;
		const m = mark(item.m);
		return m === undefined ? undefined : { m, at: item.at };
	};

function snapshot(data: Data, at: number): SnapshotRecord | undefined {
	const spend = all(data.spend, entry);
	const held = all(data.held, hold);
	const c = all(data.c, timed(cooldown));
	const k = all(data.k, timed(key));
	if (!spend || !held || !c || !k) return undefined;
	return { t: "S", at, spend, held, c, k };
}

export function parseRecord(line: string): LogRecord | undefined {
	let data: unknown;
	try {
		data = JSON.parse(line);
	} catch {
		return undefined;
	}
	if (!isData(data) || !amount(data.at)) return undefined;
	const { t, at } = data;
	if (t === "r" || t === "s") {
		if (!text(data.p) || !amount(data.usd) || (data.id !== undefined && !text(data.id))) return undefined;
		if (t === "s")
			return {
				t,
				p: data.p,
				usd: data.usd,
				at,
				...(text(data.id) ? { id: data.id } : {}),
				...(data.est === 1 ? { est: 1 } : {}),
			};
		if (!text(data.id)) return undefined;
		return {
			t,
			id: data.id,
			p: data.p,
			usd: data.usd,
			at,
			...(amount(data.own) ? { own: data.own } : {}),
			...(amount(data.all) ? { all: data.all } : {}),
		};
	}
	if (t === "x") return text(data.id) ? { t, id: data.id, at } : undefined;
	if (t === "m") return { t, at };
	if (t === "S") return snapshot(data, at);
	if (t === "c") {
		const m = cooldown(data.m);
		return m ? { t, m, at } : undefined;
	}
	if (t === "k") {
		const m = key(data.m);
		return m ? { t, m, at } : undefined;
	}
	return undefined;
}
