// The browser provider end to end on real Chromium and real loopback servers: pages built by script, the guard on
// every request the page makes, no state kept between calls, dialogs, downloads and popups, HTTP failures, and the
// whole pipeline (direct first, the browser only for a JavaScript shell) run through the CLI in-process.

import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FetchRequest } from "../engine/request-types.ts";
import { SharedBrowser } from "../providers/browser/driver.ts";
import { createBrowserProvider } from "../providers/browser/provider.ts";
import { RENDER_DEFAULTS } from "../providers/browser/render.ts";
import { closeSharedBrowser, sharedBrowserState } from "../providers/browser/shared.ts";
import type { HostLookup } from "../providers/direct/guard.ts";
import directDefault from "../providers/direct/provider.ts";
import { redirect, send, startServer, type TestServer } from "./direct-helpers.ts";
import {
	browserCall,
	type CountingServer,
	downloadsIn,
	failureOf,
	fetchRequest,
	requireBrowser,
	startCountingServer,
} from "./helpers/browser-world.ts";
import { runCli } from "./helpers/cli-run.ts";

const ARTICLE =
	"The tide clock on the harbour wall runs backwards because the tide turns the other way round the island. " +
	"Its keeper winds it every Sunday and reads the hand against the painted ring of hours.";

/** A shell whose only text is written by its script: direct reads nothing in it. */
const shell = (script: string, title = "Tide clock") =>
	`<!doctype html><html><head><title>${title}</title></head><body><div id="root"></div><script>${script}</script></body></html>`;

const fillRoot = (html: string) => `document.getElementById("root").innerHTML = ${JSON.stringify(html)};`;

/** The article, `extra` sentences in its paragraph (a short paragraph of its own may be read as boilerplate). */
const article = (extra = "") =>
	`<article><h1>The tide clock</h1><p>${ARTICLE}${extra} See <a href="/keeper">the keeper's log</a>.</p></article>`;
const articleHtml = article();

const DOWNLOAD_BYTES = 200_000;
const JSON_TYPE = { "content-type": "application/json" };

let site: TestServer;
let other: CountingServer;
const browser = new SharedBrowser();
/** intranet.test is a private address; rebind.test answers with the second loopback server's. */
const lookup: HostLookup = async (host) => {
	if (host === "intranet.test") return [{ address: "10.0.0.1", family: 4 }];
	if (host === "rebind.test") return [{ address: "127.0.0.2", family: 4 }];
	throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};
const provider = createBrowserProvider({ browser, lookup });
const fetchPage = (path: string, options: Record<string, unknown> = {}, extra: Partial<FetchRequest> = {}) =>
	provider.fetch!(fetchRequest(`${site.origin}${path}`, extra), browserCall(options));

beforeAll(async () => {
	requireBrowser();
	[site, other] = await Promise.all([startServer("127.0.0.1"), startCountingServer("127.0.0.2")]);
});

afterAll(async () => {
	await browser.close();
	await Promise.all([site.close(), other.close()]);
});

