// The optional state file `<agentDir>/pi-web-access.state.json`: cooldowns and unusable keys survive a restart,
// so a dead backend is not hammered again, and today's spend per provider. Written atomically (temp + rename);
// keys appear only as fingerprints. Read with the config file's guards (providers/read-bounded.ts); a file that is there but
// not a state file is moved aside before the first write, and every problem is kept for status to show.

import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readBounded, refusalText } from "../providers/read-bounded.ts";
import { parseSpendDay } from "./spend.ts";
import type { CooldownState, ExecutorStateSnapshot, KeyState } from "./types.ts";

export const STATE_FILE_NAME = "pi-web-access.state.json";

/** A key marked exhausted is retried after a day when the mark comes from a previous process (it may be topped up). */
export const PERSIST_DEFAULTS = {
	exhaustedForgetMs: 24 * 3_600_000,
	/** Larger files are refused: a state file holds a few entries per provider, far below 1 MB. */
	maxBytes: 1024 * 1024,
};

/** Where a state file that could not be read is moved before a fresh one is written. */
export function setAsidePath(path: string): string {
	return `${path}.corrupt`;
}

/**
 * What status says about the state file. `corrupt`: there, but not a state file (not JSON, cut short, another
 * version); `unreadable`: not a regular file, over the size cap, or a read error; `unwritable`: the last write failed.
 * Either of the first two means the spend it held is not counted.
 */
export interface StateFileHealth {
	state: "ok" | "absent" | "corrupt" | "unreadable" | "unwritable";
	reason?: string;
	/** A file set aside (by this process or an earlier one) because it could not be read: it is kept for the user. */
	setAside?: string;
}

export function stateFilePath(agentDir: string): string {
	return join(agentDir, STATE_FILE_NAME);
}

