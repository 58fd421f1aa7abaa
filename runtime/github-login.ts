// pi's own GitHub credential for the GitHub source readers, and which credential those readers use, in words for
// status and explain. pi keeps its GitHub login in auth.json (in its agent dir) as the `github-copilot` OAuth entry:
// `refresh` is the GitHub OAuth token of pi's device login (it reads the REST API: 5,000 requests an hour instead of
// 60), `access` a Copilot token GitHub's REST API refuses, `enterpriseUrl` the GitHub Enterprise host it was made for.
// The token goes only to that host's API; it is never printed.

import { join } from "node:path";
import { readJsonObject } from "../providers/read-bounded.ts";
import type { SourceSettings } from "../providers/sources/contract.ts";
import { agentDir } from "./files.ts";
import type { KeyResolver } from "./key-expressions.ts";

/** How status, explain and the API client name the login (SourceSetting.login). */
export const PI_GITHUB_LOGIN = "pi's GitHub login";

export const GITHUB_LOGIN_DEFAULTS = {
	/** pi's provider id whose OAuth entry holds the GitHub login. */
	piProvider: "github-copilot",
	/** auth.json is small; a bigger file is not read (a stray or hostile file must not cost memory). */
	maxAuthBytes: 1_000_000,
	/** The unauthenticated REST API's limit, said when no credential applies on api.github.com. */
	publicOrigin: "https://api.github.com",
};

export interface GithubLogin {
	token: string;
	/** The REST API origins the login is for: api.github.com, or an enterprise host's `/api/v3` and `api.` host. */
	apiOrigins: string[];
}

/** The origin of `url` with its path, no trailing slash (`https://ghe.corp/api/v3`), or undefined. */
function originOf(url: string): string | undefined {
	try {
		const parsed = new URL(url);
		return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, "")}`;
	} catch {
		return undefined;
	}
}

/** The GitHub login in one stored credential of pi (auth.json's `github-copilot` entry), or undefined. */
export function githubLogin(credential: unknown): GithubLogin | undefined {
	const entry = typeof credential === "object" && credential !== null ? (credential as Record<string, unknown>) : {};
	if (entry.type !== "oauth" || typeof entry.refresh !== "string" || !/^[\w.-]{20,400}$/.test(entry.refresh)) {
		return undefined;
	}
	const enterprise = typeof entry.enterpriseUrl === "string" ? entry.enterpriseUrl.trim() : "";
	if (enterprise === "") return { token: entry.refresh, apiOrigins: [GITHUB_LOGIN_DEFAULTS.publicOrigin] };
	// pi stores the enterprise host as the login asked it ("company.ghe.com"); a full URL keeps its scheme and port.
	const site = originOf(enterprise.includes("://") ? enterprise : `https://${enterprise}`);
	if (!site) return undefined;
	const { protocol, host } = new URL(site);
	return { token: entry.refresh, apiOrigins: [`${protocol}//${host}/api/v3`, `${protocol}//api.${host}`] };
}

/**
 * pi's GitHub login from its agent dir's auth.json, read without changing it; undefined when there is none. Read here
 * rather than through PiBridge (pi's readStoredCredential): the CLI loads pi's package only when a provider needs it
 * (cli/main.ts needsPi), and the GitHub readers are on by default, so going through pi would load it for every fetch.
 */
export function readGithubLogin(env: Record<string, string | undefined>): GithubLogin | undefined {
	const all = readJsonObject(join(agentDir(env), "auth.json"), GITHUB_LOGIN_DEFAULTS.maxAuthBytes);
	return githubLogin(all?.[GITHUB_LOGIN_DEFAULTS.piProvider]);
}

/**
 * The settings with pi's GitHub login on every GitHub-token source without a token of its own whose API origin is
 * the login's: it is never handed to another origin.
 */
export function withGithubLogin(settings: SourceSettings, login: GithubLogin | undefined): SourceSettings {
	if (!login) return settings;
	const byName = { ...settings.byName };
	const github = byName.github;
	if (!github || github.token !== undefined || !login.apiOrigins.includes(originOf(github.origin) ?? "")) {
		return settings;
	}
	byName.github = { ...github, login: PI_GITHUB_LOGIN };
	return { ...settings, byName, loginToken: (name) => (name === PI_GITHUB_LOGIN ? login.token : undefined) };
}

/** Which credential the GitHub readers send, in words: the config's token, pi's login, or none. */
export function githubCredential(settings: SourceSettings, keys: KeyResolver): string {
	const github = settings.byName.github;
	if (!github) return "none";
	if (github.token !== undefined) {
		const status = keys.status(github.token);
		return `sources.github.token${"reason" in status ? ` (${status.state}: ${status.reason})` : ""}`;
	}
	if (github.login !== undefined) return github.login;
	return originOf(github.origin) === GITHUB_LOGIN_DEFAULTS.publicOrigin ? "none (60 requests/hour)" : "none";
}
