// Every vitest run is hermetic: HOME, pi's agent dir and TMPDIR point into one temp folder for all test workers,
// and after the run the real home is checked: a test that wrote there fails the run (named in the error).

import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

const realHome = homedir();
let root = "";
let before = new Map<string, number>();

/** Entries of the real home a test could touch: its top level and all of ~/.pi, with mtimes (-1: not compared). */
function snapshot(): Map<string, number> {
	const seen = new Map<string, number>();
	const visit = (dir: string, depth: number) => {
		let names: string[];
		try {
			names = readdirSync(dir);
		} catch {
			return;
		}
		for (const name of names) {
			const path = join(dir, name);
			try {
				const stat = statSync(path);
				// Top-level mtimes move with any other program's activity: there only new entries count.
				seen.set(path, depth === 0 && dir === realHome ? -1 : stat.mtimeMs);
				if (stat.isDirectory() && depth > 0) visit(path, depth - 1);
			} catch {
				// vanished meanwhile
			}
		}
	};
	visit(realHome, 0);
	visit(join(realHome, ".pi"), 6);
	return seen;
}

export function setup(): void {
	before = snapshot();
	root = realpathSync(mkdtempSync(join(tmpdir(), "pi-web-access-tests-")));
	const home = join(root, "home");
	const tmp = join(root, "tmp");
	mkdirSync(join(home, ".pi", "agent"), { recursive: true });
	mkdirSync(tmp, { recursive: true });
	process.env.PI_WEB_ACCESS_REAL_HOME = realHome;
	process.env.HOME = home;
	process.env.USERPROFILE = home;
	process.env.PI_CODING_AGENT_DIR = join(home, ".pi", "agent");
	process.env.TMPDIR = tmp;
	delete process.env.PI_WEB_ACCESS_CONFIG;
}

export function teardown(): void {
	const after = snapshot();
	const changed = [...after].filter(([path, mtime]) => before.get(path) !== mtime).map(([path]) => path);
	rmSync(root, { recursive: true, force: true });
	if (changed.length > 0) throw new Error(`tests changed the real home: ${changed.slice(0, 10).join(", ")}`);
}
