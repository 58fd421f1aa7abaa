// A browser profile: the cookies and site storage (Playwright's storage-state JSON) that the user chose to keep
// between calls. Without one, every render starts with none. Read within bounds (a regular file, at most
// PROFILE_LIMITS.maxBytes, an open that cannot block); written back after a render, owner-only, through a rename.

import { randomUUID } from "node:crypto";
import { constants } from "node:fs";
import { chmod, mkdir, open, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { BrowserContext } from "playwright-core";

export const PROFILE_LIMITS = {
	/** A profile past this is not read: cookies and storage of a few sites are kilobytes. */
	maxBytes: 8 * 1024 * 1024,
};

/** The cookies and per-origin storage a context hands out, and newContext({ storageState }) takes back. */
export type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

export interface LoadedProfile {
	/** Undefined for a profile not written yet (the first render creates it) or one that could not be read. */
	state?: StorageState;
	/** Why a profile on disk was not used (the render goes on without it). */
	warning?: string;
}

/** `~/` is the user's home, as in a shell; other paths are taken as given. */
export function profilePath(path: string, env: Record<string, string | undefined> = process.env): string {
	return path.startsWith("~/") ? join(env.HOME || homedir(), path.slice(2)) : path;
}

export async function loadProfile(path: string): Promise<LoadedProfile> {
	let handle: Awaited<ReturnType<typeof open>> | undefined;
	try {
		// O_NONBLOCK: a FIFO put in the profile's place opens at once and is refused below, instead of blocking.
		handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
		const stats = await handle.stat();
		if (!stats.isFile()) return { warning: `the browser profile ${path} is not a regular file: not used` };
		if (stats.size > PROFILE_LIMITS.maxBytes) {
			return { warning: `the browser profile ${path} is larger than ${PROFILE_LIMITS.maxBytes} bytes: not used` };
		}
		const buffer = Buffer.alloc(stats.size);
		const { bytesRead } = await handle.read(buffer, 0, stats.size, 0);
		const state = JSON.parse(buffer.toString("utf8", 0, bytesRead)) as StorageState;
		if (!Array.isArray(state?.cookies) || !Array.isArray(state?.origins)) {
			return { warning: `the browser profile ${path} is not a storage state (cookies and origins): not used` };
		}
		return { state };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") return {};
		const why = error instanceof SyntaxError ? "is not JSON" : `cannot be read (${code ?? "error"})`;
		return { warning: `the browser profile ${path} ${why}: not used` };
	} finally {
		await handle?.close();
	}
}

/** Writes the context's cookies and storage to `path` (owner-only, a new file renamed over the old one). */
export async function saveProfile(path: string, context: BrowserContext): Promise<string | undefined> {
	const temp = `${path}.${randomUUID()}.tmp`;
	try {
		const state = await context.storageState();
		await mkdir(dirname(path), { recursive: true, mode: 0o700 });
		// flag "wx": never through a file or link already at the temp name.
		await writeFile(temp, JSON.stringify(state), { mode: 0o600, flag: "wx" });
		await chmod(temp, 0o600);
		await rename(temp, path);
		return undefined;
	} catch (error) {
		await rm(temp, { force: true }).catch(() => {});
		const code = (error as NodeJS.ErrnoException).code;
		return `the browser profile ${path} could not be saved (${code ?? "the page closed"}): this call's cookies are not kept`;
	}
}
