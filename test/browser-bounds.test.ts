// The browser provider's bounds on real Chromium: scrolling for more, elements, a page that never settles, bytes
// across all of a page's requests, pages rendered at once, and documents that stall; each counted, none timed to
// the millisecond, and every page slot given back afterwards.

import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedBrowser } from "../providers/browser/driver.ts";
import { treeMemoryMb } from "../providers/browser/memory.ts";
import { createBrowserProvider } from "../providers/browser/provider.ts";
import { RENDER_DEFAULTS } from "../providers/browser/render.ts";
import { send, startServer, type TestServer } from "./direct-helpers.ts";
import { browserCall, eventually, failureOf, fetchRequest, requireBrowser } from "./helpers/browser-world.ts";

const TEXT =
	"The harbour master keeps a ledger of every ship that enters the basin, with the hour of the tide and its draught.";

const shell = (script: string, body = "") =>
	`<!doctype html><html><head><title>Bounds</title></head><body><main id="root">${body}</main><script>${script}</script></body></html>`;

/** `count` tall items, numbered from `from`: each is an element the page counts and a line the text keeps. */
const items = (from: number, count: number) =>
	Array.from({ length: count }, (_, i) => `<p style="height:40px">Ledger entry ${from + i}: ${TEXT}</p>`).join("");

let site: TestServer;
const browser = new SharedBrowser();
const provider = createBrowserProvider({ browser });
/** Answers held open by the never-answering routes, ended when the file is done. */
const held: ServerResponse[] = [];
const fetchPage = (path: string, options: Record<string, unknown> = {}, timeoutMs = 20_000) =>
	provider.fetch!(fetchRequest(`${site.origin}${path}`), browserCall(options, { timeoutMs }));

beforeAll(async () => {
	requireBrowser();
	site = await startServer();
	site.route("/never", (_req, res) => {
		held.push(res);
	});
});

afterAll(async () => {
	for (const res of held) res.destroy();
	await browser.close();
	await site.close();
});

describe("bounded scrolling and elements", () => {
	it("stops scrolling an endless list after RENDER_DEFAULTS.maxScrolls scrolls and says so", async () => {
		const script = `let next = 40;
			addEventListener("scroll", () => {
				if (innerHeight + scrollY >= document.body.scrollHeight - 50) {
					document.getElementById("root").insertAdjacentHTML("beforeend", ${JSON.stringify("@")}.replace("@", more(next)));
					next += 50;
				}
			});
			function more(from) { let html = ""; for (let i = 0; i < 50; i++) html += '<p style="height:40px">Ledger entry ' + (from + i) + ': ${TEXT}</p>'; return html; }`;
		site.route("/endless", send(shell(script, items(0, 40))));
		const result = await fetchPage("/endless");
		const { maxScrolls } = RENDER_DEFAULTS;
		expect(result.warnings).toContain(`the page kept loading more as it scrolled: stopped after ${maxScrolls} scrolls`);
		const entries = result.content.match(/Ledger entry \d+/g) ?? [];
		expect(entries).toHaveLength(40 + maxScrolls * 50);
	});

	it("scrolls a page that loads more through an IntersectionObserver, and not one that watches no scrolling", async () => {
		// The observer's sentinel sits below the fold; reaching it loads the second chapter.
		const observed = `const sentinel = document.createElement("div"); document.body.appendChild(sentinel);
			new IntersectionObserver((seen) => {
				if (seen.some((e) => e.isIntersecting) && !window.loaded) {
					window.loaded = true;
					document.getElementById("root").insertAdjacentHTML("beforeend", "<p>Chapter two: the basin was dredged in the spring. ${TEXT}</p>");
				}
			}).observe(sentinel);`;
		site.route("/observed", send(shell(observed, items(0, 40))));
		expect((await fetchPage("/observed")).content).toContain("Chapter two: the basin was dredged");
		// Only a page that polls its scroll position could see a scroll here: it is not scrolled, so none is seen.
		const polling = `setInterval(() => { if (scrollY > 0 && !window.told) { window.told = true;
			document.getElementById("root").insertAdjacentHTML("beforeend", "<p>The page was scrolled. ${TEXT}</p>"); } }, 20);`;
		site.route("/unwatched", send(shell(polling, items(0, 40))));
		const unwatched = await fetchPage("/unwatched");
		expect(unwatched.content).toContain("Ledger entry 39");
		expect(unwatched.content).not.toContain("The page was scrolled");
	});

	it("stops a page that keeps adding elements at maxDomNodes and says so", async () => {
		// A request held open keeps the network busy and the DOM never rests: neither settles the page.
		const script = `fetch("/never"); let n = 0; setInterval(() => {
			let html = ""; for (let i = 0; i < 100; i++) html += "<div>Ledger entry " + (n++) + ": ${TEXT}</div>";
			document.getElementById("root").insertAdjacentHTML("beforeend", html);
		}, 30);`;
		site.route("/growing", send(shell(script, items(0, 5))));
		// And a settle bound far past the call's time: only the element bound can end this render early.
		const result = await fetchPage("/growing", { maxDomNodes: 1000, settleMs: 60_000 });
		const warning = result.warnings?.find((w) => w.includes("more than 1000"));
		expect(warning).toMatch(/^the page has (\d+) elements, more than 1000: read as it was then$/);
		// Cut when a poll (RENDER_DEFAULTS.pollMs) sees the bound passed: some batches of 100 late on a busy machine,
		// never the tens of thousands the page reaches by the call's end (100 every 30 ms for 20 s).
		const elements = Number(/has (\d+) elements/.exec(warning ?? "")?.[1]);
		expect(elements).toBeLessThan(10_000);
	});
});

