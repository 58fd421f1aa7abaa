// Config reading is bounded: a FIFO, a device or a directory given as the config is a located error (never an open
// that blocks), files over 1 MB are refused saying so, diagnostics stop after 50 with a count of the rest, and a
// config file named by --config or PI_WEB_ACCESS_CONFIG that does not exist is an error for every command.
// Regressions: a FIFO hung `check` forever, /dev/zero aborted it, 1M unknown keys printed 1M lines, and
// `explain --config /nonexistent` ran the zero-config defaults.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import { CONFIG_LIMITS } from "../schema/read-file.ts";

const dir = mkdtempSync(join(tmpdir(), "pwa-cfg-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[], env: Record<string, string> = {}) {
	const out: string[] = [];
	const err: string[] = [];
	const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), env: { HOME: dir, ...env } };
	const code = await main(argv, io);
	return { code, out: out.join(""), err: err.join("") };
}

describe("bounded config reading", () => {
	it("refuses a FIFO as the config without opening it (regression: check hung forever)", async () => {
		const fifo = join(dir, "fifo.json5");
		execFileSync("mkfifo", [fifo]);
		const { code, out } = await cli(["check", "--config", fifo]);
		expect(code).toBe(1);
		expect(out).toContain(`${fifo}:1:1: error: a named pipe (FIFO), not a regular file`);
	});

	it("refuses a device and a directory with a located error", async () => {
		const device = await cli(["check", "--config", "/dev/zero"]);
		expect(device.code).toBe(1);
		expect(device.out).toContain("/dev/zero:1:1: error: a device, not a regular file");
		const folder = join(dir, "folder");
		mkdirSync(folder);
		const directory = await cli(["check", "--config", folder]);
		expect(directory.code).toBe(1);
		expect(directory.out).toContain(`${folder}:1:1: error: a directory, not a regular file`);
	});

	it("refuses a file over 1 MB and says the limit", async () => {
		const big = join(dir, "big.json5");
		writeFileSync(big, `{x:"${"a".repeat(CONFIG_LIMITS.maxBytes)}"}`);
		const { code, out } = await cli(["check", "--config", big]);
		expect(code).toBe(1);
		expect(out).toMatch(/big\.json5:1:1: error: the file is \d+ bytes; the limit is 1 MB \(1048576 bytes\)/);
	});

	it("prints the first 50 diagnostics and then how many more", async () => {
		const file = join(dir, "unknown.json5");
		writeFileSync(file, `{${Array.from({ length: 2000 }, (_, i) => `k${i}: 1`).join(",\n")}}`);
		const { out } = await cli(["check", "--config", file]);
		// 50 located diagnostics, the one that counts the rest; then check's own chain warnings and its summary.
		const lines = out
			.trim()
			.split("\n")
			.filter((line) => line.startsWith(`${file}:`));
		expect(lines.length).toBeGreaterThanOrEqual(51);
		expect(lines[50]).toContain("and 1950 more problems (only the first 50 are shown)");
		expect(lines.slice(0, 50).every((line) => line.includes("unknown key"))).toBe(true);
		const json = JSON.parse((await cli(["check", "--json", "--config", file])).out) as {
			diagnostics: Array<{ message: string }>;
		};
		expect(json.diagnostics[50]?.message).toContain("and 1950 more problems");
		expect(json.diagnostics.length).toBeLessThan(60);
	});

	it("loads a 1 MB file (the largest accepted) in bounded memory", () => {
		const file = join(dir, "largest.json5");
		const keys: string[] = [];
		for (let n = 0, size = 2; size + `k${n}:1,`.length <= CONFIG_LIMITS.maxBytes; n++) {
			keys.push(`k${n}:1,`);
			size += keys[n]!.length;
		}
		writeFileSync(file, `{${keys.join("")}}`);
		const load = pathToFileURL(join(import.meta.dirname, "../schema/load.ts")).href;
		const script = `import { loadConfig } from ${JSON.stringify(load)};
			const base = process.resourceUsage().maxRSS;
			const loaded = loadConfig({ explicit: ${JSON.stringify(file)}, env: {} });
			console.log(JSON.stringify({ n: loaded.diagnostics.length, base, peak: process.resourceUsage().maxRSS }));`;
		const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
		const { n, base, peak } = JSON.parse(run.stdout) as { n: number; base: number; peak: number };
		console.log(`config cap: ${keys.length} unknown keys in 1 MB: peak RSS ${Math.round(peak / 1024)} MB`);
		expect(n).toBe(CONFIG_LIMITS.maxDiagnostics + 1);
		// 1 MB of the worst kind (one diagnostic per 8 bytes) stays far below what the red team saw for 50 MB (1.97 GB).
		expect((peak - base) / 1024).toBeLessThan(600);
	}, 120_000);
});

describe("a named config file that does not exist", () => {
	const missing = join(dir, "nope", "pi-web-access.json");
	const commands = [
		["check"],
		["explain", "fetch", "https://example.com/"],
		["explain", "search", "q"],
		["search", "q"],
		["fetch", "https://example.com/"],
		["status"],
	];

	for (const argv of commands) {
		it(`is one error and exit 1 for ${argv[0]} ${argv[1] ?? ""} (regression: zero-config ran)`, async () => {
			for (const run of [
				await cli([...argv, "--config", missing]),
				await cli(argv, { PI_WEB_ACCESS_CONFIG: missing }),
			]) {
				expect(run.code).toBe(1);
				const text = run.out + run.err;
				expect(text.match(/file not found/g)).toHaveLength(1);
				expect(text).toContain(missing);
				expect(text).not.toContain("zero-config");
			}
		});
	}
});
