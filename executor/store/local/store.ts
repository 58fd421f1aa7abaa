// The local store (the default): every process of this machine appends its records to one log per UTC day in
// pi's agent dir and replays the others' from where it last read, so no update is lost and a reservation's
// verdict is the same in every process (the log's order decides). A log it cannot use is said in `status`; the
// process then keeps its state to itself (the memory store), as zero-config would.

import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { utcDay } from "../../spend.ts";
import type { StateStore, StoreHealth } from "../contract.ts";
import { createLedger, type Ledger, type LedgerRecord } from "../ledger.ts";
import { createMemoryStore } from "../memory/store.ts";
import { type LogFile, LogProblem, openLog } from "./log-file.ts";
import { parseRecord } from "./records.ts";

const PREFIX = "pi-web-access.state.";
const DAY_MS = 86_400_000;

export function logPath(dir: string, day: string): string {
	return join(dir, `${PREFIX}${day}.log`);
}

/** Removes logs older than yesterday (best effort: they hold nothing a process still reads). */
function prune(dir: string, day: string, now: number): void {
	const keep = new Set([day, utcDay(now - DAY_MS)]);
	try {
		for (const name of readdirSync(dir)) {
			const match = /^pi-web-access\.state\.(\d{4}-\d{2}-\d{2})\.log$/.exec(name);
			if (match && !keep.has(match[1]!)) rmSync(join(dir, name), { force: true });
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
	let failed: string | undefined;
	let day = "";
	let ledger: Ledger = createLedger("");
	let log: LogFile | undefined;
	const health = (): StoreHealth => {
		const skipped = unreadable > 0 ? `${unreadable} unreadable record(s) skipped` : undefined;
		if (failed !== undefined) {
			return {
				kind: "local",
				location: dir,
				state: "degraded",
				detail: `${failed}; this process keeps its state to itself`,
			};
		}
		return { kind: "local", location: dir, state: "ok", ...(skipped ? { detail: skipped } : {}) };
	};
	const fallback = createMemoryStore(now, health);
	const replay = (lines: string[], into: Ledger, marksOnly = false, mine?: string) => {
		let verdict: string | true | undefined;
		for (const line of lines) {
			if (line === "") continue;
			const record = parseRecord(line);
			if (record === undefined) {
				unreadable++;
				continue;
			}
			if (marksOnly && record.t !== "c" && record.t !== "k") continue;
			const result = into.apply(record);
			if (mine !== undefined && record.t === "r" && record.id === mine) verdict = result;
		}
		return verdict;
	};
	const fail = (error: unknown) => {
		failed = error instanceof LogProblem ? error.message : `the state log failed (${String(error)})`;
		try {
			log?.close();
		} catch {}
		log = undefined;
	};
	/** The log of today, opened on the first use of a day; undefined once the store has failed. */
	const current = (): LogFile | undefined => {
		if (failed !== undefined) return undefined;
		const at = now();
		const today = utcDay(at);
		if (today === day && log !== undefined) return log;
		try {
			log?.close();
			log = undefined;
			if (!readOnly) {
				mkdirSync(dir, { recursive: true, mode: 0o700 });
				prune(dir, today, at);
			}
			const fresh = createLedger(today);
			try {
				// Yesterday's cooldowns and key marks still count today; its spend does not.
				const previous = openLog(logPath(dir, utcDay(at - DAY_MS)), true);
				replay(previous.readNew(), fresh, true);
				previous.close();
			} catch {
				// No log yesterday (or one that cannot be read): nothing to carry over.
			}
			day = today;
			ledger = fresh;
			log = openLog(logPath(dir, today), readOnly);
			return log;
		} catch (error) {
			// No log today yet: nothing spent, and yesterday's marks as read.
			if (readOnly && error instanceof LogProblem && error.missing) return undefined;
			fail(error);
			return undefined;
		}
	};
	const write = (record: LedgerRecord): boolean => {
		const file = current();
		if (file === undefined) return false;
		try {
			file.append(JSON.stringify(record));
			return true;
		} catch (error) {
			fail(error);
			return false;
		}
	};
	const read = (mine?: string) => {
		const file = current();
		if (file === undefined) return undefined;
		try {
			return replay(file.readNew(), ledger, false, mine);
		} catch (error) {
			fail(error);
			return undefined;
		}
	};
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
			if (!write(record)) return fallback.reserve(request);
			const verdict = read(id);
			if (verdict === true) return { granted: true, id };
			if (verdict === undefined) return fallback.reserve(request);
			return { granted: false, reason: verdict };
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
