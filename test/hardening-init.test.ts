// `init` writes only a regular file at the path it names: a FIFO (or any other non-file) is refused at once, with or
// without --force, and a symbolic link is refused naming its target, never written through (a planted link could
// otherwise make `init --force` replace any file it points at). The CLI runs as a child process, killed at 20 s.

import { execFileSync } from "node:child_process";
import { lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { spawnCli } from "./helpers/cli-spawn.ts";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function home() {
	const root = mkdtempSync(join(tmpdir(), "pwa-init-"));
	dirs.push(root);
	return { root, env: { HOME: root, PI_CODING_AGENT_DIR: join(root, "agent") } };
}

describe("init on a path that is not a regular file", () => {
	it("refuses a FIFO at once with --force, saying what it is (it used to wait for a reader forever)", async () => {
		const { root, env } = home();
		const fifo = join(root, "config.json");
		execFileSync("mkfifo", [fifo]);
		const run = await spawnCli(["init", "--force", "--config", fifo], env);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain(`${fifo} is a named pipe (FIFO), not a regular file`);
		expect(lstatSync(fifo).isFIFO()).toBe(true);
	}, 30_000);

	it("without --force, says the FIFO is not a file instead of offering --force", async () => {
		const { root, env } = home();
		const fifo = join(root, "config.json");
		execFileSync("mkfifo", [fifo]);
		const run = await spawnCli(["init", "--config", fifo], env);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain("named pipe (FIFO)");
		expect(run.stderr).not.toContain("--force replaces it");
	}, 30_000);

	it("refuses to write through a symbolic link with --force, naming its target, which stays unchanged", async () => {
		const { root, env } = home();
		const target = join(root, "important.txt");
		writeFileSync(target, "not a config: must survive\n");
		const link = join(root, "pi-web-access.json");
		symlinkSync(target, link);
		const run = await spawnCli(["init", "--force", "--config", link], env);
		expect(run.code).toBe(1);
		expect(readFileSync(target, "utf8")).toBe("not a config: must survive\n");
		expect(lstatSync(link).isSymbolicLink()).toBe(true);
		expect(run.stderr).toContain(`${link} is a symbolic link to ${target}`);
		expect(run.stderr).toContain(`--config ${target}`);
	}, 30_000);

	it("still replaces a regular file with --force", async () => {
		const { root, env } = home();
		const file = join(root, "pi-web-access.json");
		writeFileSync(file, "{}");
		const run = await spawnCli(["init", "--force", "--config", file], env);
		expect(run.code).toBe(0);
		expect(readFileSync(file, "utf8")).toContain("providers");
	}, 30_000);
});
