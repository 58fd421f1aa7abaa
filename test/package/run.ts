// `npm run test:package`: packs the package as npm publishes it (prepack builds dist/), then runs
// test/package/installed.test.ts against that tarball. npm's own download cache is reused so the installs inside
// the test do not fetch what `npm ci` already fetched.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");
const out = mkdtempSync(join(tmpdir(), "pwa-pack-"));
try {
	const packed = execFileSync("npm", ["pack", "--pack-destination", out, "--loglevel=error"], {
		cwd: root,
		encoding: "utf8",
	});
	const tarball = join(out, packed.trim().split("\n").at(-1)!);
	const cache = execFileSync("npm", ["config", "get", "cache"], { cwd: root, encoding: "utf8" }).trim();
	console.log(`packed ${tarball}`);
	const vitest = spawnSync("npx", ["vitest", "run", "test/package"], {
		cwd: root,
		stdio: "inherit",
		env: { ...process.env, PI_WEB_ACCESS_TARBALL: tarball, PI_WEB_ACCESS_NPM_CACHE: cache },
	});
	process.exitCode = vitest.status ?? 1;
} finally {
	rmSync(out, { recursive: true, force: true });
}