describe("a page that never settles", () => {
	it("is read at settleMs with a warning, well within the call's time", async () => {
		const script = `fetch("/never"); let n = 0; setInterval(() => { document.getElementById("tick").textContent = String(n++); }, 30);`;
		site.route("/restless", send(shell(script, `<p>${TEXT}</p><p id="tick">0</p>`)));
		const timeoutMs = 15_000;
		const started = Date.now();
		const result = await fetchPage("/restless", { settleMs: 1500 }, timeoutMs);
		const elapsedMs = Date.now() - started;
		expect(result.content).toContain(TEXT);
		expect(result.warnings?.some((w) => /^the page had not settled after [\d.]+ s: read as it was then$/.test(w))).toBe(
			true,
		);
		expect(elapsedMs).toBeLessThan(timeoutMs / 2);
	});
});

describe("bytes across all of a page's requests", () => {
	it("cuts a page whose script downloads 5 MB at maxBytes 1 MB, and says so", async () => {
		const big = Buffer.alloc(5 * 1024 * 1024, "x");
		let sent = 0;
		site.route("/big.bin", (_req, res) => {
			res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(big.length) });
			res.end(big);
			sent++;
		});
		site.route(
			"/heavy",
			send(shell(`fetch("/big.bin").then((r) => r.arrayBuffer()).catch(() => {});`, `<p>${TEXT}</p>`)),
		);
		const result = await fetchPage("/heavy", { maxBytes: 1024 * 1024 });
		expect(result.content).toContain(TEXT);
		expect(result.warnings).toContain("the page's requests passed 1 MB (maxBytes): content cut at the cap");
		expect(sent).toBe(1);
	});
});

