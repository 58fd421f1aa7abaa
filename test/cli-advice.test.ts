// The CLI's failures speak to the person at the terminal: a refused key is called refused and named by where it
// came from, a failing !command shows what it printed on stderr, and every next step says what to change — never
// "tell the user", which is the model's advice in the tools' results.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyBook } from "../executor/keys.ts";
import { parseState } from "../executor/persist.ts";
import { createSetup } from "../runtime/setup.ts";
import { formatStatus, statusReport } from "../runtime/status.ts";
import { runCli } from "./helpers/cli-run.ts";
import { type FakeServer, startFakeServer } from "./helpers/fake-server.ts";

const KEY = "sk-advice-3f9a1c7e-secret";
const home = mkdtempSync(join(tmpdir(), "pwa-cli-advice-"));
const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent"), EXA_TEST_KEY: KEY };
let backend: FakeServer;

beforeAll(async () => {
	backend = await startFakeServer();
});
afterAll(() => backend.close());

function configFile(config: unknown): string {
	const file = join(home, `cfg-${Math.random().toString(36).slice(2)}.json`);
	writeFileSync(
		file,
		JSON.stringify({ state: { persist: false }, policy: { cooldown: false }, ...(config as object) }),
	);
	return file;
}

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1);

describe("a refused key", () => {
	it("is called refused, named by where it came from, and the next step is to fix it", async () => {
		backend.respond({ status: 401, json: { error: "invalid api key" } });
		const file = configFile({
			providers: {
				exa: { type: "exa", apiKey: "$EXA_TEST_KEY", baseUrl: backend.url },
				other: { type: "tavily", apiKey: "tvly-other-1234", baseUrl: backend.url },
			},
			search: ["exa"],
		});
		const { code, stderr } = await runCli(["search", "q", "--config", file], env);
		expect(code).toBe(1);
		expect(stderr).toContain("no usable key: key1=refused");
		expect(stderr).not.toContain("exhausted");
		expect(lastLine(stderr)).toBe(
			"Next: exa refused key1 (from $EXA_TEST_KEY): check or replace it; or run it again with --provider other (configured, not tried in this call).",
		);
		expect(stderr).not.toContain(KEY);
		backend.respond({ status: 403, json: { error: "forbidden" } });
		const json = JSON.parse((await runCli(["search", "q", "--json", "--config", file], env)).stdout);
		expect(json.attempts[0].hint).toBe("its key key1 (from $EXA_TEST_KEY) was refused: check or replace it");
	});

	it("names a config literal and a !command as the source, never the key", async () => {
		backend.reset();
		backend.respond({ status: 401, json: { error: "no" } }, { status: 401, json: { error: "no" } });
		const file = configFile({
			providers: { exa: { type: "exa", apiKey: [KEY, `!printf %s ${KEY}x`], baseUrl: backend.url } },
			search: ["exa"],
		});
		const { stderr } = await runCli(["search", "q", "--config", file], env);
		expect(stderr).toContain("no usable key: key1=refused, key2=refused");
		expect(lastLine(stderr)).toBe(
			"Next: exa refused key1 (a literal in the config) and key2 (a !command): check or replace them.",
		);
		expect(stderr).not.toContain(KEY.slice(0, 12));
	});

	it("stays marked refused through the state file, and status says so", () => {
		const book = createKeyBook(() => 1_000);
		book.exhaust({ secret: KEY, label: "key1" }, true);
		const state = parseState(JSON.stringify({ version: 1, cooldowns: [], keys: book.entries() }), 2_000)!;
		expect(state.keys).toEqual([
			{ fingerprint: expect.any(String), label: "key1", state: "exhausted", sinceMs: 1_000, refused: true },
		]);
		const file = configFile({ providers: { exa: { type: "exa", apiKey: "$EXA_TEST_KEY" } } });
		const report = statusReport(createSetup({ configFile: file, env }), state);
		expect(formatStatus(report)).toContain("key key1: refused by the backend: check or replace it");
		expect(JSON.stringify(report)).not.toContain(KEY);
	});
});

describe("a failing !command key", () => {
	it("shows what the command printed on stderr: one line, bounded, token-like words masked", async () => {
		backend.reset();
		const token = "ghp_0123456789abcdefABCDEF0123456789";
		const command = `!echo 'op: not signed in (run op signin)'; echo 'session ${token} expired' >&2; echo 'op: not signed in (run op signin)' >&2; exit 3`;
		const file = configFile({ providers: { exa: { type: "exa", apiKey: command, baseUrl: backend.url } } });
		const { code, stderr } = await runCli(["search", "q", "--config", file], env);
		expect(code).toBe(1);
		expect(stderr).toContain(
			"key command failed (exit 3): session [hidden] expired · op: not signed in (run op signin)",
		);
		expect(stderr).not.toContain(token.slice(4, 16));
		expect(backend.requests).toHaveLength(0);
		const long = configFile({
			providers: { exa: { type: "exa", apiKey: "!yes 'a b c' | head -c 100000 >&2; exit 4", baseUrl: backend.url } },
		});
		const bounded = await runCli(["search", "q", "--config", long], env);
		const line = bounded.stderr.split("\n").find((l) => l.includes("exit 4")) ?? "";
		expect(line.length).toBeLessThan(700);
	});
});

describe("next steps written for a person", () => {
	it("a provider without a key: set it up, not 'tell the user'", async () => {
		const file = configFile({ providers: { exa: { type: "exa", apiKey: "$NOT_SET_HERE" } } });
		const { stderr } = await runCli(["search", "q", "--config", file], env);
		expect(stderr).not.toMatch(/tell (the user|them)|the user must/);
	});

	it("a 404 from a search backend says to check its baseUrl", async () => {
		backend.respond({ status: 404, body: "no such route" });
		const file = configFile({ providers: { exa: { type: "exa", apiKey: "$EXA_TEST_KEY", baseUrl: backend.url } } });
		const { stderr } = await runCli(["search", "q", "--config", file], env);
		expect(lastLine(stderr)).toBe(
			`Next: exa answered HTTP 404 (not found): check its baseUrl (${backend.url}) in ${file}.`,
		);
	});

	it("a page that is not there (404) says to check the URL", async () => {
		// Two answers: direct asks for the host's /llms.txt beside its first page (providers/direct/negotiate.ts).
		const gone = { status: 404, headers: { "content-type": "text/html" }, body: "<p>gone</p>" };
		backend.respond(gone, gone);
		const file = configFile({
			providers: { direct: { type: "direct" } },
			fetchGuard: { allowRanges: ["127.0.0.0/8"] },
		});
		const { stderr } = await runCli(["fetch", `${backend.url}/missing`, "--config", file], env);
		expect(lastLine(stderr)).toBe("Next: the page was not found (HTTP 404): check the URL.");
		expect(stderr).not.toMatch(/tell (the user|them)|as the message says/);
	});

	it("a private address the guard refuses says where to allow it", async () => {
		const file = configFile({ providers: { direct: { type: "direct" } } });
		const { stderr } = await runCli(["fetch", `${backend.url}/x`, "--config", file], env);
		expect(lastLine(stderr)).toBe(
			`Next: the address is on a private network, which fetchGuard refuses; to allow it, add its range to fetchGuard.allowRanges in ${file}.`,
		);
	});
});