describe("pages built by script", () => {
	it("reads text a script writes into an empty root, with title, final URL, text format and references", async () => {
		site.route("/spa", send(shell(fillRoot(articleHtml))));
		const result = await fetchPage("/spa");
		expect(result.title).toBe("Tide clock");
		expect(result.finalUrl).toBe(`${site.origin}/spa`);
		expect(result.content).toContain(ARTICLE);
		const number = Number(/\[the keeper's log\]\[(\d+)\]/.exec(result.content)?.[1]);
		expect(result.references?.urls[number - 1]).toBe(`${site.origin}/keeper`);
		const text = await fetchPage("/spa", {}, { format: "text" });
		expect(text.format).toBe("text");
		expect(text.content).toContain(ARTICLE);
		expect(text.content).not.toMatch(/[#[]/);
	});

	it("waits for text that arrives by a later fetch() answered after 300 ms", async () => {
		site.route("/late.json", (_req, res) => {
			setTimeout(
				() => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ html: articleHtml })),
				300,
			);
		});
		const script = `fetch("/late.json").then((r) => r.json()).then((d) => { document.getElementById("root").innerHTML = d.html; });`;
		site.route("/late", send(shell(script)));
		const result = await fetchPage("/late");
		expect(result.content).toContain(ARTICLE);
	});
	it("waits for a fetch that a short timer starts after the first answer has been written", async () => {
		site.route("/first.json", send(JSON.stringify({ html: "<p>Loading the keeper's notes…</p>" }), JSON_TYPE));
		site.route("/second.json", send(JSON.stringify({ html: articleHtml }), JSON_TYPE));
		const write = `(d) => { document.getElementById("root").innerHTML = d.html; }`;
		const script = `fetch("/first.json").then((r) => r.json()).then((d) => { (${write})(d);
			setTimeout(() => fetch("/second.json").then((r) => r.json()).then(${write}), 150); });`;
		site.route("/queued", send(shell(script)));
		const result = await fetchPage("/queued");
		expect(result.content).toContain(ARTICLE);
	});
});

describe("the fetch guard on every request of the page", () => {
	it("refuses the page's fetch, image, WebSocket, iframe, redirect, private names and metadata; renders the rest", async () => {
		const far = `127.0.0.2:${other.port}`;
		site.route("/go", redirect(`http://${far}/after-redirect`));
		const script = [
			fillRoot(articleHtml),
			`fetch("http://${far}/fetched").catch(() => {});`,
			`const img = new Image(); img.src = "http://${far}/image.png"; document.body.append(img);`,
			`const frame = document.createElement("iframe"); frame.src = "http://${far}/frame"; document.body.append(frame);`,
			`fetch("/go").catch(() => {});`,
			`for (const u of ["ws://${far}/ws", "ws://intranet.test:${other.port}/ws", "ws://rebind.test:${other.port}/ws"]) { try { new WebSocket(u).onerror = () => {}; } catch {} }`,
			`fetch("http://169.254.169.254/latest/meta-data/").catch(() => {});`,
		].join("\n");
		site.route("/hostile", send(shell(script)));
		const before = other.connections;
		const result = await fetchPage("/hostile", { settleMs: 2000 });
		expect(result.content).toContain(ARTICLE);
		expect(other.connections - before).toBe(0);
		expect(other.requests).toEqual([]);
		const refused = Number(
			/(\d+) of the page's requests were refused by the fetch guard/.exec(result.warnings?.join("\n") ?? "")?.[1],
		);
		// fetch, image, iframe, redirect target, three WebSockets and the metadata address.
		expect(refused).toBeGreaterThanOrEqual(8);
		expect(site.hits).toContain("/go");
	});

	it("fails a refused document host as direct does, before any request reaches it", async () => {
		const before = other.connections;
		const url = `http://127.0.0.2:${other.port}/`;
		const error = await failureOf(provider.fetch!(fetchRequest(url), browserCall()));
		expect(error).toMatchObject({ kind: "guard", code: "guard-refused" });
		expect(error.message).toMatch(/^refused 127\.0\.0\.2 \(loopback\) for 127\.0\.0\.2: .*fetchGuard\.allowRanges/);
		const direct = await failureOf(directDefault.fetch!(fetchRequest(url), browserCall()));
		expect({ kind: error.kind, code: error.code, message: error.message }).toEqual({
			kind: direct.kind,
			code: direct.code,
			message: direct.message,
		});
		expect(other.connections).toBe(before);
	});

	it("refuses file:// and chrome:// URLs as bad requests", async () => {
		for (const url of ["file:///etc/passwd", "chrome://version/"]) {
			const error = await failureOf(provider.fetch!(fetchRequest(url), browserCall()));
			expect(error).toMatchObject({ kind: "bad-request", code: "unsupported-scheme" });
		}
	});
});

describe("each call in a fresh browser context", () => {
	it("keeps no cookie or storage of an earlier call", async () => {
		const cookies: string[] = [];
		site.route("/set", (req, res) => {
			cookies.push(req.headers.cookie ?? "");
			const script = `document.cookie = "tide=high; max-age=3600"; localStorage.setItem("tide", "high"); ${fillRoot(article(" The keeper stored the tide tables."))}`;
			res
				.writeHead(200, { "content-type": "text/html", "set-cookie": "server=kept; Max-Age=3600; Path=/" })
				.end(shell(script));
		});
		site.route("/show", (req, res) => {
			cookies.push(req.headers.cookie ?? "");
			const found = `" The jar held cookie=[" + document.cookie + "] storage=[" + (localStorage.getItem("tide") ?? "") + "]."`;
			const script = `document.getElementById("root").innerHTML = ${JSON.stringify(article("@"))}.replace("@", ${found});`;
			res.writeHead(200, { "content-type": "text/html" }).end(shell(script));
		});
		expect((await fetchPage("/set")).content).toContain("The keeper stored the tide tables");
		const shown = await fetchPage("/show");
		expect(shown.content).toContain("cookie=[] storage=[]");
		expect(cookies).toEqual(["", ""]);
	});
});

describe("dialogs, downloads and popups", () => {
	it("dismisses alert() and confirm() instead of hanging", async () => {
		site.route(
			"/dialogs",
			send(
				shell(
					`alert("hello"); const ok = confirm("sure?"); ${fillRoot(articleHtml)} document.title = "confirmed " + ok;`,
				),
			),
		);
		const result = await fetchPage("/dialogs", {}, {});
		expect(result.content).toContain(ARTICLE);
		expect(result.title).toBe("confirmed false");
	});

	it("fails a download cleanly, renders a page that navigates to one as it was, and writes no file", async () => {
		const startedAt = Date.now();
		const cwdBefore = readdirSync(process.cwd()).sort();
		const attachment = {
			"content-type": "application/octet-stream",
			"content-disposition": 'attachment; filename="tide.bin"',
		};
		site.route("/tide.bin", send(Buffer.alloc(DOWNLOAD_BYTES, 7), attachment));
		site.route(
			"/leave",
			send(shell(`${fillRoot(article(" The keeper left for the download."))} location.href = "/tide.bin";`)),
		);
		const error = await failureOf(fetchPage("/tide.bin"));
		expect(error).toMatchObject({ kind: "bad-request", code: "unsupported-content-type" });
		expect(error.message).toContain("is a download, not a page");
		// The download's navigation is aborted; the document that started it was whole (not a body cut off).
		expect((await fetchPage("/leave")).content).toContain("The keeper left for the download.");
		expect(readdirSync(process.cwd()).sort()).toEqual(cwdBefore);
		// Other test files share TMPDIR and HOME (test/global-setup.ts): look for the download itself, not any change.
		for (const dir of [process.env.TMPDIR ?? tmpdir(), homedir()])
			expect(downloadsIn(dir, startedAt, "tide.bin", DOWNLOAD_BYTES)).toEqual([]);
	});

	it("closes a window.open popup at once: its script never gets to keep requesting", async () => {
		let beats = 0;
		site.route("/beat", (_req, res) => {
			beats++;
			res.end("ok");
		});
		site.route("/busy-popup", send(shell(`setInterval(() => fetch("/beat"), 20); ${fillRoot(article())}`, "Popup")));
		site.route("/opener", send(shell(`window.open("/busy-popup"); ${fillRoot(article(" The opener stays."))}`)));
		const result = await fetchPage("/opener");
		expect(result.title).toBe("Tide clock");
		expect(result.content).toContain("The opener stays.");
		// The render lasts at least the DOM-quiet wait (RENDER_DEFAULTS.domQuietMs): a live popup beats 40 times in it;
		// a closed one only while Playwright reports it (a few beats on a loaded machine).
		expect(beats).toBeLessThan(RENDER_DEFAULTS.domQuietMs / 20 / 4);
	});
});

describe("HTTP failures and empty renders", () => {
	it("fails a 404 page with http-404 as direct does", async () => {
		site.route("/missing", send(shell(fillRoot(articleHtml)), { "content-type": "text/html" }, 404));
		expect(await failureOf(fetchPage("/missing"))).toMatchObject({
			kind: "bad-request",
			code: "http-404",
			status: 404,
		});
	});

	it("fails a page that renders to nothing with empty-render", async () => {
		site.route("/nothing", send(shell("/* builds nothing */")));
		expect(await failureOf(fetchPage("/nothing"))).toMatchObject({ kind: "bad-request", code: "empty-render" });
	});
});

describe("through the CLI: direct first, the browser only for a JavaScript shell", () => {
	const home = mkdtempSync(join(tmpdir(), "pwa-browser-cli-"));
	const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
	const file = join(home, "cfg.json");
	writeFileSync(
		file,
		JSON.stringify({
			providers: {
				direct: { type: "direct" },
				browser: { type: "browser", executablePath: requireBrowser() },
			},
			fetch: ["direct", "browser"],
			fetchGuard: { allowRanges: ["127.0.0.1/32"] },
		}),
	);
	afterAll(closeSharedBrowser);

	it("answers a static page from direct and skips the browser, saying when it would run", async () => {
		site.route(
			"/cli-static",
			send(`<!doctype html><html><head><title>Static</title></head><body>${articleHtml}</body></html>`),
		);
		const launches = sharedBrowserState()?.launches ?? 0;
		const { code, stdout } = await runCli(["fetch", `${site.origin}/cli-static`, "--json", "--config", file], env);
		expect(code).toBe(0);
		const result = JSON.parse(stdout);
		expect(result.provider).toBe("direct");
		// The walk ends at the answer: the browser step is not reached, so it is not listed, and never launched.
		expect(result.attempts).toMatchObject([{ provider: "direct", outcome: "ok" }]);
		expect(result.attempts).toHaveLength(1);
		expect(sharedBrowserState()?.launches ?? 0).toBe(launches);
		const explained = await runCli(["explain", "fetch", `${site.origin}/cli-static`, "--config", file], env);
		expect(explained.stdout).toContain("only when an earlier step finds a page that needs JavaScript");
	});
});
