// One file of a day's log of the local store (day-log.ts chains them): opened without following a symlink and
// without blocking on a FIFO, checked to be a regular file under a size cap, appended to with O_APPEND (one write
// per record, so records of concurrent processes never interleave) and read incrementally from where the last read
// stopped.

import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from "node:fs";

export const LOG_DEFAULTS = { maxBytes: 32 * 1024 * 1024, readChunkBytes: 1024 * 1024 };

/** A log that cannot be used, said with its fix (for `status` and the store's health). */
export class LogProblem extends Error {
	/** The file does not exist (an open that does not create it found that). */
	missing = false;
	/** The file is shorter than what was read of it: something else cut it short. */
	shrunk = false;
}

/** How a log is opened: `read` (status: never written), `write` (an existing file), `create` (made when missing). */
export type OpenMode = "read" | "write" | "create";

export interface LogFile {
	/** Complete lines appended since the last read (by any process); an incomplete last line waits. */
	readNew(): string[];
	append(line: string): void;
	close(): void;
}

function problem(path: string, error: unknown, writable: boolean): LogProblem {
	const code = (error as NodeJS.ErrnoException).code;
	if (code === "ENOENT") {
		const absent = new LogProblem(`${path} does not exist`);
		absent.missing = true;
		return absent;
	}
	if (code === "ELOOP") return new LogProblem(`${path} is a symbolic link; remove it (the store makes its own file)`);
	if (code === "EACCES" || code === "EROFS" || code === "EPERM") {
		return new LogProblem(
			`${path} cannot be ${writable ? "written" : "read"} (${code}); make it writable by you (chmod u+rw) or remove it`,
		);
	}
	return new LogProblem(`${path} cannot be opened (${code ?? String(error)}); remove it`);
}

/** Opens a log file (made with mode 0600). Throws LogProblem. */
export function openLog(path: string, mode: OpenMode): LogFile {
	const readOnly = mode === "read";
	const access = readOnly ? constants.O_RDONLY : constants.O_RDWR | constants.O_APPEND;
	const flags = access | (mode === "create" ? constants.O_CREAT : 0) | constants.O_NOFOLLOW | constants.O_NONBLOCK;
	let fd: number;
	try {
		fd = openSync(path, flags, 0o600);
	} catch (error) {
		throw problem(path, error, !readOnly);
	}
	const stat = fstatSync(fd);
	if (!stat.isFile()) {
		closeSync(fd);
		throw new LogProblem(`${path} is not a regular file; remove it (the store makes its own file)`);
	}
	if (stat.size > LOG_DEFAULTS.maxBytes) {
		closeSync(fd);
		throw new LogProblem(`${path} is larger than ${LOG_DEFAULTS.maxBytes / 1024 / 1024} MB; remove it`);
	}
	let offset = 0;
	return {
		readNew() {
			const size = fstatSync(fd).size;
			if (size < offset) {
				const shrunk = new LogProblem(`${path} was cut short (${size} bytes, ${offset} read) by something else`);
				shrunk.shrunk = true;
				throw shrunk;
			}
			if (size === offset) return [];
			if (size > LOG_DEFAULTS.maxBytes) throw new LogProblem(`${path} grew past its size cap; remove it`);
			const buffer = Buffer.allocUnsafe(size - offset);
			let read = 0;
			while (read < buffer.length) {
				const n = readSync(fd, buffer, read, buffer.length - read, offset + read);
				if (n === 0) break;
				read += n;
			}
			const end = buffer.lastIndexOf(0x0a, read - 1);
			if (end < 0) return [];
			offset += end + 1;
			return buffer.toString("utf8", 0, end).split("\n");
		},
		append(line) {
			// A leading newline ends whatever a process killed mid-write left, so only that record is lost.
			writeSync(fd, `\n${line}\n`);
		},
		close() {
			closeSync(fd);
		},
	};
}
