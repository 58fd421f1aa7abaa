// A project file comes from a repository anyone may have written: a `.pi/pi-web-access.json` (or `.pi` folder) that
// is a symbolic link to a file outside the project is not read, so its diagnostics cannot quote another file's key
// names (pi's auth.json, say) to the terminal or the model. A link that stays inside the project is read as before.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSetup } from "../runtime/setup.ts";
import { formatStatus, statusReport } from "../runtime/status.ts";
import { projectConfigPath } from "../schema/project.ts";

const TRUSTED = { trusted: true, reason: "pi trusts this project" };
const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A global config, a project folder, and a secret-looking file outside the project. */
function layout() {
	const root = mkdtempSync(join(tmpdir(), "pwa-project-link-"));
	dirs.push(root);
	const globalFile = join(root, "pi-web-access.json");
	writeFileSync(globalFile, JSON.stringify({ providers: { d: { type: "direct" } }, fetch: ["d"] }));
	const outside = join(root, "auth.json");
	writeFileSync(outside, JSON.stringify({ "anthropic-oauth-SECRETNAME": { refresh: "sk-ant-REFRESHVALUE" } }));
	const cwd = join(root, "repo");
	mkdirSync(cwd);
	return { root, globalFile, outside, cwd };
}

function setupIn(globalFile: string, cwd: string) {
	const setup = createSetup({ configFile: globalFile, env: {}, project: { cwd, trust: TRUSTED } });
	return {
		setup,
		text: `${formatStatus(statusReport(setup, { version: 1, cooldowns: [], keys: [] }))}\n${JSON.stringify(setup.project)}`,
	};
}

describe("a symbolic link as the project file", () => {
	it("to a file outside the project is not read: one located diagnostic, no key name of the target", () => {
		const { globalFile, outside, cwd } = layout();
		mkdirSync(join(cwd, ".pi"));
		symlinkSync(outside, projectConfigPath(cwd));
		const { setup, text } = setupIn(globalFile, cwd);
		expect(setup.project).toMatchObject({ state: "unusable" });
		expect(setup.project?.diagnostics).toEqual([
			expect.objectContaining({
				severity: "error",
				file: projectConfigPath(cwd),
				line: 1,
				col: 1,
				message: "the project file is a symbolic link to a file outside the project folder: not read",
			}),
		]);
		expect(text).not.toContain("SECRETNAME");
		expect(text).not.toContain("REFRESHVALUE");
	});

	it("through a linked .pi folder is refused the same way", () => {
		const { root, globalFile, cwd } = layout();
		const elsewhere = join(root, "elsewhere");
		mkdirSync(elsewhere);
		writeFileSync(join(elsewhere, "pi-web-access.json"), JSON.stringify({ "odd-SECRETNAME": 1 }));
		symlinkSync(elsewhere, join(cwd, ".pi"));
		const { setup, text } = setupIn(globalFile, cwd);
		expect(setup.project?.state).toBe("unusable");
		expect(text).not.toContain("SECRETNAME");
	});

	it("to a file inside the project is read", () => {
		const { globalFile, cwd } = layout();
		mkdirSync(join(cwd, ".pi"));
		writeFileSync(join(cwd, "web.json"), JSON.stringify({ fetch: ["d"], policy: { bogusInside: 1 } }));
		symlinkSync(join(cwd, "web.json"), projectConfigPath(cwd));
		const { setup, text } = setupIn(globalFile, cwd);
		expect(setup.project?.state).toBe("loaded");
		expect(text).toContain("bogusInside");
	});
});
