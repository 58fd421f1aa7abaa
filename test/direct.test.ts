// The direct provider end to end against real HTTP servers on loopback: extraction of the saved pages (article,
// docs, forum), text and JSON as they are, request headers, and the answers that count as failures (JS-only,
// anti-bot challenge, unsupported type, HTTP errors, refused connection, cancellation).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import directDefault, { DIRECT_DEFAULTS } from "../providers/direct/provider.ts";
import {
	callContext,
	failureOf,
	fetchWith,
	LOOPBACK,
	page,
	send,
	startServer,
	type TestServer,
} from "./direct-helpers.ts";

let server: TestServer;

beforeAll(async () => {
	server = await startServer();
	for (const name of ["article", "docs", "forum"]) server.route(`/${name}`, send(page(`${name}.html`)));
});

afterAll(() => server.close());

describe("extraction of saved pages", () => {
	it("keeps an article's text, headings, lists and links, and drops nav, ads and footer", async () => {
		const result = await fetchWith(`${server.origin}/article`);
		expect(result.title).toBe("Why the Tide Clock Runs Backwards | The Harbour Gazette");
		expect(result.extraction).toBe("verbatim");
		expect(result.finalUrl).toBe(`${server.origin}/article`);
		const md = result.content;
		expect(md).toContain("## How the mechanism works");
		expect(md).toContain("- a reversing idler gear, so the hand turns anticlockwise;");
		expect(md).toContain("1. Read the hand's position.");
		expect(md).toContain("> You do not need to know the time.");
		// Links are numbered references (the default of htmlToMarkdown's `links` option): the text cites the number,
		// the result carries the targets, and the executor lists a window's after it (test/fetch-references.test.ts).
		const number = Number(/\[municipal archive\]\[(\d+)\]/.exec(md)?.[1]);
		expect(result.references?.urls[number - 1]).toBe(`${server.origin}/archive/brandvold`);
		expect(md).not.toMatch(/^\[\d+\]: /m);
		expect(md).toContain("welcomes visitors on the first Saturday of each month.");
		for (const chrome of [
			"BUY CHEAP FERRY",
			"Luxury yachts",
			"Most read",
			"Cookie settings",
			"Subscribe for 1 dollar",
		]) {
			expect(md).not.toContain(chrome);
		}
	});

	it("keeps a docs page's tables as GFM and code blocks fenced with their language", async () => {
		const md = (await fetchWith(`${server.origin}/docs`)).content;
		expect(md).toContain("| Option | Type | Default | Description |\n| --- | --- | --- | --- |");
		expect(md).toContain(
			"| `visibility_timeout` | duration | 30s | How long a claimed job stays invisible to other workers. |",
		);
		expect(md).toContain("| Attempt | Delay |\n| --- | --- |\n| 1 | 2 s |");
		expect(md).toContain('```toml\n[queue]\nworkers = 8\nvisibility_timeout = "45s"');
		expect(md).toContain("```python\nfrom kestrel import Worker\n");
		expect(md).toContain("worker.run(concurrency=8)  # blocks until SIGTERM\n```");
		expect(md).not.toContain("Changelog");
		expect(md).not.toContain("Show source");
	});

	it("keeps every post of a forum thread and drops the board chrome", async () => {
		const md = (await fetchWith(`${server.origin}/forum`)).content;
		expect(md).toContain("tip turns black after about ten minutes at 400 °C");
		expect(md).toContain("400 °C is too hot for leaded solder");
		expect(md).toContain("The tip tinner brought the old one back too.");
		for (const chrome of ["Register", "Powered by", "Top-rated soldering", "Board index"])
			expect(md).not.toContain(chrome);
	});

	it("returns the full text of a long page (windowing is the executor's job)", async () => {
		const paragraphs = Array.from({ length: 400 }, (_, i) => `<p>Paragraph number ${i} of the long page.</p>`);
		server.route(
			"/long",
			send(`<html><head><title>Long</title></head><body><article>${paragraphs.join("")}</article></body></html>`),
		);
		const result = await fetchWith(`${server.origin}/long`);
		expect(result.content).toContain("Paragraph number 0 of");
		expect(result.content).toContain("Paragraph number 399 of the long page.");
		expect(result.window).toBeUndefined();
	});

	it("returns text and JSON as they are", async () => {
		server.route("/notes.txt", send("line one\n  line two\n", { "content-type": "text/plain" }));
		server.route("/data.json", send('{"a": [1, 2]}', { "content-type": "application/json" }));
		expect((await fetchWith(`${server.origin}/notes.txt`)).content).toBe("line one\n  line two\n");
		expect((await fetchWith(`${server.origin}/data.json`)).content).toBe('{"a": [1, 2]}');
	});

	it("sends a User-Agent naming the package and an Accept preferring HTML; the userAgent option overrides", async () => {
		const seen: Array<Record<string, unknown>> = [];
		server.route("/headers", (req, res) => {
			seen.push(req.headers);
			send("ok", { "content-type": "text/plain" })(req, res);
		});
		await fetchWith(`${server.origin}/headers`);
		await fetchWith(`${server.origin}/headers`, callContext({ userAgent: "custom-agent/1" }));
		expect(DIRECT_DEFAULTS.userAgent).toMatch(/^pi-web-access-router\/\d+\.\d+\.\d+/);
		expect(seen[0]?.["user-agent"]).toBe(DIRECT_DEFAULTS.userAgent);
		expect(String(seen[0]?.accept)).toMatch(/^text\/html/);
		expect(seen[1]?.["user-agent"]).toBe("custom-agent/1");
	});
});

