// The browser fetcher as a user meets it: `pi-web-access fetch` in a process of its own on a JavaScript shell
// (direct fails with needs-javascript, the browser answers), and that process killed with SIGKILL mid-render (no
// exit hook runs): its Chromium and every process of the browser's group go with it, none left behind.

import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startServer, type TestServer } from "./direct-helpers.ts";
import { eventually, requireBrowser } from "./helpers/browser-world.ts";

const root = join(import.meta.dirname, "..");
const home = mkdtempSync(join(tmpdir(), "pwa-browser-cli-"));
const TEXT =
	"The lighthouse keeper logs the lamp's hours, the oil burnt and every ship seen passing the point at night.";
// A shell as Vite and create-react-app ship it: an empty mount point, a <noscript> notice, the text written by script.
const SHELL = `<!doctype html><html><head><title>Harbour log</title></head><body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript><script>document.getElementById("root").innerHTML = "<h1>Log</h1><p>${TEXT}</p>";</script></body></html>`;

let site: TestServer;
let config: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
	requireBrowser();
	site = await startServer();
	site.route("/app", send(SHELL));
	// Never settles: the DOM changes every 30 ms while the page lives, so a render waits out its settle bound.
	site.route(
		"/restless",
		send(
			`${SHELL.replace("</body>", "")}<script>let n = 0; setInterval(() => { document.body.dataset.n = String(n++); }, 30);</script></body>`,
		),
	);
	config = join(home, "pi-web-access.json");
	writeFileSync(
		config,
		JSON.stringify({
			providers: { direct: { type: "direct" }, browser: { type: "browser", options: { settleMs: 60_000 } } },
			fetch: ["direct", "browser"],
			fetchGuard: { allowRanges: ["127.0.0.1/32"] },
		}),
	);
});

afterAll(async () => {
	for (const child of children) child.kill("SIGKILL");
	await site.close();
});

const env = () => ({ PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") });
const cliArgs = (url: string) => [join(root, "cli", "bin.js"), "fetch", url, "--config", config, "--json"];

function cli(url: string): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(process.execPath, cliArgs(url), { env: env(), timeout: 60_000 }, (error, stdout, stderr) =>
			resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
		);
	});
}

/** Fields 4 (ppid) and 5 (process group) of /proc/<pid>/stat; undefined once the process has gone or is a zombie. */
function statOf(pid: number): { ppid: number; group: number } | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		if (fields[0] === "Z") return undefined;
		return { ppid: Number(fields[1]), group: Number(fields[2]) };
	} catch {
		return undefined;
	}
}

function pids(): number[] {
	return readdirSync("/proc")
		.filter((name) => /^\d+$/.test(name))
		.map(Number);
}

/** The browser a process launched: its child whose command line carries the driver's marker argument. */
function browserOf(parent: number): number | undefined {
	return pids().find((pid) => {
		if (statOf(pid)?.ppid !== parent) return false;
		try {
			return readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("--pi-web-access-browser=");
		} catch {
			return false;
		}
	});
}

const inGroup = (group: number) => pids().filter((pid) => statOf(pid)?.group === group);

describe("pi-web-access fetch on a JavaScript shell", () => {
	it("answers from the browser after direct fails with needs-javascript", async () => {
		const run = await cli(`${site.origin}/app`);
		expect(run.stderr).not.toMatch(/Error:|at .*\.ts:\d+/);
		expect(run.code).toBe(0);
		const result = JSON.parse(run.stdout);
		expect(result.content).toContain(TEXT);
		expect(result.content).not.toContain("enable JavaScript");
		expect(result.provider).toBe("browser");
		expect(result.attempts.map((a: { provider: string; outcome: string }) => [a.provider, a.outcome])).toEqual([
			["direct", "error"],
			["browser", "ok"],
		]);
		expect(result.attempts[0].reason).toContain("page is empty without JavaScript");
	});
});

describe("the CLI killed with SIGKILL mid-render", () => {
	it("leaves no Chromium process behind", async () => {
		const child = spawn(process.execPath, cliArgs(`${site.origin}/restless`), { env: env(), stdio: "ignore" });
		children.push(child);
		let browser: number | undefined;
		const launched = await eventually(
			() => {
				browser ??= browserOf(child.pid!);
				// Asked twice: by direct, then by the browser's render.
				return browser !== undefined && site.hits.filter((hit) => hit === "/restless").length >= 2;
			},
			400,
			50,
		);
		expect(launched).toBe(true);
		const group = statOf(browser!)!.group;
		// The driver starts the browser in a group of its own, so the parent's group going says nothing about it.
		expect(group).toBe(browser);
		expect(inGroup(group).length).toBeGreaterThan(1);
		child.kill("SIGKILL");
		// Polled every 100 ms, 150 times at most: Chromium sees its pipe close and takes its processes down.
		expect(await eventually(() => inGroup(group).length === 0, 150, 100)).toBe(true);
	});
});
