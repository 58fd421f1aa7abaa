// What the repository and its packed package carry: a licence matching package.json, no stray pid files tracked,
// and a packed package.json without the checkout's build scripts (npm 11 asks to approve `prepare` at install).

import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { backupOf, CHECKOUT_SCRIPTS, restoreManifest, stripManifest } from "../scripts/pack-manifest.ts";

const root = join(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
	license: string;
	scripts: Record<string, string>;
};

describe("the repository", () => {
	it("has an MIT LICENSE file, as package.json says", () => {
		expect(manifest.license).toBe("MIT");
		const text = readFileSync(join(root, "LICENSE"), "utf8");
		expect(text).toMatch(/^MIT License\n\nCopyright \(c\) pi-web-access contributors\n/);
		expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS"');
	});

	it("tracks no pid file", () => {
		const tracked = execFileSync("git", ["ls-files", "--", "*.pid"], { cwd: root, encoding: "utf8" });
		expect(tracked).toBe("");
	});
});

describe("the packed package.json", () => {
	it("npm pack builds and strips the checkout's scripts before packing, and restores them after", () => {
		expect(manifest.scripts.prepare).toBe("npm run build");
		expect(manifest.scripts.prepack).toBe("npm run build && node scripts/pack-manifest.ts strip");
		expect(manifest.scripts.postpack).toBe("node scripts/pack-manifest.ts restore");
	});

	it("has no prepare, prepack or postpack script, and the checkout's file comes back byte for byte", () => {
		const dir = mkdtempSync(join(tmpdir(), "pwa-pack-manifest-"));
		cpSync(join(root, "package.json"), join(dir, "package.json"));
		const before = readFileSync(join(dir, "package.json"), "utf8");
		stripManifest(dir);
		const packed = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
		for (const name of CHECKOUT_SCRIPTS) expect(packed.scripts[name], name).toBeUndefined();
		expect(packed.scripts.build).toBe(manifest.scripts.build);
		expect(packed.bin).toEqual({ "pi-web-access": "cli/bin.js" });
		// A pack that failed before postpack: the next strip starts from the saved file, not the stripped one.
		stripManifest(dir);
		expect(readFileSync(backupOf(dir), "utf8")).toBe(before);
		restoreManifest(dir);
		expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(before);
		restoreManifest(dir);
		expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(before);
	});
});
