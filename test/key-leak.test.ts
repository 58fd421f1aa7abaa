// Key leakage property: random keys (URL-, JSON-, regex-shaped, unicode, quotes, `$`/`!` prefixes) configured for
// EVERY provider type — as an apiKey literal, a `!printf` command, or a fake pi's providerAuth — against a loopback
// backend that echoes the key back in its faults. Neither the key nor its first/last 8 characters may show up in
// tool output, structuredContent, details, errors, progress, /web-access, explain, CLI output or any file a run
// writes under its agent dir (the state store's logs).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactSecrets } from "../engine/redact.ts";
import { searchRequest } from "../engine/requests.ts";
import jina from "../providers/jina/provider.ts";
import { type EchoServer, startEchoServer } from "./helpers/echo-server.ts";
import { startFakeServer } from "./helpers/fake-server.ts";
import { commandExpression, LeakScan, literalExpression } from "./helpers/leak-keys.ts";
import {
	assertNoLeak,
	CLI_MODES,
	CLI_TYPES,
	capabilities,
	type KeySource,
	newTally,
	removeLeakDirs,
	scanWritten,
	TYPES,
} from "./helpers/leak-run.ts";

/** Keys per path in `npm test` (the services' first is FIXED_KEY); test/soak/key-leak.soak.test.ts tries many more. */
const KEYS = { services: 3, tools: 1, cli: 1 };

let echo: EchoServer;
const SOURCES: KeySource[] = ["literal", "command", "pi"];
const tally = newTally();
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
	echo = await startEchoServer();
	process.on("unhandledRejection", onUnhandled);
});
afterAll(async () => {
	process.off("unhandledRejection", onUnhandled);
	await echo.close();
	removeLeakDirs();
	console.log(
		`key-leak: ${tally.keys} keys × provider types = ${tally.keyTypes} (${TYPES.length} types), ${tally.runs} configured runs, ${echo.counts.requests} backend requests (${echo.counts.withCredential} carrying a key)`,
	);
});

describe("key leakage", () => {
	it("escapes keys as pi's key-expression rules say", () => {
		expect(literalExpression("$HOME")).toBe("$$HOME");
		expect(literalExpression("$" + "{X}")).toBe("$$" + "{X}");
		expect(literalExpression("!rm -rf")).toBe("$!rm -rf");
		expect(literalExpression("plain$!")).toBe("plain$!");
		expect(commandExpression("it's")).toBe("!printf %s 'it'\\''s'");
	});

	it("masks a key that a one-line cut left half in a reason (regression: executor mask, full keys only)", () => {
		const key = { secret: "Zq81xk-secret-tail-9QwE" };
		const scrub = (text: string, keys: Array<{ secret: string }>) =>
			redactSecrets(
				text,
				keys.map((k) => k.secret),
			);
		// classify.ts cuts reasons at 200 characters: 7 and then 12 characters of the key are left before the "…".
		for (const lead of [170, 165]) {
			const cut = `HTTP 401: ${".".repeat(lead)}invalid key ${key.secret}`.slice(0, 199);
			expect(cut).toContain(key.secret.slice(0, 7));
			expect(scrub(`${cut}…`, [key])).toMatch(/invalid key \[key\]…$/);
		}
		expect(scrub("invalid key Zq81xk-se…", [key])).toBe("invalid key [key]…");
		// Cut by the text's end, each start's length (4-7): the last character decides whether the starts are tried.
		for (const start of ["Zq81", "Zq81x", "Zq81xk", "Zq81xk-"]) expect(scrub(`key ${start}`, [key])).toBe("key [key]");
		expect(scrub("head cut: cret-tail-9QwE (code 7)", [key])).toBe("head cut: [key] (code 7)");
		expect(scrub(`a ${key.secret} b ${key.secret.slice(0, 12)} c`, [key])).toBe("a [key] b [key] c");
		expect(scrub("nothing to see", [key])).toBe("nothing to see");
	});

	it("masks the key in a Jina error reported inside a 200 (regression: the response copy lost its secrets)", async () => {
		const server = await startFakeServer();
		try {
			const key = "jina-Zk3-regression-key-77";
			server.respond({ json: { code: 401, name: "AuthenticationRequiredError", message: `bad key ${key}` } });
			const config = { name: "j", type: "jina", baseUrl: server.url, options: {} };
			const call = { config, key: { secret: key, label: "key1" }, signal: new AbortController().signal };
			const error = await jina.search!(searchRequest({ query: "q" }), {
				...call,
				timeoutMs: 5000,
				onProgress: () => {},
			}).catch((e: unknown) => e as Error);
			expect(String((error as Error).message)).toMatch(/bad key \[key\]/);
			expect(String((error as Error).message)).not.toContain(key);
		} finally {
			await server.close();
		}
	});

	it("scans every file a run wrote under its agent dir, nested store logs included, but the config it was given", () => {
		const dir = mkdtempSync(join(tmpdir(), "pwa-leak-scan-"));
		try {
			const key = "Zq81xk-scan-secret-tail-9QwE";
			const config = join(dir, "pi-web-access.json");
			writeFileSync(config, JSON.stringify({ apiKey: key }));
			mkdirSync(join(dir, "nested"));
			writeFileSync(join(dir, "nested", "pi-web-access.state.2026-01-02.1.log"), `{"m":"${key.slice(0, 12)}"}`);
			writeFileSync(join(dir, "clean.log"), "nothing here");
			const scan = new LeakScan(key);
			expect(scanWritten(scan, "planted", dir, config)).toEqual({ files: 2, logs: 1 });
			expect(scan.leaks.map((leak) => leak.where)).toEqual([
				`planted ${join("nested", "pi-web-access.state.2026-01-02.1.log")}`,
			]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("never shows a key through createServices: every type × literal, !command and pi keys × every fault", async () => {
		await assertNoLeak({ path: "services", echo, numRuns: KEYS.services, types: TYPES, sources: SOURCES, tally });
		// The property only means something if keys reached the backend and the success path ran for every type.
		expect(echo.counts.withCredential).toBeGreaterThan(0);
		const combos = TYPES.flatMap((type) => capabilities(type).map((c) => `${type}/${c}/success`));
		expect(combos.filter((combo) => !tally.wins.has(combo))).toEqual([]);
		// A key echoed in a 200's titles and snippets was found and masked, with a warning, for most types.
		const masked = TYPES.filter((type) => tally.wins.has(`${type}/echo-masked`));
		expect(masked.length).toBeGreaterThan(TYPES.length / 2);
		// The state store's logs were written and scanned (spend and marks of every paid and failing run).
		expect(tally.logs).toBeGreaterThan(0);
	}, 120_000);

	it("never shows a key through the pi tools, their progress, /web-access and the files they write", async () => {
		const before = tally.logs;
		await assertNoLeak({ path: "tools", echo, numRuns: KEYS.tools, types: TYPES, sources: ["literal", "pi"], tally });
		expect(tally.logs).toBeGreaterThan(before);
	}, 120_000);

	it("never shows a key in the CLI's stdout or stderr, nor in the files it writes", async () => {
		const sources: KeySource[] = ["literal", "command"];
		const before = tally.logs;
		await assertNoLeak({ path: "cli", echo, numRuns: KEYS.cli, types: CLI_TYPES, sources, modes: CLI_MODES, tally });
		expect(tally.logs).toBeGreaterThan(before);
	}, 120_000);

	it("leaves no unhandled rejection behind", () => {
		expect(unhandled.map(String)).toEqual([]);
	});
});
