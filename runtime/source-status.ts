// The source readers as a set-up has them (the config's `sources`, pi's GitHub login where it applies) and what status
// says of them: each source's origin, whether it is on, and for the token-taking ones which credential goes with.

import type { SourceSettings } from "../providers/sources/contract.ts";
import { viaText } from "../providers/sources/route.ts";
import { sourceSettings } from "../providers/sources/settings.ts";
import { SOURCES } from "../providers/sources/source-list.ts";
import { githubCredential, readGithubLogin, withGithubLogin } from "./github-login.ts";
import type { Setup } from "./setup.ts";

/** How long a source token's `!command` may run (a key command's bound, runtime/key-command.ts). */
const SOURCE_TOKEN_TIMEOUT_MS = 10_000;

/** One set of source settings per set-up, which the fetcher, status and explain all read (auth.json read once). */
const sourcesBySetup = new WeakMap<Setup, SourceSettings>();

/**
 * The set-up's source settings: the config's, with pi's GitHub login read from its agent dir when it applies; a
 * token expression is resolved as a key is (a `!command` once).
 */
export function setupSources(setup: Setup): SourceSettings {
	let settings = sourcesBySetup.get(setup);
	if (settings === undefined) {
		const { keys, env } = setup.deps;
		const resolveToken: SourceSettings["resolveToken"] = (expression, signal) =>
			keys.resolve(expression, SOURCE_TOKEN_TIMEOUT_MS, signal).catch(() => undefined);
		settings = withGithubLogin(sourceSettings(setup.table.config.sources, resolveToken), readGithubLogin(env));
		sourcesBySetup.set(setup, settings);
	}
	return settings;
}

/** One source in status: `{ name: "github", enabled: true, via: "api.github.com", credential: "pi's GitHub login" }`. */
export interface SourceStatus {
	name: string;
	enabled: boolean;
	/** The API origin's host and path; absent for a switch without one (markdown). */
	via?: string;
	/** For a source that takes a token: the credential its requests carry, in words (never the token). */
	credential?: string;
}

export function sourceStatus(setup: Setup): SourceStatus[] {
	const settings = setupSources(setup);
	return SOURCES.map((facts) => {
		const setting = settings.byName[facts.name]!;
		const out: SourceStatus = { name: facts.name, enabled: setting.enabled };
		if (setting.origin) out.via = viaText(setting);
		if (facts.name === "github") out.credential = githubCredential(settings, setup.deps.keys);
		else if (facts.token !== undefined) out.credential = setting.token ? `sources.${facts.name}.token` : "none";
		return out;
	});
}

/** `source readers: github via api.github.com (credential: pi's GitHub login), …; off: npm`. */
export function sourceLines(list: readonly SourceStatus[]): string[] {
	const on = list
		.filter((s) => s.enabled && s.via)
		.map((s) => `${s.name} via ${s.via}${s.credential ? ` (credential: ${s.credential})` : ""}`);
	const off = list.filter((s) => !s.enabled).map((s) => s.name);
	return [`source readers: ${on.join("; ") || "(none)"}${off.length > 0 ? `; off: ${off.join(", ")}` : ""}`];
}
