// npm pack and npm publish: the packed package.json leaves out the scripts that only make sense in a checkout.
// `prepare` builds dist/ there (`npm ci` runs it); in an installed tarball npm 11 lists it as an install script the
// user must approve. prepack builds and sets them aside, postpack puts package.json back byte for byte.

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Scripts a packed package does not carry: npm runs postpack from the manifest it read before prepack. */
export const CHECKOUT_SCRIPTS = ["prepare", "prepack", "postpack"] as const;

/** Where the untouched package.json waits while npm packs (.tmp/ is ignored by git). */
export function backupOf(root: string): string {
	return join(root, ".tmp", "package.json.before-pack");
}

/** Puts the saved package.json back, when one was saved. */
export function restoreManifest(root: string): void {
	if (existsSync(backupOf(root))) renameSync(backupOf(root), join(root, "package.json"));
}

/** Saves package.json and writes it again without the checkout's scripts. */
export function stripManifest(root: string): void {
	// A pack that failed before postpack left the stripped file and its backup: start from the backup.
	restoreManifest(root);
	const file = join(root, "package.json");
	const text = readFileSync(file, "utf8");
	const manifest = JSON.parse(text) as { scripts?: Record<string, string> };
	const scripts = manifest.scripts ?? {};
	if (!CHECKOUT_SCRIPTS.some((name) => name in scripts)) return;
	mkdirSync(join(root, ".tmp"), { recursive: true });
	writeFileSync(backupOf(root), text);
	for (const name of CHECKOUT_SCRIPTS) delete scripts[name];
	writeFileSync(file, `${JSON.stringify(manifest, null, "\t")}\n`);
}

if (import.meta.main) {
	const root = join(import.meta.dirname, "..");
	const step = process.argv[2];
	if (step === "strip") stripManifest(root);
	else if (step === "restore") restoreManifest(root);
	else {
		process.stderr.write("usage: node scripts/pack-manifest.ts strip|restore\n");
		process.exitCode = 2;
	}
}
