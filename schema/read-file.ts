// Reads the config file within bounds (providers/read-bounded.ts: regular files only, at most CONFIG_LIMITS.maxBytes,
// an open that cannot block), the refusal worded with a fix for a config. Problems come back as data, never thrown.

import { readBounded, refusalText } from "../providers/read-bounded.ts";

export const CONFIG_LIMITS = {
	/** Larger files are refused whole: a config is a few kilobytes; 1 MB is far beyond any real one. */
	maxBytes: 1024 * 1024,
	/** Diagnostics printed in full; the rest are counted in one last line. */
	maxDiagnostics: 50,
};

export type ReadOutcome =
	| { ok: true; text: string }
	| { ok: false; missing: true }
	| { ok: false; missing: false; message: string; fix?: string };

export function readConfigFile(file: string): ReadOutcome {
	const read = readBounded(file, CONFIG_LIMITS.maxBytes);
	if (read.ok || read.missing) return read;
	const message = refusalText(read, CONFIG_LIMITS.maxBytes);
	if ("kind" in read) return { ok: false, missing: false, message, fix: "point --config at a JSON5 file" };
	if ("size" in read) {
		return { ok: false, missing: false, message, fix: "a config is a few kilobytes: remove what is not configuration" };
	}
	return { ok: false, missing: false, message };
}
