// What a render leaves unfetched, on real Chromium: web fonts, which the extractor never reads, are not loaded at all
// (neither a stylesheet's @font-face nor a script's FontFace) and never reach a server; images and the page's
// fetch() still go to it through the guard proxy, and the page's text is read whole.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedBrowser } from "../providers/browser/driver.ts";
import { createBrowserProvider } from "../providers/browser/provider.ts";
import { send, startServer, type TestServer } from "./direct-helpers.ts";
import { browserCall, fetchRequest, requireBrowser } from "./helpers/browser-world.ts";

const TEXT =
	"The ferry leaves the north quay at six, calls at the lighthouse island at half past and returns by the evening tide.";
const LATER = "On Sundays the last crossing is an hour earlier, and the café on the quay closes with it.";

const PAGE = `<!doctype html><html><head><title>Ferry</title><style>
@font-face { font-family: Quay; src: url(/fonts/quay.woff2) format("woff2"); }
body { font-family: Quay, serif; }
</style></head><body><main id="root"></main>
<img src="/harbour.png" alt="the harbour at dawn">
<script>
document.getElementById("root").innerHTML = "<h1>Ferry times</h1><p>${TEXT}</p>";
new FontFace("Bell", "url(/fonts/bell.woff2)").load().catch(() => {});
fetch("/later.json").then((r) => r.json()).then((d) => {
	const p = document.createElement("p");
	p.textContent = d.text;
	document.getElementById("root").append(p);
});
</script></body></html>`;

/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
	"base64",
);

let site: TestServer;
const browser = new SharedBrowser();
const provider = createBrowserProvider({ browser });

beforeAll(async () => {
	requireBrowser();
	site = await startServer();
	site.route("/ferry", send(PAGE));
	site.route("/later.json", send(JSON.stringify({ text: LATER }), { "content-type": "application/json" }));
	site.route("/harbour.png", send(PNG, { "content-type": "image/png" }));
	for (const font of ["/fonts/quay.woff2", "/fonts/bell.woff2"]) {
		site.route(font, send(Buffer.alloc(2_000), { "content-type": "font/woff2" }));
	}
});

afterAll(async () => {
	await browser.close();
	await site.close();
});

describe("a render's web fonts", () => {
	it("never reach the server, while the image, the page's fetch() and its text do", async () => {
		const result = await provider.fetch!(fetchRequest(`${site.origin}/ferry`), browserCall());
		expect(result.content).toContain(TEXT);
		expect(result.content).toContain(LATER);
		expect(site.hits).toContain("/harbour.png");
		expect(site.hits).toContain("/later.json");
		expect(site.hits.filter((path) => path.startsWith("/fonts/"))).toEqual([]);
	});
});
