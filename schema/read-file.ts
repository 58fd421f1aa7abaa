// Reads the config file within bounds: regular files only (a FIFO would block forever, /dev/zero never ends), at
// most CONFIG_LIMITS.maxBytes, and an open that cannot block. Problems come back as a message, never thrown.

import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";

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

function kindOf(stats: Stats): string | undefined {
	if (stats.isFile()) return undefined;
	if (stats.isDirectory()) return "a directory";
	if (stats.isFIFO()) return "a named pipe (FIFO)";
	if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
	if (stats.isSocket()) return "a socket";
	return "not a regular file";
}

function refused(stats: Stats): ReadOutcome | undefined {
	const kind = kindOf(stats);
	if (kind !== undefined) {
		return { ok: false, missing: false, message: `${kind}, not a regular file`, fix: "point --config at a JSON5 file" };
	}
	return stats.size > CONFIG_LIMITS.maxBytes ? tooLarge(`${stats.size} bytes`) : undefined;
}

function tooLarge(size: string): ReadOutcome {
	return {
		ok: false,
		missing: false,
		message: `the file is ${size}; the limit is 1 MB (${CONFIG_LIMITS.maxBytes} bytes)`,
		fix: "a config is a few kilobytes: remove what is not configuration",
	};
}

/** Stat first (never open what could block), then open non-blocking and check again on the open descriptor. */
export function readConfigFile(file: string): ReadOutcome {
	let fd: number | undefined;
	try {
		const before = refused(statSync(file));
		if (before !== undefined) return before;
		// O_NONBLOCK: if the path was swapped for a FIFO after the stat, the open still returns at once.
		fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
		const after = refused(fstatSync(fd));
		if (after !== undefined) return after;
		const buffer = Buffer.alloc(CONFIG_LIMITS.maxBytes + 1);
		let length = 0;
		for (;;) {
			const n = readSync(fd, buffer, length, buffer.length - length, null);
			if (n === 0) break;
			length += n;
			// The file grew after the stat: stop at the cap all the same.
			if (length > CONFIG_LIMITS.maxBytes) return tooLarge(`more than ${CONFIG_LIMITS.maxBytes} bytes`);
		}
		return { ok: true, text: buffer.toString("utf8", 0, length) };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") return { ok: false, missing: true };
		return { ok: false, missing: false, message: `cannot read the file (${code ?? "error"})` };
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}
