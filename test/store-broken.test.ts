// Broken state of the local store, through real CLI processes with a temp HOME: a corrupted, truncated, huge,
// symlinked, misplaced or unwritable log is said by status and check with its fix, searches and zero-config go on,
// and nothing else is lost: the broken file is left as it was, other records and other days' logs are kept.

import {
	appendFileSync,
	chmodSync,
	lstatSync,
	mkdirSync,
	readFileSync,
	readlinkSync,
	statSync,
	symlinkSync,
	truncateSync,
	writeFileSync,
} from "node:fs";
import { describe, expect, it } from "vitest";
import { utcDay } from "../executor/spend.ts";
import { logPath } from "../executor/store/local/store.ts";
import { answers, exaToday, PRICE, storeWorlds } from "./helpers/store-world.ts";

const { servers, world } = storeWorlds();
const DAY_MS = 86_400_000;
const today = () => utcDay(Date.now());

/** What a path is now, to check a broken file is left exactly as it was. */
function shape(path: string): string {
	const stat = lstatSync(path);
	if (stat.isSymbolicLink()) return `link to ${readlinkSync(path)}`;
	if (stat.isDirectory()) return "folder";
	return `file of ${stat.size} bytes, mode ${(stat.mode & 0o777).toString(8)}`;
}

describe("local state store: broken files", () => {
	it("status in a HOME where pi's agent dir does not exist yet: the store is ok, nothing spent, nothing made", async () => {
		const w = world();
		for (const bare of [false, true]) {
			const run = await w.cli(["status", "--json"], bare);
			expect(run.code, run.stderr).toBe(0);
			expect(JSON.parse(run.stdout).store).toEqual({ kind: "local", location: w.agent, state: "ok" });
		}
		expect(() => lstatSync(w.agent)).toThrow(/ENOENT/);
	}, 30_000);

	it("a corrupted log (binary bytes, lines of other shapes between records) costs those lines only, said in status", async () => {
		const w = world();
		servers.exa.respond(...answers(2));
		expect((await w.cli(["search", "--json", "one"])).code).toBe(0);
		const junk = [
			Buffer.from([0x00, 0xff, 0xfe, 0x0a, 0x1b, 0x5b, 0x32, 0x4a, 0x0a]),
			Buffer.from(
				'{"t":"s","p":"exa","usd":-5,"at":1}\n[1,2,3]\n{"t":"zz","at":1}\nnot json\n{"t":"S","at":1,"spend":7}\n',
			),
		];
		for (const bytes of junk) appendFileSync(logPath(w.agent, today()), bytes);
		expect((await w.cli(["search", "--json", "two"])).code).toBe(0);
		const report = await w.status();
		expect(exaToday(report)?.todayUsd).toBeCloseTo(2 * PRICE, 9);
		expect(report.store).toMatchObject({ kind: "local", state: "ok", detail: "7 unreadable record(s) skipped" });
		expect((await w.cli(["status"])).stdout).toContain("7 unreadable record(s) skipped");
	}, 30_000);

	it("a log truncated in the middle of a record keeps the records before the cut, and later ones count", async () => {
		const w = world();
		servers.exa.respond(...answers(3));
		for (const query of ["one", "two"]) expect((await w.cli(["search", "--json", query])).code).toBe(0);
		const path = logPath(w.agent, today());
		truncateSync(path, statSync(path).size - 10);
		expect((await w.cli(["search", "--json", "three"])).code).toBe(0);
		const report = await w.status();
		expect(exaToday(report)?.todayUsd).toBeCloseTo(2 * PRICE, 9);
		expect(report.store).toMatchObject({ kind: "local", state: "ok", detail: "1 unreadable record(s) skipped" });
	}, 30_000);

	it("a torn record (a process killed mid-write) costs that record only", async () => {
		const w = world();
		servers.exa.respond(...answers(2));
		expect((await w.cli(["search", "--json", "one"])).code).toBe(0);
		appendFileSync(logPath(w.agent, today()), '\n{"t":"s","p":"exa","usd":0.5,"a');
		expect((await w.cli(["search", "--json", "two"])).code).toBe(0);
		const report = await w.status();
		expect(exaToday(report)?.todayUsd).toBeCloseTo(2 * PRICE, 9);
		expect(report.store).toMatchObject({ kind: "local", state: "ok", detail: "1 unreadable record(s) skipped" });
	}, 30_000);

	const broken: Array<[string, (path: string) => void, RegExp]> = [
		["a symlinked log", (path) => symlinkSync("/etc/hostname", path), /symbolic link/],
		["a huge log", (path) => writeFileSync(path, Buffer.alloc(33 * 1024 * 1024, 0x20)), /larger than 32 MB/],
		["a folder in the log's place", (path) => mkdirSync(path), /not a regular file|cannot be opened/],
		[
			"a read-only log",
			(path) => {
				writeFileSync(path, "");
				chmodSync(path, 0o400);
			},
			/cannot be written/,
		],
	];
	// root writes through a mode of 0400: then the folder that cannot be made stands for the unwritable log.
	const root0 = process.getuid?.() === 0;
	if (root0) broken.pop();
	it("an agent dir that cannot be made (a file is in its way): status says so, and searches still work", async () => {
		const w = world();
		writeFileSync(w.agent, "not a folder");
		servers.exa.respond(...answers(1));
		const run = await w.cli(["search", "--json", "still works"]);
		expect(run.code, run.stderr).toBe(0);
		const report = await w.status();
		expect(report.store).toMatchObject({ kind: "local", state: "degraded" });
		expect(report.store.detail).toMatch(/ENOTDIR|ENOENT|EEXIST/);
	}, 30_000);
	for (const [name, make, said] of broken) {
		it(`${name}: status says so with the fix, searches and zero-config go on, and nothing else is lost`, async () => {
			const w = world();
			mkdirSync(w.agent, { recursive: true });
			const path = logPath(w.agent, today());
			make(path);
			const before = shape(path);
			const hostname = readFileSync("/etc/hostname", "utf8");
			// Yesterday's log (its cooldowns count today) is another day's file: never touched.
			const yesterday = logPath(w.agent, utcDay(Date.now() - DAY_MS));
			writeFileSync(yesterday, `\n${JSON.stringify({ t: "s", p: "exa", usd: 1, at: Date.now() - DAY_MS })}\n`);
			servers.exa.respond(...answers(1));
			const run = await w.cli(["search", "--json", "still works"]);
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).toMatch(said); // the run says once that its state stayed in the process
			const report = await w.status();
			expect(report.store.state).toBe("degraded");
			expect(report.store.detail).toMatch(said);
			expect((await w.cli(["status"])).stdout).toMatch(said);
			const checked = JSON.parse((await w.cli(["check", "--json"])).stdout);
			expect(checked.store).toMatchObject({ kind: "local", state: "degraded" });
			expect(checked.store.detail).toMatch(said);
			// Zero-config (no config file at all) reports the same and exits 0.
			for (const command of ["status", "check"]) {
				const bare = await w.cli([command, "--json"], true);
				expect(bare.code, bare.stderr).toBe(0);
				expect(JSON.parse(bare.stdout).store.detail).toMatch(said);
			}
			expect(shape(path)).toBe(before);
			expect(readFileSync("/etc/hostname", "utf8")).toBe(hostname);
			expect(statSync(yesterday).size).toBeGreaterThan(0);
		}, 60_000);
	}
});