describe("pages that count as failures", () => {
	it("fails a page that is empty without JavaScript", async () => {
		server.route("/spa", send(page("spa.html")));
		server.route(
			"/enable-js",
			send("<html><body><p>Please enable JavaScript to view this site.</p><script src=/a.js></script></body></html>"),
		);
		for (const path of ["/spa", "/enable-js"]) {
			const error = await failureOf(fetchWith(`${server.origin}${path}`));
			expect([error.kind, error.code]).toEqual(["bad-request", "needs-javascript"]);
			// The code stays in the classification: the browser step after direct runs only on it.
			expect(directDefault.classify(error)).toEqual({
				errorClass: "bad-request",
				reason: `page is empty without JavaScript (127.0.0.1:${server.port})`,
				code: "needs-javascript",
			});
		}
	});

	it.each([403, 503, 200])("fails a Cloudflare challenge page answered with %i", async (status) => {
		server.route(`/challenge-${status}`, send(page("challenge.html"), { "content-type": "text/html" }, status));
		const error = await failureOf(fetchWith(`${server.origin}/challenge-${status}`));
		expect([error.kind, error.code, error.message]).toEqual([
			"bad-request",
			"bot-challenge",
			`anti-bot challenge (HTTP ${status}) at 127.0.0.1:${server.port}`,
		]);
	});

	it("fails a 403 captcha page and a cf-mitigated answer as challenges", async () => {
		server.route(
			"/captcha",
			send(
				'<html><body><div class="g-recaptcha" data-sitekey="x"></div></body></html>',
				{ "content-type": "text/html" },
				403,
			),
		);
		server.route(
			"/mitigated",
			send("<html><body>hi</body></html>", { "content-type": "text/html", "cf-mitigated": "challenge" }, 403),
		);
		for (const path of ["/captcha", "/mitigated"]) {
			expect((await failureOf(fetchWith(`${server.origin}${path}`))).code).toBe("bot-challenge");
		}
	});

	it("fails unsupported content types as bad-request so the chain moves on", async () => {
		server.route("/image.png", send(Buffer.from([0x89, 0x50, 0x4e, 0x47]), { "content-type": "image/png" }));
		const error = await failureOf(fetchWith(`${server.origin}/image.png`));
		expect([error.kind, error.code, error.message]).toEqual([
			"bad-request",
			"unsupported-content-type",
			"unsupported content type image/png",
		]);
	});

	it("maps HTTP errors: 4xx to bad-request, 5xx to server", async () => {
		server.route("/gone", send("gone", { "content-type": "text/plain" }, 410));
		server.route("/down", send("down", { "content-type": "text/plain" }, 502));
		expect(directDefault.classify(await failureOf(fetchWith(`${server.origin}/gone`)))).toEqual({
			errorClass: "bad-request",
			reason: `HTTP 410 from 127.0.0.1:${server.port}`,
			code: "http-410",
		});
		expect(directDefault.classify(await failureOf(fetchWith(`${server.origin}/down`))).errorClass).toBe("server");
	});

	it("maps a refused connection to transport", async () => {
		const closed = await startServer();
		await closed.close();
		const error = await failureOf(fetchWith(`${closed.origin}/`));
		expect(directDefault.classify(error).errorClass).toBe("transport");
	});

	it("ends a hanging request on the step's signal: timeout or cancelled by its reason", async () => {
		let arrived: () => void = () => {};
		server.route("/hang", (_req, res) => {
			res.writeHead(200, { "content-type": "text/plain" });
			res.write("partial");
			arrived();
		});
		for (const [reason, errorClass] of [
			[new DOMException("step timed out", "TimeoutError"), "timeout"],
			[undefined, "cancelled"],
		] as const) {
			const controller = new AbortController();
			const started = new Promise<void>((resolve) => {
				arrived = resolve;
			});
			const pending = fetchWith(`${server.origin}/hang`, callContext({}, LOOPBACK, controller.signal));
			await started;
			controller.abort(reason);
			expect(directDefault.classify(await failureOf(pending)).errorClass).toBe(errorClass);
		}
	});
});

describe("definition", () => {
	it("is a keyless fetch-only type with no native filters", () => {
		expect(directDefault).toMatchObject({
			type: "direct",
			capabilities: { search: false, fetch: true },
			needsKey: false,
			extraction: "verbatim",
			native: {
				hosts: false,
				paths: false,
				excludeHosts: false,
				excludePaths: false,
				recency: false,
				dateRange: false,
				maxResults: 0,
			},
		});
		expect(Object.keys(directDefault.optionsSchema).sort()).toEqual(["maxBytes", "userAgent"]);
		expect(directDefault.search).toBeUndefined();
	});
});
