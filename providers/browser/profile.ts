// A browser profile: the cookies and site storage (Playwright's storage-state JSON) that the user chose to keep
// between calls. Without one, every render starts with none. Read within bounds (a regular file, at most
// PROFILE_LIMITS.maxBytes, an open that cannot block); written back after a render, owner-only, through a rename.

import { randomUUID } from "node:crypto";
import { chmod, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { type BoundedRead, readBounded } from "../read-bounded.ts";

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
	const read = readBounded(path, PROFILE_LIMITS.maxBytes);
	if (!read.ok) {
		return read.missing ? {} : { warning: `the browser profile ${path} ${refusal(read)}: not used` };
	}
	let state: StorageState;
	try {
		state = JSON.parse(read.text) as StorageState;
	} catch {
		return { warning: `the browser profile ${path} is not JSON: not used` };
	}
	if (!Array.isArray(state?.cookies) || !Array.isArray(state?.origins)) {
		return { warning: `the browser profile ${path} is not a storage state (cookies and origins): not used` };
	}
	return { state };
}

function refusal(read: Exclude<BoundedRead, { ok: true } | { missing: true }>): string {
	if ("kind" in read) return "is not a regular file";
	if ("size" in read) return `is larger than ${PROFILE_LIMITS.maxBytes} bytes`;
	return `cannot be read (${read.code})`;
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
