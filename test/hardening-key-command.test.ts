// `!command` keys run in their own process group and leave nothing running: after a timeout, an abort, or the exit
// of the process that started them, the command and what it started are gone. Regression: a timed-out
// `sleep 100; echo k` kept running, re-parented to PID 1, because exec killed only the shell.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { KeyResolver } from "../runtime/key-expressions.ts";

const dir = mkdtempSync(join(tmpdir(), "pwa-keycmd-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let serial = 0;
/** A key command that starts a `sleep` child, writes its pid, and waits on it (the red-team's shape). */
function sleeper(): { expression: string; pidFile: string } {
	const pidFile = join(dir, `pid-${serial++}`);
	return { expression: `!sleep 100 & echo $! > '${pidFile}'; wait; echo k`, pidFile };
}

/** Running (a zombie waiting for a reaper that a container's PID 1 may never be counts as gone). */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8") : "";
	return !/^\d+ \(.*\) Z/.test(stat);
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Polls (bounded by a count of tries) until `test` holds; returns whether it did. */
async function eventually(test: () => boolean, tries = 100): Promise<boolean> {
	for (let i = 0; i < tries; i++) {
		if (test()) return true;
		await sleep(50);
	}
	return test();
}

async function pidOf(file: string): Promise<number> {
	expect(await eventually(() => existsSync(file) && readFileSync(file, "utf8").trim() !== "")).toBe(true);
	return Number(readFileSync(file, "utf8").trim());
}

describe("!command keys leave nothing running", () => {
	it("kills the command's whole group when it times out", async () => {
		const { expression, pidFile } = sleeper();
		const keys = new KeyResolver({ env: {} });
		await expect(keys.resolve(expression, 1500)).rejects.toThrow("key command timed out after 1500 ms");
		const pid = await pidOf(pidFile);
		expect(await eventually(() => !alive(pid))).toBe(true);
	});

	it("kills the command's whole group when the caller aborts", async () => {
		const { expression, pidFile } = sleeper();
		const keys = new KeyResolver({ env: {} });
		const controller = new AbortController();
		const pending = keys.resolve(expression, 60_000, controller.signal);
		const pid = await pidOf(pidFile);
		expect(alive(pid)).toBe(true);
		controller.abort();
		await expect(pending).rejects.toThrow("key command aborted");
		expect(await eventually(() => !alive(pid))).toBe(true);
	});

	it("keeps a shared run going while another caller still waits, and kills it when the last one aborts", async () => {
		const { expression, pidFile } = sleeper();
		const keys = new KeyResolver({ env: {} });
		const [first, second] = [new AbortController(), new AbortController()];
		const a = keys.resolve(expression, 60_000, first.signal);
		const b = keys.resolve(expression, 60_000, second.signal);
		const pid = await pidOf(pidFile);
		first.abort();
		await expect(a).rejects.toThrow("aborted");
		expect(alive(pid)).toBe(true);
		second.abort();
		await expect(b).rejects.toThrow("aborted");
		expect(await eventually(() => !alive(pid))).toBe(true);
	});

	it("kills the command's group when the process that started it exits", async () => {
		const { expression, pidFile } = sleeper();
		const module = pathToFileURL(join(import.meta.dirname, "../runtime/key-expressions.ts")).href;
		const script = [
			`import { KeyResolver } from ${JSON.stringify(module)};`,
			"import { existsSync } from 'node:fs';",
			`new KeyResolver({ env: {} }).resolve(${JSON.stringify(expression)}, 60000).catch(() => {});`,
			`const poll = setInterval(() => { if (existsSync(${JSON.stringify(pidFile)})) { clearInterval(poll); setTimeout(() => process.exit(0), 100); } }, 20);`,
		].join("\n");
		const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" });
		const code = await new Promise<number | null>((done) => child.on("exit", done));
		expect(code).toBe(0);
		const pid = await pidOf(pidFile);
		expect(await eventually(() => !alive(pid))).toBe(true);
	}, 20_000);

	it("still resolves a plain command's output and runs a failed one again", async () => {
		const keys = new KeyResolver({ env: {} });
		expect(await keys.resolve("!printf ' k-123 \\n'", 5000)).toBe("k-123");
		await expect(keys.resolve("!exit 3", 5000)).rejects.toThrow("key command failed (exit 3)");
		expect(await keys.resolve("!echo left && (sleep 30 &)", 5000)).toBe("left");
	});
});