export interface StateFile {
	/** The stored state, or undefined when the file is missing or unreadable (never throws). */
	load(): ExecutorStateSnapshot | undefined;
	/** Throws on I/O failure; the executor ignores such failures, health() keeps them. */
	save(snapshot: ExecutorStateSnapshot): void;
	/** What the last load and save came to (for status). */
	health?(): StateFileHealth;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function cooldownOf(value: unknown): CooldownState | undefined {
	if (!isRecord(value)) return undefined;
	const { provider, untilMs, failures, reason } = value;
	if (typeof provider !== "string" || typeof untilMs !== "number" || typeof failures !== "number") return undefined;
	return { provider, untilMs, failures, reason: typeof reason === "string" ? reason : "" };
}

function keyOf(value: unknown, nowMs: number): KeyState | undefined {
	if (!isRecord(value)) return undefined;
	const { fingerprint, label, state, untilMs, sinceMs, refused } = value;
	if (typeof fingerprint !== "string" || !/^[0-9a-f]{8,64}$/.test(fingerprint)) return undefined;
	const shown = typeof label === "string" ? label : "key";
	if (state === "rate-limited" && typeof untilMs === "number" && untilMs > nowMs) {
		return { fingerprint, label: shown, state, untilMs };
	}
	if (state === "exhausted" && typeof sinceMs === "number" && nowMs - sinceMs < PERSIST_DEFAULTS.exhaustedForgetMs) {
		return { fingerprint, label: shown, state, sinceMs, ...(refused === true ? { refused } : {}) };
	}
	return undefined;
}

/** Parses a state file's text; anything malformed is dropped entry by entry. */
export function parseState(text: string, nowMs: number): ExecutorStateSnapshot | undefined {
	const data = stateData(text);
	if (typeof data === "string") return undefined;
	const cooldowns = Array.isArray(data.cooldowns) ? data.cooldowns.map(cooldownOf) : [];
	const keys = Array.isArray(data.keys) ? data.keys.map((entry) => keyOf(entry, nowMs)) : [];
	const spend = parseSpendDay(data.spend);
	return {
		version: 1,
		cooldowns: cooldowns.filter((entry) => entry !== undefined),
		keys: keys.filter((entry) => entry !== undefined),
		...(spend ? { spend } : {}),
	};
}

/** The file's object, or why it is not a state file. */
function stateData(text: string): Record<string, unknown> | string {
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch {
		return "not JSON (cut short or edited?)";
	}
	if (!isRecord(data) || data.version !== 1) return "not a version 1 state file";
	return data;
}

export function createStateFile(path: string, now: () => number = Date.now): StateFile {
	const aside = setAsidePath(path);
	let health: StateFileHealth = { state: "absent" };
	/** The path holds something that is not a state file: it is moved aside before the next write. */
	let bad = false;
	const noteAside = (): Pick<StateFileHealth, "setAside"> => (existsSync(aside) ? { setAside: aside } : {});
	return {
		health: () => ({ ...health }),
		load() {
			const read = readBounded(path, PERSIST_DEFAULTS.maxBytes);
			bad = false;
			if (read.ok) {
				const data = stateData(read.text);
				if (typeof data !== "string") {
					health = { state: "ok", ...noteAside() };
					return parseState(read.text, now());
				}
				health = { state: "corrupt", reason: data, ...noteAside() };
			} else if (read.missing || ("code" in read && read.code === "ENOTDIR")) {
				// ENOTDIR: a file stands where a folder on the path should be, so there is no state file (nor can be).
				health = { state: "absent", ...noteAside() };
				return undefined;
			} else {
				health = { state: "unreadable", reason: refusalText(read, PERSIST_DEFAULTS.maxBytes), ...noteAside() };
				// A folder is someone's on purpose: it is left where it is, and the write fails (unwritable).
				if ("kind" in read && read.kind === "a directory") return undefined;
			}
			bad = true;
			return undefined;
		},
		save(snapshot) {
			// Only the fields we know are copied, so nothing else a caller put in the object reaches the disk.
			const data: ExecutorStateSnapshot = {
				version: 1,
				cooldowns: snapshot.cooldowns.map(({ provider, untilMs, failures, reason }) => ({
					provider,
					untilMs,
					failures,
					reason,
				})),
				keys: snapshot.keys.map(({ fingerprint, label, state, untilMs, sinceMs }) => ({
					fingerprint,
					label,
					state,
					...(untilMs === undefined ? {} : { untilMs }),
					...(sinceMs === undefined ? {} : { sinceMs }),
				})),
				...(snapshot.spend ? { spend: parseSpendDay(snapshot.spend) } : {}),
			};
			const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
			try {
				mkdirSync(dirname(path), { recursive: true });
				// Renamed, never read or written through: a FIFO or a link moves aside as the entry it is.
				if (bad) renameSync(path, aside);
				writeFileSync(temp, `${JSON.stringify(data, null, "\t")}\n`, { mode: 0o600 });
				renameSync(temp, path);
			} catch (error) {
				const code = (error as NodeJS.ErrnoException).code ?? "error";
				health = { ...health, state: "unwritable", reason: `cannot write ${path} (${code})` };
				try {
					rmSync(temp, { force: true });
				} catch {
					// Nothing was written there (the folder itself is missing or not one).
				}
				throw error;
			}
			if (bad) health = { ...health, setAside: aside };
			else if (health.state !== "corrupt" && health.state !== "unreadable") health = { ...health, state: "ok" };
			bad = false;
		},
	};
}

/**
 * A view of the state file that loads and saves only today's spend, keeping the rest of the file as it is: for a
 * one-off process (the CLI) whose spend must count towards daily budgets but whose cooldowns should not outlive it.
 */
export function spendOnly(file: StateFile): StateFile {
	return {
		...(file.health ? { health: file.health } : {}),
		load() {
			const spend = file.load()?.spend;
			return { version: 1, cooldowns: [], keys: [], ...(spend ? { spend } : {}) };
		},
		save(snapshot) {
			const stored = file.load() ?? { version: 1, cooldowns: [], keys: [] };
			file.save({ ...stored, ...(snapshot.spend ? { spend: snapshot.spend } : {}) });
		},
	};
}
