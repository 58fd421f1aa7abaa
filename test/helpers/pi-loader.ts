// Loads our entry (pi-web-access/index.ts) in a fresh process the way pi's bundled CLI loads an extension
// (test/helpers/pi-loader-child.ts) and reads back our files read at start-up (jiti's modules and the data they read)
// and what the factory registered.

import { execFile } from "node:child_process";
import { join } from "node:path";
import { nodeBinary } from "../e2e/harness.ts";
import { YOUNG_GENERATION_FLAGS } from "./gc-watch.ts";

const ROOT = join(import.meta.dirname, "..", "..");

export interface PiLoad {
	/** Our files read at start-up (jiti's modules and the data they read), in order. */
	loaded: string[];
	/** The factory's calls on pi's API by method: registerTool, registerCommand, on, … */
	calls: Record<string, string[]>;
	/** Bytes the load and the factory allocated (null when a collection ran meanwhile and the figure would be short). */
	allocated: number | null;
}

/**
 * The same allocations run after run (--predictable: no concurrent compilation, a fixed seed) in a young generation
 * large enough that no collection runs while the extension loads.
 */
const CHILD_FLAGS = ["--predictable", ...YOUNG_GENERATION_FLAGS];

export function loadAsPi(env: NodeJS.ProcessEnv): Promise<PiLoad> {
	return new Promise((done, fail) => {
		execFile(
			nodeBinary(),
			[...CHILD_FLAGS, join(ROOT, "test/helpers/pi-loader-child.ts"), join(ROOT, "pi-web-access/index.ts")],
			{ env, timeout: 60_000 },
			(error, stdout, stderr) => {
				if (error) return fail(new Error(`pi loader child: ${error.message}\n${stderr.slice(0, 2000)}`));
				done(JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as PiLoad);
			},
		);
	});
}
