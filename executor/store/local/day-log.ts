// One UTC day of the local store: a chain of log files (generation 0 is `<day>.log`, then `<day>.<n>.log`), so a
// day's log is compacted without a rename that a concurrent O_APPEND writer could lose a record to. Compaction
// appends a marker to the current file; the file's state up to its first marker is written as a snapshot into the
// next file, and the old file is unlinked (processes that still hold it open keep reading it). Lines after the
// first marker belong to no one: their writer finds its own line there and writes it again into the next file.

import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { LedgerRecord, LedgerSnapshot } from "../ledger.ts";
import { type LogFile, LogProblem, openLog } from "./log-file.ts";
import { type LogRecord, parseRecord } from "./records.ts";

export const DAY_LOG_DEFAULTS = {
	/** A file read past this size is compacted: a process's first read of the day replays at most about this much. */
	compactBytes: 512 * 1024,
	/** Tries at a first read when a file listed is gone before it is opened (another process compacted it). */
	openTries: 5,
};

const LOG_PREFIX = "pi-web-access.state.";
/** A log file's name: the prefix, the day, the generation past 0. */
const LOG_NAME = new RegExp(
	`^${LOG_PREFIX.replaceAll(".", "\\.")}(\\d{4}-\\d{2}-\\d{2})(?:\\.([1-9]\\d{0,8}))?\\.log$`,
);

/** The file of generation `gen` of `day`. */
export function logPath(dir: string, day: string, gen = 0): string {
	return join(dir, `${LOG_PREFIX}${day}${gen === 0 ? "" : `.${gen}`}.log`);
}

/** The day and generation of a log file's name, undefined for any other name. */
export function logName(name: string): { day: string; gen: number } | undefined {
	const match = LOG_NAME.exec(name);
	return match ? { day: match[1]!, gen: match[2] === undefined ? 0 : Number(match[2]) } : undefined;
}

/** Where the records read go (the local store's ledger). */
export interface LogSink {
	apply(record: LedgerRecord): void;
	/** The day starts from a compacted file's snapshot (called before any record of the day is applied). */
	restore(snapshot: LedgerSnapshot): void;
	/** The state up to the last record applied, for the next file's snapshot. */
	snapshot(at: number): LedgerSnapshot;
	/** Forget the day's state: it is read again from the newest snapshot (this process fell behind a compaction). */
	reset(): void;
	/** A line that is not a record of the store's shape. */
	unreadable(): void;
}

export interface DayLogOptions {
	/** Reads only: creates, compacts and removes nothing (status). */
	readOnly: boolean;
	/** This process's tag on each line it writes, which finds its own line after a marker. */
	writer: string;
	now: () => number;
}

export interface DayLog {
	/** Replays what was appended since the last read, following the chain to its newest file. Throws LogProblem. */
	read(): void;
	/** Appends one record (then reads, so a record that landed after a marker is written again). Throws LogProblem. */
	append(record: LedgerRecord): void;
	close(): void;
}

/** Generations of `day` present in `dir`, newest first. */
function generations(dir: string, day: string): number[] {
	const gens: number[] = [];
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch (error) {
		// No folder yet (status before any run): no file either; any other failure is the open's to say.
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return gens;
		throw error;
	}
	for (const name of names) {
		const parsed = logName(name);
		if (parsed?.day === day) gens.push(parsed.gen);
	}
	return gens.sort((a, b) => b - a);
}

