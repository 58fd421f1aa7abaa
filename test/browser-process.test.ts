// The browser process under the provider, on real Chromium: killed mid-render (that call fails, the next launches
// a new one), a launch that fails (the circuit opens: no second launch), closing when idle, and the processes a
// render's window starts (no browser-UI renderer) with the flags the browser was launched with.

import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedBrowser } from "../providers/browser/driver.ts";
import { processTree } from "../providers/browser/memory.ts";
import { createBrowserProvider } from "../providers/browser/provider.ts";
import { send, startServer, type TestServer } from "./direct-helpers.ts";
import { browserCall, eventually, failureOf, fetchRequest, requireBrowser } from "./helpers/browser-world.ts";

const TEXT =
	"The lighthouse keeper logs the lamp's hours, the oil burnt and every ship seen passing the point at night.";
const PAGE = `<!doctype html><html><head><title>Log</title></head><body><main id="root"></main><script>document.getElementById("root").innerHTML = "<p>${TEXT}</p>";</script></body></html>`;

let site: TestServer;
const browser = new SharedBrowser();
const provider = createBrowserProvider({ browser });
const fetchPage = (path: string, options: Record<string, unknown> = {}, timeoutMs = 20_000) =>
	provider.fetch!(fetchRequest(`${site.origin}${path}`), browserCall(options, { timeoutMs }));

beforeAll(async () => {
	requireBrowser();
	site = await startServer();
	site.route("/log", send(PAGE));
	// Never settles: the DOM changes every 30 ms, as long as the page lives.
	site.route(
		"/restless",
		send(
			`${PAGE.replace("</body>", "")}<script>let n = 0; setInterval(() => { document.title = "tick " + n++; document.body.dataset.n = String(n); }, 30);</script></body>`,
		),
	);
});

afterAll(async () => {
	await browser.close();
	await site.close();
});

/** The command lines of the browser's processes now (Linux /proc); a forked child's arguments are joined by spaces. */
function commandLines(pid: number): string[] {
	const out: string[] = [];
	for (const each of processTree(pid)) {
		try {
			out.push(readFileSync(`/proc/${each}/cmdline`, "latin1"));
		} catch {
			// ended while read
		}
	}
	return out;
}

const browserUi = (pid: number) =>
	commandLines(pid).filter((line) => /[\s\0]--top-chrome-webui[\s\0]/.test(line)).length;

describe("the browser's processes", () => {
	it("start no browser-UI renderer for a render's window (the omnibox popup's WebUI)", async () => {
		let seen = 0;
		let looks = 0;
		const renders = (async () => {
			for (let i = 0; i < 3; i++) expect((await fetchPage("/log")).content).toContain(TEXT);
		})();
		// Looked at while the renders run and their spare tabs open: such a renderer lives as long as its window.
		const timer = setInterval(() => {
			const pid = browser.state().pid;
			if (pid === undefined) return;
			looks++;
			seen += browserUi(pid);
		}, 20);
		await renders.finally(() => clearInterval(timer));
		seen += browserUi(browser.state().pid!);
		expect(looks).toBeGreaterThan(0);
		expect(seen).toBe(0);
	});

	it("keeps every feature playwright-core turns off beside ours: Chromium reads only its last --disable-features", async () => {
		await fetchPage("/log");
		const args = readFileSync(`/proc/${browser.state().pid!}/cmdline`, "latin1").split("\0");
		const lists = args
			.filter((arg) => arg.startsWith("--disable-features="))
			.map((arg) => arg.slice("--disable-features=".length).split(","));
		const read = new Set(lists.at(-1));
		for (const name of lists.flat()) expect(read).toContain(name);
		expect(read).toContain("HttpsUpgrades");
		expect(read).toContain("WebUIOmniboxPopup");
	});
});

describe("a browser killed mid-render", () => {
	it("fails that call with browser-crashed, and the next call launches a new browser", async () => {
		await fetchPage("/log");
		const { pid, launches } = browser.state();
		expect(pid).toBeTypeOf("number");
		const rendering = failureOf(fetchPage("/restless", { settleMs: 10_000 }));
		expect(await eventually(() => site.hits.includes("/restless"))).toBe(true);
		process.kill(pid!, "SIGKILL");
		expect(await rendering).toMatchObject({ kind: "server", code: "browser-crashed" });
		const next = await fetchPage("/log");
		expect(next.content).toContain(TEXT);
		expect(browser.state().launches).toBe(launches + 1);
		expect(browser.state().pid).not.toBe(pid);
	});
});

describe("a browser that does not start", () => {
	it("fails with browser-launch and a fix, then fails at once without a second launch (the circuit is open)", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pwa-not-a-browser-"));
		const fake = join(dir, "chromium");
		writeFileSync(fake, "#!/bin/sh\necho 'this is not a browser' >&2\nexit 1\n");
		chmodSync(fake, 0o755);
		const broken = new SharedBrowser();
		const brokenProvider = createBrowserProvider({ browser: broken });
		const call = () => brokenProvider.fetch!(fetchRequest(`${site.origin}/log`), browserCall({ executablePath: fake }));
		const first = await failureOf(call());
		expect(first).toMatchObject({ kind: "server", code: "browser-launch" });
		expect(first.message).toMatch(/could not start the browser .*chromium: .*; check that the browser starts/);
		expect(broken.state().launches).toBe(1);
		const second = await failureOf(call());
		expect(second).toMatchObject({ code: "browser-launch", message: first.message });
		const state = broken.state();
		expect(state.launches).toBe(1);
		expect(state.state).toBe("failed");
		expect(state.failure).toMatchObject({
			reason: expect.stringContaining("could not start the browser"),
			fix: expect.stringContaining("executablePath"),
		});
		await broken.close();
	});
});

describe("an idle browser", () => {
	it("closes idleMs after the last render, and the next render launches it again", async () => {
		await fetchPage("/log", { idleMs: 1000 });
		const { launches } = browser.state();
		expect(browser.state().state).toBe("running");
		// Polled every 100 ms, 40 times at most: it must be down well before then.
		expect(await eventually(() => browser.state().state === "stopped", 40, 100)).toBe(true);
		expect((await fetchPage("/log", { idleMs: 1000 })).content).toContain(TEXT);
		expect(browser.state().launches).toBe(launches + 1);
	});
});
