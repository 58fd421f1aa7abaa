// The local store (the default): every process of this machine appends its records to one log per UTC day in
// pi's agent dir (day-log.ts, compacted as it grows) and replays the others' from where it last read, so no update
// is lost and a reservation's verdict is the same in every process (the log's order decides). A log it cannot use
// is said in `status`; the process then keeps its state to itself (the memory store), as zero-config would.

import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { utcDay } from "../../spend.ts";
import type { StateStore, StoreHealth } from "../contract.ts";
import { createLedger, type Ledger, type LedgerRecord } from "../ledger.ts";
import { createMemoryStore } from "../memory/store.ts";
import { type DayLog, type LogSink, logName, logPath, openDayLog } from "./day-log.ts";
import { LogProblem } from "./log-file.ts";

export { logPath };

export const LOCAL_DEFAULTS = {
	/** Days of logs kept, today's included; older ones are removed when a writer opens a new day. */
	keepDays: 7,
};

const DAY_MS = 86_400_000;

/** Removes the logs of days before the retention (best effort), never today's nor yesterday's. */
function prune(dir: string, now: number): void {
	const keep = new Set(
		Array.from({ length: Math.max(2, LOCAL_DEFAULTS.keepDays) }, (_, i) => utcDay(now - i * DAY_MS)),
	);
	try {
		for (const name of readdirSync(dir)) {
			const parsed = logName(name);
			if (parsed && !keep.has(parsed.day)) rmSync(join(dir, name), { force: true });
		}
	} catch {
		// An unreadable folder is reported by the open that follows.
	}
}

/** `readOnly` (for `status`): reads the logs as they are, creating and removing nothing. */
export function createLocalStore(dir: string, now: () => number = Date.now, readOnly = false): StateStore {
	const me = `${process.pid.toString(36)}${randomBytes(3).toString("hex")}`;
	let next = 0;
	let unreadable = 0;
	let shrunk: string | undefined;
	let failed: string | undefined;
	let day = "";
	let ledger: Ledger = createLedger("");
	let log: DayLog | undefined;
	/** The reservation whose verdict the next read looks for, and that verdict. */
	let waiting: string | undefined;
	let verdict: string | true | undefined;
	const health = (): StoreHealth => {
		if (failed !== undefined) {
			return {
				kind: "local",
				location: dir,
				state: "degraded",
				detail: `${failed}; this process keeps its state to itself`,
			};
		}
		const notes = [
			...(shrunk ? [`${shrunk}; read again from what is left`] : []),
			...(unreadable > 0 ? [`${unreadable} unreadable record(s) skipped`] : []),
		];
		return { kind: "local", location: dir, state: "ok", ...(notes.length > 0 ? { detail: notes.join("; ") } : {}) };
	};
	const fallback = createMemoryStore(now, health);
	/** Where a day's records go: `day`'s ledger (today's), or `into` for yesterday's marks only. */
	const sinkOf = (into: Ledger | undefined): LogSink => {
		const target = () => into ?? ledger;
		return {
			apply(record) {
				if (into !== undefined && record.t !== "c" && record.t !== "k") return;
				const result = target().apply(record);
				if (record.t === "r" && record.id === waiting) verdict = result;
			},
			restore: (snapshot) => target().restore(into ? { ...snapshot, spend: [], held: [] } : snapshot),
			snapshot: (at) => target().snapshot(at),
			reset() {
				if (into === undefined) ledger = createLedger(day);
			},
			unreadable: () => void unreadable++,
		};
	};
	const open = (at: string, into: Ledger | undefined, asReader: boolean) =>
		openDayLog(dir, at, sinkOf(into), { readOnly: asReader, writer: me, now });
	const fail = (error: unknown) => {
		failed = error instanceof LogProblem ? error.message : `the state log failed (${String(error)})`;
		try {
			log?.close();
		} catch {}
		log = undefined;
	};
	/** Today's log, opened on the first use of a day; undefined once the store has failed. */
	const current = (): DayLog | undefined => {
		if (failed !== undefined) return undefined;
		const at = now();
		const today = utcDay(at);
		if (today === day && log !== undefined) return log;
		try {
			log?.close();
			log = undefined;
			if (!readOnly) {
				mkdirSync(dir, { recursive: true, mode: 0o700 });
				prune(dir, at);
			}
			day = today;
			ledger = createLedger(today);
			try {
				// Yesterday's cooldowns and key marks still count today; its spend does not.
				open(utcDay(at - DAY_MS), ledger, true).close();
			} catch {
				// No log yesterday (or one that cannot be read): nothing to carry over.
			}
			log = open(today, undefined, readOnly);
			return log;
		} catch (error) {
			// No log today yet: nothing spent, and yesterday's marks as read.
			if (readOnly && error instanceof LogProblem && error.missing) return undefined;
			fail(error);
			return undefined;
		}
	};
	/** Runs a step on today's log; a log cut short by something else is read again from its start. */
	const using = (step: (file: DayLog) => void): boolean => {
		for (let tries = 0; tries < 2; tries++) {
			const file = current();
			if (file === undefined) return false;
			try {
				step(file);
				return true;
			} catch (error) {
				if (!(error instanceof LogProblem && error.shrunk) || tries > 0) {
					fail(error);
					return false;
				}
				shrunk = error.message;
				try {
					file.close();
				} catch {}
				log = undefined;
				day = "";
			}
		}
		return false;
	};
	const write = (record: LedgerRecord): boolean => using((file) => file.append(record));
	const read = () => using((file) => file.read());
	return {
		sync() {
			read();
			return failed === undefined ? ledger.takeChanges() : fallback.sync();
		},
		reserve(request) {
			const id = `${me}.${++next}`;
			const record: LedgerRecord = { t: "r", id, p: request.provider, usd: request.usd, at: now() };
			if (request.providerDayUsd !== undefined) record.own = request.providerDayUsd;
			if (request.totalDayUsd !== undefined) record.all = request.totalDayUsd;
			waiting = id;
			verdict = undefined;
			// The append reads through its own record: the verdict is what the log's order gave it.
			const written = write(record);
			waiting = undefined;
			if (!written || verdict === undefined) return fallback.reserve(request);
			return verdict === true ? { granted: true, id } : { granted: false, reason: verdict };
		},
		settle(provider, usd, estimated, id) {
			const record: LedgerRecord = { t: "s", p: provider, usd, at: now(), ...(id === undefined ? {} : { id }) };
			if (estimated) record.est = 1;
			if (!write(record)) fallback.settle(provider, usd, estimated, id);
		},
		release(id) {
			if (!write({ t: "x", id, at: now() })) fallback.release(id);
		},
		putCooldown(m) {
			if (!write({ t: "c", m, at: now() })) fallback.putCooldown(m);
		},
		putKey(m) {
			if (!write({ t: "k", m, at: now() })) fallback.putKey(m);
		},
		today() {
			read();
			return failed === undefined ? ledger.today() : fallback.today();
		},
		health,
		flush() {},
		close() {
			try {
				log?.close();
			} catch {}
			log = undefined;
			failed ??= "closed";
		},
	};
}