/** Opens `day`'s chain at the newest file whose snapshot (or being the oldest left) makes it a start. */
export function openDayLog(dir: string, day: string, sink: LogSink, options: DayLogOptions): DayLog {
	const tag = `"w":${JSON.stringify(options.writer)}`;
	let file!: LogFile;
	let gen = 0;
	/** The current file's lines after its first marker are ignored. */
	let moved = false;
	/** The line this process wrote and has not read back yet (at most one: each append reads after it). */
	let pending: string | undefined;
	let size = 0;
	/** Times the current read started the day again. */
	let restarts = 0;

	const replay = (record: LogRecord) => {
		if (record.t === "m") moved = true;
		else if (record.t !== "S") sink.apply(record);
	};
	const lines = (batch: string[]) => {
		for (const line of batch) {
			if (line === "") continue;
			size += line.length + 1;
			if (moved) continue;
			if (line === pending) pending = undefined;
			const record = parseRecord(line);
			if (record === undefined) sink.unreadable();
			else replay(record);
		}
	};

	/** The first read: the newest file that starts with a snapshot, or the oldest left, replayed from its start. */
	const start = () => {
		for (let tries = 0; tries < DAY_LOG_DEFAULTS.openTries; tries++) {
			const gens = generations(dir, day);
			const listed = gens.length > 0;
			// No file yet: a writer makes the day's first; a reader finds none (LogProblem.missing).
			if (!listed) gens.push(0);
			for (const [index, candidate] of gens.entries()) {
				let opened: LogFile;
				try {
					opened = openLog(
						logPath(dir, day, candidate),
						options.readOnly ? "read" : candidate === 0 ? "create" : "write",
					);
				} catch (error) {
					// Gone since it was listed: another process compacted it; list again.
					if (error instanceof LogProblem && error.missing && listed) break;
					throw error;
				}
				const batch = opened.readNew();
				const records = batch.map((line) => (line === "" ? undefined : parseRecord(line)));
				const first = records.findIndex((record) => record?.t === "S");
				if (first < 0 && index < gens.length - 1) {
					opened.close();
					continue;
				}
				file = opened;
				gen = candidate;
				const snap = records[first];
				if (snap?.t === "S") sink.restore(snap);
				// Older files are covered by this snapshot (a compaction killed before removing them left them).
				if (snap !== undefined && !options.readOnly)
					for (const old of gens.slice(index + 1)) rmSync(logPath(dir, day, old), { force: true });
				for (const [i, record] of records.entries()) {
					if (batch[i] === "") continue;
					size += batch[i]!.length + 1;
					if (moved) continue;
					if (record === undefined) sink.unreadable();
					else replay(record);
				}
				return;
			}
		}
		throw new LogProblem(`${logPath(dir, day)}: its files kept changing while being opened; try again`);
	};

	/** This process fell behind: the file after its own was compacted and removed. The day is read again. */
	const restart = () => {
		// A chain with a file missing (removed by hand) would send every read round again: bounded, then said.
		if (++restarts > DAY_LOG_DEFAULTS.openTries) {
			throw new LogProblem(`${logPath(dir, day)}: its files kept changing while being read; remove them`);
		}
		const own = pending;
		file.close();
		sink.reset();
		moved = false;
		size = 0;
		start();
		if (own !== undefined) file.append(own);
	};

	/** The current file reached its marker: on to the next, with the state at the marker as its snapshot. */
	const next = (): boolean => {
		const state = sink.snapshot(options.now());
		const previous = logPath(dir, day, gen);
		const own = pending;
		const path = logPath(dir, day, gen + 1);
		const newer = () => generations(dir, day).some((g) => g > gen + 1);
		let opened: LogFile;
		try {
			// The compacting process made the next file before its marker: a missing one was compacted in turn.
			opened = openLog(path, options.readOnly ? "read" : "write");
		} catch (error) {
			if (!(error instanceof LogProblem && error.missing)) throw error;
			if (generations(dir, day).some((g) => g > gen)) {
				restart();
				return true;
			}
			// A marker with no file after it (not written by this store): the state there is whole.
			if (options.readOnly) return false;
			opened = openLog(path, "create");
		}
		const batch = opened.readNew();
		const hasSnapshot = batch.some((line) => parseRecord(line)?.t === "S");
		if (!hasSnapshot && newer()) {
			// Made again by a process as far behind as this one, after it had been compacted: not the day's file.
			opened.close();
			restart();
			return true;
		}
		file.close();
		file = opened;
		gen++;
		moved = false;
		size = 0;
		lines(batch);
		if (options.readOnly) return true;
		if (!hasSnapshot) file.append(JSON.stringify({ t: "S", at: options.now(), ...state }));
		// The snapshot now covers the previous file: processes that still hold it open read on from their fd.
		rmSync(previous, { force: true });
		if (own !== undefined && pending === own) file.append(own);
		return true;
	};

	const read = () => {
		restarts = 0;
		for (;;) {
			lines(file.readNew());
			if (!moved || !next()) return;
		}
	};

	start();
	read();
	return {
		read,
		append(record) {
			const line = `${JSON.stringify(record).slice(0, -1)},${tag}}`;
			pending = line;
			file.append(line);
			read();
			if (!options.readOnly && size > DAY_LOG_DEFAULTS.compactBytes && !moved) {
				// The next file first, then the marker: a process that finds no next file after a marker knows it fell
				// behind a later compaction.
				openLog(logPath(dir, day, gen + 1), "create").close();
				file.append(JSON.stringify({ t: "m", at: options.now() }));
				read();
			}
		},
		close() {
			file.close();
		},
	};
}
