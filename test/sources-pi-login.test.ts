// pi's own GitHub credential for the GitHub readers: auth.json's github-copilot login (its GitHub OAuth token, never
// the Copilot token) is sent when the config names no sources.github.token, and only to the API origin of the host
// the login was made for; status and explain say which credential the readers use, and no output carries the token.

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sourceSettings } from "../providers/sources/settings.ts";
import { githubLogin, withGithubLogin } from "../runtime/github-login.ts";
import { send } from "./direct-helpers.ts";
import { runCli } from "./helpers/cli-run.ts";
import { fixture, json, recordAuth, type SourceWorld, startSourceWorld } from "./helpers/source-world.ts";

const GITHUB_TOKEN = "gho_piLoginTOKEN0123456789abcdefABCDEF";
const COPILOT_TOKEN = "tid=abc;exp=9999999999;proxy-ep=proxy.individual.githubcopilot.com;sku=free";

/** A HOME whose pi agent dir holds `auth` as auth.json, and the env that points there. */
function homeWith(auth: Record<string, unknown> | undefined, extra: Record<string, string> = {}) {
	const home = mkdtempSync(join(tmpdir(), "pwa-pi-login-"));
	const agent = join(home, "agent");
	mkdirSync(agent, { recursive: true });
	if (auth) writeFileSync(join(agent, "auth.json"), JSON.stringify(auth));
	const env = { HOME: home, PI_CODING_AGENT_DIR: agent, TMPDIR: home, ...extra };
	const config = (sources: unknown) => {
		const file = join(home, `cfg-${Math.random().toString(36).slice(2)}.json`);
		writeFileSync(
			file,
			JSON.stringify({
				providers: { direct: { type: "direct" } },
				fetchGuard: { allowRanges: ["127.0.0.1/32"] },
				sources,
			}),
		);
		return file;
	};
	return { env, config };
}

const login = (enterpriseUrl?: string) => ({
	"github-copilot": {
		type: "oauth",
		refresh: GITHUB_TOKEN,
		access: COPILOT_TOKEN,
		expires: 9_999_999_999_999,
		...(enterpriseUrl !== undefined ? { enterpriseUrl } : {}),
	},
});

describe("pi's GitHub login", () => {
	it("is the OAuth entry's GitHub token, for api.github.com or the enterprise host it was made for", () => {
		expect(githubLogin(login()["github-copilot"])).toEqual({
			token: GITHUB_TOKEN,
			apiOrigins: ["https://api.github.com"],
		});
		expect(githubLogin(login("company.ghe.com")["github-copilot"])?.apiOrigins).toEqual([
			"https://company.ghe.com/api/v3",
			"https://api.company.ghe.com",
		]);
		// A Copilot API key and a malformed token are no GitHub login.
		expect(githubLogin({ type: "api_key", key: "copilot-key" })).toBeUndefined();
		expect(githubLogin({ type: "oauth", refresh: "x\r\nInjected: 1", access: "a", expires: 1 })).toBeUndefined();
	});

	it("applies only without a configured token and only to its own API origin", () => {
		const public_ = githubLogin(login()["github-copilot"]);
		expect(withGithubLogin(sourceSettings(undefined), public_).byName.github?.login).toBe("pi's GitHub login");
		const ghe = sourceSettings({ github: { apiUrl: "https://ghe.corp/api/v3", hosts: ["ghe.corp"] } });
		expect(withGithubLogin(ghe, public_).byName.github?.login).toBeUndefined();
		const configured = sourceSettings({ github: { token: "$GITHUB_TOKEN" } });
		expect(withGithubLogin(configured, public_).byName.github?.login).toBeUndefined();
		const enterprise = githubLogin(login("ghe.corp")["github-copilot"]);
		expect(withGithubLogin(ghe, enterprise).byName.github?.login).toBe("pi's GitHub login");
		expect(withGithubLogin(sourceSettings(undefined), enterprise).byName.github?.login).toBeUndefined();
	});
});