describe("pages rendered at once", () => {
	it("renders 20 calls with maxPages 4: all answer, at most 4 documents in flight, memory under the cap", async () => {
		let inFlight = 0;
		let mostInFlight = 0;
		site.route("/doc", (req, res) => {
			inFlight++;
			mostInFlight = Math.max(mostInFlight, inFlight);
			const n = new URL(req.url ?? "/", "http://x").searchParams.get("n");
			setTimeout(() => {
				inFlight--;
				res
					.writeHead(200, { "content-type": "text/html" })
					.end(shell(`document.getElementById("root").innerHTML = "<p>Page ${n}: ${TEXT}</p>";`));
			}, 150);
		});
		let mostActive = 0;
		let mostMemoryMb = 0;
		const activeSampler = setInterval(() => {
			mostActive = Math.max(mostActive, browser.state().active);
		}, 10);
		// Reading /proc is synchronous work on this thread: sampled as often as a render's own check (memoryPollMs).
		const memorySampler = setInterval(() => {
			const { pid } = browser.state();
			const mb = pid === undefined ? undefined : treeMemoryMb(pid, RENDER_DEFAULTS.maxMemoryMb);
			if (mb !== undefined) mostMemoryMb = Math.max(mostMemoryMb, mb);
		}, RENDER_DEFAULTS.memoryPollMs);
		try {
			const calls = Array.from({ length: 20 }, (_, n) => fetchPage(`/doc?n=${n}`, { maxPages: 4 }, 30_000));
			const results = await Promise.all(calls);
			results.forEach((result, n) => {
				expect(result.content).toContain(`Page ${n}: ${TEXT}`);
			});
		} finally {
			clearInterval(activeSampler);
			clearInterval(memorySampler);
		}
		expect(mostInFlight).toBeLessThanOrEqual(4);
		expect(mostInFlight).toBeGreaterThan(1);
		expect(mostActive).toBeLessThanOrEqual(4);
		expect(mostMemoryMb).toBeGreaterThan(0);
		expect(mostMemoryMb).toBeLessThan(RENDER_DEFAULTS.maxMemoryMb);
		expect(await eventually(() => browser.state().active === 0)).toBe(true);
	}, 60_000);
});

describe("documents that stall", () => {
	it("ends a document that sent its head and part of its body within the call's time, slot given back", async () => {
		site.route("/stall", (_req, res) => {
			held.push(res);
			res.writeHead(200, { "content-type": "text/html" });
			res.write(`<!doctype html><html><head><title>Stalled</title></head><body><main><p>${TEXT}</p>`);
		});
		const outcome = await fetchPage("/stall", {}, 5_000).then(
			(result) => result.content,
			(error: Error) => error,
		);
		// The server never ends the body: that an outcome came at all is the render's own deadline (5 s less the
		// reserve); the test's timeout bounds how late a busy machine may make it. No wall-clock assertion here.
		if (typeof outcome === "string") expect(outcome).toContain(TEXT);
		else expect(outcome).toMatchObject({ kind: expect.stringMatching(/timeout|parse/) });
		expect(await eventually(() => browser.state().active === 0)).toBe(true);
	});

	it("fails a document whose connection is reset mid-body with body-truncated, as direct does", async () => {
		site.route("/reset", (_req, res) => {
			res.writeHead(200, { "content-type": "text/html" });
			res.write(`<!doctype html><html><head><title>Reset</title></head><body><main><p>${TEXT}</p>`);
			setTimeout(() => res.socket?.resetAndDestroy(), 100);
		});
		const error = await failureOf(fetchPage("/reset"));
		expect(error).toMatchObject({ kind: "parse", code: "body-truncated" });
		expect(error.message).toContain("net::ERR_CONNECTION_RESET");
		expect(await eventually(() => browser.state().active === 0)).toBe(true);
	});

	it("fails a server that never answers with a timeout within the call's time, slot given back", async () => {
		const timeoutMs = 3_000;
		const started = Date.now();
		const error = await failureOf(fetchPage("/never", {}, timeoutMs));
		expect(Date.now() - started).toBeLessThan(timeoutMs);
		expect(error).toMatchObject({ kind: "timeout", code: "timeout" });
		expect(await eventually(() => browser.state().active === 0)).toBe(true);
	});
});
