// `pi-web-access --version`: the package's own version, read from its package.json wherever the CLI runs from
// (the .ts sources in cli/ or the built dist/cli/), found by walking up from this module.

import { readFileSync } from "node:fs";

const PACKAGE_NAME = "pi-web-access-router";

export function packageVersion(from: string | URL = import.meta.url): string {
	for (let up = "../"; up.length <= 12; up += "../") {
		try {
			const found = JSON.parse(readFileSync(new URL(`${up}package.json`, from), "utf8")) as {
				name?: string;
				version?: string;
			};
			if (found.name === PACKAGE_NAME && found.version) return found.version;
		} catch {
			// not there: one level up
		}
	}
	return "unknown";
}
