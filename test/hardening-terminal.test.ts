// The CLI's text output never passes a page's terminal escapes through (clear screen, OSC window titles, C1
// controls); newlines and tabs stay, and --json keeps the page text exactly. Regression: `ESC [2J` and OSC title
// sequences from a page reached the terminal raw.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import { terminalSafe } from "../runtime/terminal-safe.ts";
import { send, startServer, type TestServer } from "./direct-helpers.ts";

const HOSTILE =
	"line one\u001b[2J\u001b[H\tcell\n\u001b]0;forged title\u0007line two\u009b31m\r\u0000end\u001b]8;;http://x\u001b\\";

let server: TestServer;
let dir: string;
let config: string;
beforeAll(async () => {
	server = await startServer();
	server.route("/hostile.txt", send(HOSTILE, { "content-type": "text/plain; charset=utf-8" }));
	dir = mkdtempSync(join(tmpdir(), "pwa-term-"));
	config = join(dir, "pi-web-access.json");
	const providers = { direct: { type: "direct" } };
	writeFileSync(
		config,
		JSON.stringify({ providers, fetch: ["direct"], fetchGuard: { allowedRanges: ["127.0.0.0/8"] } }),
	);
});
afterAll(async () => {
	await server.close();
	rmSync(dir, { recursive: true, force: true });
});

async function fetchCli(extra: string[]): Promise<string> {
	const out: string[] = [];
	const io = { stdout: (t: string) => out.push(t), stderr: () => {}, env: { HOME: dir, PI_CODING_AGENT_DIR: dir } };
	expect(await main(["fetch", `${server.origin}/hostile.txt`, "--config", config, ...extra], io)).toBe(0);
	return out.join("");
}

describe("page text on a terminal", () => {
	it("strips escape sequences and control characters from text output, keeping newlines and tabs", async () => {
		const text = await fetchCli([]);
		// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for exactly these characters.
		expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
		expect(text).toContain("line one\tcell\nline two");
		expect(text).toContain("31mend");
		expect(text).not.toContain("forged title");
	});

	it("leaves --json exactly as the page was", async () => {
		const json = JSON.parse(await fetchCli(["--json"])) as { content: string };
		expect(json.content).toContain("\u001b[2J");
		expect(json.content).toContain("\u001b]0;forged title\u0007");
	});

	it("removes CSI, OSC (BEL- or ST-terminated, never past a line) and C1 controls", () => {
		expect(terminalSafe("a\u001b[1;31mred\u001b[0m b")).toBe("ared b");
		expect(terminalSafe("x\u001b]2;title\u001b\\y")).toBe("xy");
		expect(terminalSafe("x\u001b]unterminated\nnext")).toBe("x\nnext");
		expect(terminalSafe("\u009b2Jz\u0085")).toBe("2Jz");
		expect(terminalSafe("tab\there\nnew")).toBe("tab\there\nnew");
	});
});
