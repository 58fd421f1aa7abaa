// A log line back into a ledger record: anything not of the shape the store writes is refused (undefined), so a
// corrupted or hand-edited line costs that line only. Keys never appear: marks carry sha256 fingerprints.

import type { CooldownMark, KeyMark } from "../contract.ts";
import type { LedgerRecord } from "../ledger.ts";

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

export function parseRecord(line: string): LedgerRecord | undefined {
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
