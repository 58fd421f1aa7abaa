// What users install, tested as they get it: the packed tarball installed the way `pi install npm:…` does (npm
// into <agentDir>/npm, then pi records that folder), a plain `pi` run in which the model calls web_search (a fake
// Exa) and web_fetch (a loopback article) through the installed copy, /web-access over rpc, and the globally
// installed bin. Runs when PI_WEB_ACCESS_TARBALL names a tarball (`npm run test:package` packs one).

import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, type BackendRequest, chatSse, exaResults, startBackend, toolMessages } from "../e2e/fakes.ts";
import { createPiHome, nodeBinary, type PiHome, rpcPrompt, runPi, startRpc } from "../e2e/harness.ts";

const TARBALL = process.env.PI_WEB_ACCESS_TARBALL;
const NAME = "pi-web-access-router";
const KEY = `exa-${randomBytes(12).toString("hex")}`;
/** Installs from npm and whole pi runs on a busy 2-core machine: generous, as a hang is still caught. */
const TIMEOUT_MS = 600_000;
const ARTICLE = `<!doctype html><html><head><title>Loopback article</title></head><body><nav>Home · About</nav>
<article><h1>Generics in Go</h1><p>${"Type parameters let a function work on many types. ".repeat(30)}</p>
<p>The installed copy converted this page, through the conversion worker that ships in dist/.</p></article><footer>© example</footer></body></html>`;

function run(file: string, args: string[], env: Record<string, string>, cwd: string) {
	return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
		execFile(file, args, { env, cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
			done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
		);
	});
}

/**
 * How this machine reaches the registry: a proxy, its CA (a TLS-inspecting proxy fails every fetch with
 * SELF_SIGNED_CERT_IN_CHAIN without it), npm settings from the environment. The temp HOME hides ~/.npmrc, so npm
 * gets these from the test's own environment; nothing else of the user's leaks into the pi runs.
 */
const NETWORK_ENV = /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|(HTTPS?|NO|ALL)_PROXY|npm_config_.+)$/i;

/** npm from the pinned Node (npm scripts put it first on PATH), with the pinned Node first on PATH. */
function npm(args: string[], env: Record<string, string>, cwd: string) {
	const network = Object.fromEntries(
		Object.entries(process.env).filter(
			(entry): entry is [string, string] => NETWORK_ENV.test(entry[0]) && entry[1] !== undefined,
		),
	);
	const path = [dirname(nodeBinary()), process.env.PATH ?? ""].join(delimiter);
	return run("npm", args, { ...network, ...env, PATH: path }, cwd);
}

let chat: Backend;
let exa: Backend;
let article: Server;
let articleUrl: string;
let home: PiHome;
let globalPrefix: string;

/** The chat model: web_search first, then web_fetch of the article, then text. */
function script(request: BackendRequest) {
	const done = toolMessages(request).length;
	if (done === 0) return { sse: chatSse({ toolCall: { name: "web_search", arguments: { query: "go generics" } } }) };
	if (done === 1) return { sse: chatSse({ toolCall: { name: "web_fetch", arguments: { url: articleUrl } } }) };
	return { sse: chatSse({ text: "all done" }) };
}

