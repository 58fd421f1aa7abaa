// Reads a small file the tool keeps (the config file, the state file) within bounds: regular files only (a FIFO
// would block forever, /dev/zero never ends), at most `maxBytes`, and an open that cannot block. Never throws.

import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";

/** Why a file that is there was not read: what it is, its size over the cap, or the error's code. */
export type BoundedRead =
	| { ok: true; text: string }
	| { ok: false; missing: true }
	| { ok: false; missing: false; kind: string }
	| { ok: false; missing: false; size: string }
	| { ok: false; missing: false; code: string };

/** What a path is when it is not a regular file (`a named pipe (FIFO)`, `a device`), else undefined. */
export function kindOf(stats: Stats): string | undefined {
	if (stats.isFile()) return undefined;
	if (stats.isDirectory()) return "a directory";
	if (stats.isFIFO()) return "a named pipe (FIFO)";
	if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
	if (stats.isSocket()) return "a socket";
	return "not a regular file";
}

function refused(stats: Stats, maxBytes: number): BoundedRead | undefined {
	const kind = kindOf(stats);
	if (kind !== undefined) return { ok: false, missing: false, kind };
	return stats.size > maxBytes ? { ok: false, missing: false, size: `${stats.size} bytes` } : undefined;
}

/** Stat first (never open what could block), then open non-blocking and check again on the open descriptor. */
export function readBounded(file: string, maxBytes: number): BoundedRead {
	let fd: number | undefined;
	try {
		const before = refused(statSync(file), maxBytes);
		if (before !== undefined) return before;
		// O_NONBLOCK: if the path was swapped for a FIFO after the stat, the open still returns at once.
		fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
		const after = refused(fstatSync(fd), maxBytes);
		if (after !== undefined) return after;
		const buffer = Buffer.alloc(maxBytes + 1);
		let length = 0;
		for (;;) {
			const n = readSync(fd, buffer, length, buffer.length - length, null);
			if (n === 0) break;
			length += n;
			// The file grew after the stat: stop at the cap all the same.
			if (length > maxBytes) return { ok: false, missing: false, size: `more than ${maxBytes} bytes` };
		}
		return { ok: true, text: buffer.toString("utf8", 0, length) };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") return { ok: false, missing: true };
		return { ok: false, missing: false, code: code ?? "error" };
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

/** A refusal in words: `a named pipe (FIFO), not a regular file`, `the file is 2 MB bytes; the limit is …`. */
export function refusalText(read: Exclude<BoundedRead, { ok: true } | { missing: true }>, maxBytes: number): string {
	if ("kind" in read) return `${read.kind}, not a regular file`;
	if ("size" in read)
		return `the file is ${read.size}; the limit is ${maxBytes / (1024 * 1024)} MB (${maxBytes} bytes)`;
	return `cannot read the file (${read.code})`;
}

/** A JSON object file (pi's trust.json, settings.json, auth.json) read within bounds; undefined when absent or broken. */
export function readJsonObject(file: string, maxBytes: number): Record<string, unknown> | undefined {
	const read = readBounded(file, maxBytes);
	if (!read.ok) return undefined;
	try {
		const data: unknown = JSON.parse(read.text.replace(/^\uFEFF/, ""));
		return data !== null && typeof data === "object" && !Array.isArray(data)
			? (data as Record<string, unknown>)
			: undefined;
	} catch {
		return undefined;
	}
}
