// The optional state file `<agentDir>/pi-web-access.state.json`: cooldowns and unusable keys survive a restart,
// so a dead backend is not hammered again, and today's spend per provider. Written atomically (temp + rename);
// keys appear only as fingerprints.

import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseSpendDay } from "./spend.ts";
import type { CooldownState, ExecutorStateSnapshot, KeyState } from "./types.ts";

export const STATE_FILE_NAME = "pi-web-access.state.json";

/** A key marked exhausted is retried after a day when the mark comes from a previous process (it may be topped up). */
export const PERSIST_DEFAULTS = { exhaustedForgetMs: 24 * 3_600_000 };

export function stateFilePath(agentDir: string): string {
	return join(agentDir, STATE_FILE_NAME);
}

export interface StateFile {
	/** The stored state, or undefined when the file is missing or unreadable (never throws). */
	load(): ExecutorStateSnapshot | undefined;
	/** Throws on I/O failure; the executor ignores such failures. */
	save(snapshot: ExecutorStateSnapshot): void;
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
	const { fingerprint, label, state, untilMs, sinceMs } = value;
	if (typeof fingerprint !== "string" || !/^[0-9a-f]{8,64}$/.test(fingerprint)) return undefined;
	const shown = typeof label === "string" ? label : "key";
	if (state === "rate-limited" && typeof untilMs === "number" && untilMs > nowMs) {
		return { fingerprint, label: shown, state, untilMs };
	}
	if (state === "exhausted" && typeof sinceMs === "number" && nowMs - sinceMs < PERSIST_DEFAULTS.exhaustedForgetMs) {
		return { fingerprint, label: shown, state, sinceMs };
	}
	return undefined;
}

/** Parses a state file's text; anything malformed is dropped entry by entry. */
export function parseState(text: string, nowMs: number): ExecutorStateSnapshot | undefined {
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch {
		return undefined;
	}
	if (!isRecord(data) || data.version !== 1) return undefined;
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

export function createStateFile(path: string, now: () => number = Date.now): StateFile {
	return {
		load() {
			let text: string;
			try {
				text = readFileSync(path, "utf8");
			} catch {
				return undefined;
			}
			return parseState(text, now());
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
			mkdirSync(dirname(path), { recursive: true });
			const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
			try {
				writeFileSync(temp, `${JSON.stringify(data, null, "\t")}\n`, { mode: 0o600 });
				renameSync(temp, path);
			} catch (error) {
				rmSync(temp, { force: true });
				throw error;
			}
		},
	};
}

/**
 * A view of the state file that loads and saves only today's spend, keeping the rest of the file as it is: for a
 * one-off process (the CLI) whose spend must count towards daily budgets but whose cooldowns should not outlive it.
 */
export function spendOnly(file: StateFile): StateFile {
	return {
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