describe.skipIf(!TARBALL)("the packed package, installed as users install it", () => {
	beforeAll(async () => {
		chat = await startBackend(script);
		exa = await startBackend(() => ({ json: exaResults(3, "installed") }));
		article = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(ARTICLE));
		await new Promise<void>((done) => article.listen(0, "127.0.0.1", done));
		articleUrl = `http://127.0.0.1:${(article.address() as AddressInfo).port}/article`;
		const config = {
			providers: { exa: { type: "exa", baseUrl: exa.url, apiKey: "$EXA_TEST_KEY" }, direct: { type: "direct" } },
			search: ["exa"],
			fetch: ["direct"],
			fetchGuard: { allowedRanges: ["127.0.0.0/8"] },
			state: { persist: false },
		};
		home = createPiHome(chat.url, JSON.stringify(config));
		home.env.EXA_TEST_KEY = KEY;
		const npmDir = join(home.agentDir, "npm");
		mkdirSync(npmDir, { recursive: true });
		const cache = process.env.PI_WEB_ACCESS_NPM_CACHE;
		const flags = ["--omit=dev", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
		if (cache) flags.push("--cache", cache);
		const local = await npm(["install", "--prefix", npmDir, ...flags, TARBALL!], home.env, home.root);
		expect(local.code, local.stderr).toBe(0);
		const installed = await runPi(["install", join(npmDir, "node_modules", NAME)], home.env);
		expect(installed.code, installed.stderr).toBe(0);
		globalPrefix = mkdtempSync(join(tmpdir(), "pwa-global-"));
		const global = await npm(["install", "-g", "--prefix", globalPrefix, ...flags, TARBALL!], home.env, home.root);
		expect(global.code, global.stderr).toBe(0);
	}, TIMEOUT_MS);

	afterAll(async () => {
		await chat?.close();
		await exa?.close();
		article?.close();
		home?.remove();
		if (globalPrefix) rmSync(globalPrefix, { recursive: true, force: true });
	});

	it("installs no pi of its own and ships no tests, build scripts or install scripts, but its licence", () => {
		const root = join(home.agentDir, "npm", "node_modules");
		expect(existsSync(join(root, "@earendil-works", "pi-coding-agent"))).toBe(false);
		const pkg = join(root, NAME);
		for (const absent of ["test", "bench", "schema/build.ts", "tsconfig.json", "dist/extension"]) {
			expect(existsSync(join(pkg, absent)), absent).toBe(false);
		}
		for (const present of [
			"pi-web-access/index.ts",
			"extension/tool-schemas.json",
			"dist/cli/main.js",
			"cli/bin.js",
			"schema/pi-web-access.schema.json",
			"LICENSE",
		]) {
			expect(existsSync(join(pkg, present)), present).toBe(true);
		}
		// npm 11 asks the user to approve a package's prepare script at install: the packed manifest has none.
		const scripts = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).scripts ?? {};
		for (const name of ["prepare", "prepack", "postpack"]) expect(scripts[name], name).toBeUndefined();
		expect(existsSync(join(globalPrefix, "lib", "node_modules", "@earendil-works"))).toBe(false);
	});

	it(
		"a plain pi run searches and fetches through the installed copy",
		async () => {
			const result = await runPi(
				["--mode", "json", "-p", "--no-session", "--model", "fake/fake-model", "look it up"],
				home.env,
			);
			expect(result.code, result.stderr).toBe(0);
			expect(exa.requests).toHaveLength(1);
			expect(exa.requests[0]?.headers["x-api-key"]).toBe(KEY);
			const last = chat.requests.at(-1)!;
			const [searched, fetched] = toolMessages(last);
			expect(searched).toContain("installed number 1");
			expect(fetched).toContain("Generics in Go");
			expect(fetched).toContain("Type parameters let a function work on many types.");
			expect(fetched).not.toContain("Home · About");
			expect(result.stdout).toContain("all done");
			expect(result.stdout + result.stderr).not.toContain(KEY);
		},
		TIMEOUT_MS,
	);

	it(
		"/web-access answers over rpc from the installed copy without any key",
		async () => {
			const rpc = startRpc(["--no-session", "--model", "fake/fake-model"], home.env);
			try {
				const { response } = await rpcPrompt(rpc, "status-1", "/web-access");
				expect(response.success, JSON.stringify(response)).toBe(true);
				// The status reaches the client as a notify or a message record: all of stdout is what it sees.
				await rpc.next("the status text", (r) => JSON.stringify(r).includes("providers:"));
				const text = rpc.stdout();
				expect(text).toContain("direct");
				expect(text).not.toContain(KEY);
			} finally {
				await rpc.stop();
			}
		},
		TIMEOUT_MS,
	);

	it(
		"the global bin runs --help, check, explain and search",
		async () => {
			const bin = join(globalPrefix, "bin", "pi-web-access");
			const env = { ...home.env, PATH: [dirname(nodeBinary()), process.env.PATH ?? ""].join(delimiter) };
			const help = await run(bin, ["--help"], env, home.root);
			expect(help.code, help.stderr).toBe(0);
			expect(help.stdout).toContain("pi-web-access check");
			const check = await run(bin, ["check"], env, home.root);
			expect(check.code, check.stdout + check.stderr).toBe(0);
			const explain = await run(bin, ["explain", "search", "go generics"], env, home.root);
			expect(explain.code, explain.stderr).toBe(0);
			expect(explain.stdout).toContain("exa");
			exa.clear();
			const search = await run(bin, ["search", "--json", "go generics"], env, home.root);
			expect(search.code, search.stderr).toBe(0);
			expect(JSON.parse(search.stdout).results[0].title).toBe("installed number 1");
			expect(exa.requests).toHaveLength(1);
			expect(search.stdout + search.stderr).not.toContain(KEY);
			const file = readFileSync(join(home.agentDir, "settings.json"), "utf8");
			expect(file).toContain(NAME);
		},
		TIMEOUT_MS,
	);
});

if (!TARBALL) {
	it("is skipped: set PI_WEB_ACCESS_TARBALL (npm run test:package packs one and runs this)", () => {});
}
