// pi's auth.json as the CLI's read-only commands see it: read once, within a bound, never changed, and a file that
// is too big, broken or not a regular file reads as no credentials instead of costing memory or blocking.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readOnlyCredentials } from "../runtime/read-only-credentials.ts";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function authFile(): string {
	const dir = mkdtempSync(join(tmpdir(), "pwa-auth-"));
	dirs.push(dir);
	return join(dir, "auth.json");
}
const stored = { openai: { type: "api_key", key: "sk-test-synthetic-0001" } };

describe("readOnlyCredentials", () => {
	it("reads pi's stored credentials (a byte-order mark too) and lists them", async () => {
		const file = authFile();
		writeFileSync(file, `\uFEFF${JSON.stringify(stored)}`);
		const store = readOnlyCredentials(file);
		expect(await store.read("openai")).toEqual(stored.openai);
		expect(await store.list()).toEqual([{ providerId: "openai", type: "api_key" }]);
	});

	it("never changes the file, and leaves nothing beside it", async () => {
		const file = authFile();
		const text = JSON.stringify(stored);
		writeFileSync(file, text);
		const store = readOnlyCredentials(file);
		await expect(store.modify("openai", () => undefined as never)).rejects.toThrow(/never changes them/);
		await expect(store.delete("openai")).rejects.toThrow(/never changes them/);
		expect(readFileSync(file, "utf8")).toBe(text);
		expect(readdirSync(join(file, ".."))).toEqual(["auth.json"]);
	});

	it("reads a file over the bound as no credentials, without reading it", async () => {
		const file = authFile();
		const text = JSON.stringify({ ...stored, padding: "x".repeat(2048) });
		writeFileSync(file, text);
		expect(await readOnlyCredentials(file, text.length - 1).read("openai")).toBeUndefined();
		expect(await readOnlyCredentials(file, text.length).read("openai")).toEqual(stored.openai);
	});

	it("reads a named pipe as no credentials at once instead of waiting for a writer", async () => {
		const file = authFile();
		execFileSync("mkfifo", [file]);
		expect(await readOnlyCredentials(file).list()).toEqual([]);
	});

	it("reads a missing, broken or non-object file as no credentials", async () => {
		const missing = authFile();
		expect(await readOnlyCredentials(missing).list()).toEqual([]);
		for (const text of ["{ not json", "[1, 2]", "null"]) {
			const file = authFile();
			writeFileSync(file, text);
			expect(await readOnlyCredentials(file).list()).toEqual([]);
		}
	});
});