describe("a CLI fetch with pi's GitHub login", () => {
	let world: SourceWorld;
	beforeAll(async () => {
		world = await startSourceWorld();
		world.api.route(
			"/api/v3/repos/acme/widget/issues/7",
			recordAuth(world.auth.api, json(fixture("github", "issue-7.json"))),
		);
		world.api.route(
			"/api/v3/repos/acme/widget/issues/7/comments",
			recordAuth(world.auth.api, json(fixture("github", "issue-7-comments.json"))),
		);
		world.page.route("/acme/widget/issues/7", recordAuth(world.auth.page, send("<p>page</p>")));
	});
	afterAll(() => world.close());
	const url = () => `http://127.0.0.1:${world.page.port}/acme/widget/issues/7`;
	const github = () => ({ github: { apiUrl: `${world.api.origin}/api/v3`, hosts: [`127.0.0.1:${world.page.port}`] } });

	it("sends the login's GitHub token to the API of the host it was made for, and says so without printing it", async () => {
		const { env, config } = homeWith(login(world.api.origin));
		const file = config(github());
		world.auth.api.length = 0;
		const fetched = await runCli(["fetch", url(), "--config", file], env);
		expect(fetched.code).toBe(0);
		expect(fetched.stdout).toContain("## Conversation (3 comments,");
		expect(world.auth.api).toEqual([`Bearer ${GITHUB_TOKEN}`, `Bearer ${GITHUB_TOKEN}`]);
		expect(world.auth.page).toEqual([]);
		const explained = await runCli(["explain", "--config", file, "fetch", url()], env);
		expect(explained.stdout).toContain(
			`github-issue reader via 127.0.0.1:${world.api.port}/api/v3 (credential: pi's GitHub login), fallback: page`,
		);
		const status = await runCli(["status", "--config", file], env);
		expect(status.stdout).toContain(`github via 127.0.0.1:${world.api.port}/api/v3 (credential: pi's GitHub login)`);
		const json = JSON.parse((await runCli(["status", "--json", "--config", file], env)).stdout);
		expect(json.sources.find((s: { name: string }) => s.name === "github")).toEqual({
			name: "github",
			enabled: true,
			via: `127.0.0.1:${world.api.port}/api/v3`,
			credential: "pi's GitHub login",
		});
		for (const out of [fetched, explained, status]) {
			expect(`${out.stdout}${out.stderr}`).not.toContain(GITHUB_TOKEN.slice(4, 16));
			expect(`${out.stdout}${out.stderr}`).not.toContain("proxy-ep");
		}
	});

	it("never sends a github.com login or another host's login to a configured origin", async () => {
		for (const auth of [login(), login("ghe.example.com")]) {
			const { env, config } = homeWith(auth);
			const file = config(github());
			world.auth.api.length = 0;
			const fetched = await runCli(["fetch", url(), "--config", file], env);
			expect(fetched.stdout).toContain("## Conversation (3 comments,");
			expect(world.auth.api).toEqual(["-", "-"]);
			const explained = await runCli(["explain", "--config", file, "fetch", url()], env);
			expect(explained.stdout).toContain("(credential: none), fallback: page");
		}
	});

	it("lets a configured sources.github.token win over pi's login", async () => {
		const { env, config } = homeWith(login(world.api.origin), { GH_OWN: "ghp_own_token_0123456789" });
		const file = config({ github: { ...github().github, token: "$GH_OWN" } });
		world.auth.api.length = 0;
		await runCli(["fetch", url(), "--config", file], env);
		expect(world.auth.api).toEqual(["Bearer ghp_own_token_0123456789", "Bearer ghp_own_token_0123456789"]);
		const status = await runCli(["status", "--config", file], env);
		expect(status.stdout).toContain("(credential: sources.github.token)");
	});

	it("says none (60 requests/hour) on api.github.com without a token or a login, and pi's login with one", async () => {
		const none = homeWith(undefined);
		const plain = await runCli(["status", "--config", none.config(undefined)], none.env);
		expect(plain.stdout).toContain("source readers: github via api.github.com (credential: none (60 requests/hour))");
		const logged = homeWith(login());
		const withLogin = await runCli(["status", "--config", logged.config(undefined)], logged.env);
		expect(withLogin.stdout).toContain("github via api.github.com (credential: pi's GitHub login)");
	});
});
