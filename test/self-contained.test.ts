// The repository is the whole product: no test, benchmark, script or source file may read a path outside the
// repository root (a user's clone has nothing beside it). Optional benchmark corpora named by an env variable are
// the one exception, and they must say how to skip.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const tracked = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: root, encoding: "utf8" })
	.split("\n")
	.filter((f) => /\.(ts|js|mjs|cjs|sh|json5?)$/.test(f) || f.startsWith(".ci/"));

/** Forms that reach beside the repo: a parent-relative shared folder (as a path or as join() parts), workstation paths. */
const OUTSIDE = [
	/\.\.\/shared\/(fixtures|docs|seeds|hooks)\b/,
	/\.\.\/\.\.\/shared\b/,
	/["']\.\.["'],\s*["']shared["']/,
	/["']\.\.["'],\s*["']\.\.["'],\s*["']\.\.["']/,
	/\/work\/(shared|main)\b/,
];

describe("self-contained repository", () => {
	it("lists the files it scans (the scan is not vacuous)", () => {
		expect(tracked.length).toBeGreaterThan(100);
		expect(tracked).toContain("test/contract/provider-contract.ts");
	});

	it("no file reads a path outside the repository root (corpora behind an env variable excepted)", () => {
		const offenders: string[] = [];
		for (const file of tracked) {
			if (file === "test/self-contained.test.ts") continue;
			let text: string;
			try {
				text = readFileSync(join(root, file), "utf8");
			} catch {
				continue; // deleted in the working tree
			}
			text.split("\n").forEach((line, i) => {
				if (!OUTSIDE.some((re) => re.test(line))) return;
				if (/_CORPUS\b/.test(line) || /corpora/.test(line)) return;
				offenders.push(`${file}:${i + 1}: ${line.trim()}`);
			});
		}
		expect(offenders).toEqual([]);
	});

	it("every provider fixture directory the contract suite names is in the repository", () => {
		const text = readFileSync(join(root, "test", "contract", "provider-contract.ts"), "utf8");
		expect(text).toMatch(/"test", "fixtures", "providers"/);
	});
});
