// Whether a project's `.pi/pi-web-access.json` may be read: one decision for pi and the CLI. In pi the extension has
// pi's own answer (`ctx.isProjectTrusted()`, which also knows --approve, an extension's project_trust answer and the
// prompt). The CLI has no pi session: it takes pi's start-up rule without a prompt (pi-coding-agent's main.js and
// core/project-trust.js), from pi's saved decisions (`<agentDir>/trust.json`) and settings, read without writing.

import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { readJsonObject } from "../providers/read-bounded.ts";
import type { ProjectTrust } from "../schema/project.ts";

export const TRUST_DEFAULTS = { maxBytes: 1_000_000 };

/** What pi guards under a project's `.pi/` (pi-coding-agent's core/trust-manager.js); our own file is not one. */
const GUARDED = [
	"settings.json",
	"mcp.json",
	"extensions",
	"skills",
	"prompts",
	"themes",
	"SYSTEM.md",
	"APPEND_SYSTEM.md",
];

function canonical(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return resolve(path);
	}
}

/** pi's saved decision for `cwd` or its nearest ancestor; undefined when none is saved or the file is unreadable. */
export function savedTrust(agentDir: string, cwd: string): boolean | undefined {
	const data = readJsonObject(join(agentDir, "trust.json"), TRUST_DEFAULTS.maxBytes);
	if (data === undefined) return undefined;
	// pi saves canonical (real) paths as keys, so only the working directory needs resolving.
	const decisions = new Map<string, unknown>(Object.entries(data));
	for (let dir = canonical(cwd); ; dir = dirname(dir)) {
		const value = decisions.get(dir);
		if (value === true || value === false) return value;
		if (dirname(dir) === dir) return undefined;
	}
}

/** The first resource pi guards in this project (`.pi/settings.json`, `.agents/skills` up the tree), if any. */
export function guardedResource(cwd: string, env: Record<string, string | undefined>): string | undefined {
	const dir = canonical(cwd);
	for (const entry of GUARDED) if (existsSync(join(dir, ".pi", entry))) return join(dir, ".pi", entry);
	// The user's own ~/.agents/skills is not the project's.
	const userSkills = join(canonical(env.HOME || homedir()), ".agents", "skills");
	for (let at = dir; ; at = dirname(at)) {
		const skills = join(at, ".agents", "skills");
		if (skills !== userSkills && existsSync(skills)) return skills;
		if (dirname(at) === at) return undefined;
	}
}

export interface TrustQuestion {
	cwd: string;
	agentDir: string;
	env: Record<string, string | undefined>;
	/** Inside pi: pi's answer for the session (`ctx.isProjectTrusted`), null when this pi gives none. */
	pi?: (() => boolean) | null;
	/** The CLI's `--project` (like pi's --approve). */
	approve?: boolean;
}

const yes = (reason: string): ProjectTrust => ({ trusted: true, reason });
const no = (reason: string): ProjectTrust => ({ trusted: false, reason });

/** The one decision: pi's answer in pi; elsewhere `--project`, else pi's rule on what pi has saved. */
export function projectTrust(question: TrustQuestion): ProjectTrust {
	const { cwd, agentDir, env, pi } = question;
	if (pi !== undefined) return piAnswer(pi);
	if (question.approve) return yes("--project");
	const saved = savedTrust(agentDir, cwd);
	if (saved === true) return yes("pi's saved trust decision (trust.json)");
	if (saved === false) return no("pi's saved decision is not to trust this project");
	const guarded = guardedResource(cwd, env);
	if (guarded === undefined) return yes("the folder holds none of the resources pi guards, so pi trusts it unasked");
	const fallback = readJsonObject(join(agentDir, "settings.json"), TRUST_DEFAULTS.maxBytes)?.defaultProjectTrust;
	if (fallback === "always") return yes("pi's defaultProjectTrust is always");
	return no(
		`pi guards ${guarded} and has no saved decision for this folder; trust it in pi (/trust) or pass --project`,
	);
}

function piAnswer(isTrusted: (() => boolean) | null): ProjectTrust {
	let trusted = false;
	try {
		trusted = isTrusted?.() === true;
	} catch {
		trusted = false; // a context from an ended session: trust nothing
	}
	return trusted ? yes("pi trusts this project") : no("pi does not trust this project");
}
