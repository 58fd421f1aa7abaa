// Whether a project's `.pi/pi-web-access.json` may be read. In pi the extension asks pi (`ctx.isProjectTrusted()`);
// the CLI has no pi session, so it reads pi's saved decisions (`<agentDir>/trust.json`, nearest folder wins, as
// pi does) and otherwise reads the project file only with `--project`.

import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ProjectTrust } from "../schema/project.ts";

export const TRUST_DEFAULTS = { maxBytes: 1_000_000 };

function canonical(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return resolve(path);
	}
}

/** pi's saved decision for `cwd` or its nearest ancestor; undefined when none is saved or the file is unreadable. */
export function savedTrust(agentDir: string, cwd: string): boolean | undefined {
	const file = join(agentDir, "trust.json");
	let data: unknown;
	try {
		if (statSync(file).size > TRUST_DEFAULTS.maxBytes) return undefined;
		data = JSON.parse(readFileSync(file, "utf8").replace(/^\uFEFF/, ""));
	} catch {
		return undefined;
	}
	if (data === null || typeof data !== "object" || Array.isArray(data)) return undefined;
	// pi saves canonical (real) paths as keys, so only the working directory needs resolving.
	const decisions = new Map<string, unknown>(Object.entries(data));
	for (let dir = canonical(cwd); ; dir = dirname(dir)) {
		const value = decisions.get(dir);
		if (value === true || value === false) return value;
		if (dirname(dir) === dir) return undefined;
	}
}

/** The CLI's decision: `--project` first (like pi's --approve), then pi's saved decision, else not trusted. */
export function cliProjectTrust(agentDir: string, cwd: string, flag: boolean): ProjectTrust {
	if (flag) return { trusted: true, reason: "--project" };
	const saved = savedTrust(agentDir, cwd);
	if (saved === true) return { trusted: true, reason: "pi's saved trust decision (trust.json)" };
	if (saved === false) return { trusted: false, reason: "pi's saved decision is not to trust this project" };
	return {
		trusted: false,
		reason: "no saved pi trust decision for this folder; trust it in pi (/trust) or pass --project",
	};
}

/** The extension's decision: pi's own, for the session's working directory. */
export function piProjectTrust(isTrusted: (() => boolean) | undefined): ProjectTrust {
	let trusted = false;
	try {
		trusted = isTrusted?.() === true;
	} catch {
		trusted = false; // a context from an ended session: trust nothing
	}
	return trusted
		? { trusted: true, reason: "pi trusts this project" }
		: { trusted: false, reason: "pi does not trust this project" };
}
