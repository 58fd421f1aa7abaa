// A page nested deeper than 512 levels is read as browsers read it (their parsers stop nesting there): the deeper
// elements become one level, their text is kept, scripts and styles stay out, and a warning says so. Such a page
// failed whole before. Past 4,096 levels the rest is not read (why: dom.ts DOM_DEFAULTS.maxParseDepth).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePage } from "../providers/direct/dom.ts";
import { failureOf, fetchWith, send, startServer, type TestServer } from "./direct-helpers.ts";

let server: TestServer;
beforeAll(async () => {
	server = await startServer();
});
afterAll(() => server.close());

const deep = (levels: number, inner: string) =>
	`<html><head><title>Deep</title></head><body><main><h2>Top heading</h2><p>${"Text near the top of the page. ".repeat(10)}</p>${"<div>".repeat(levels)}${inner}${"</div>".repeat(levels)}<p>${"After the nest, the page goes on with more text. ".repeat(6)}</p></main></body></html>`;

describe("pages nested deeper than 512 levels", () => {
	it("are fetched with their text, the deep part's included, and a warning", async () => {
		const inner = `<p>${"Words deep inside the nest. ".repeat(5)}</p><script>var hidden = "script code";</script><style>.x{}</style><p>Second deep paragraph.</p>`;
		server.route("/deep", send(deep(3000, inner), { "content-type": "text/html; charset=utf-8" }));
		const result = await fetchWith(`${server.origin}/deep`);
		expect(result.content).toContain("Text near the top of the page.");
		expect(result.content).toContain("Words deep inside the nest.");
		expect(result.content).toContain("Second deep paragraph.");
		expect(result.content).toContain("After the nest, the page goes on");
		expect(result.content).not.toContain("script code");
		expect(result.warnings).toContainEqual(
			"elements nested deeper than 512 levels were read as one level, as browsers do: layout there may be lost",
		);
	});

	it("past 4,096 levels keep what was read up to there, and say the rest was not read", async () => {
		server.route("/deeper", send(deep(100_000, "<p>Unreached.</p>"), { "content-type": "text/html" }));
		const result = await fetchWith(`${server.origin}/deeper`);
		expect(result.content).toContain("Text near the top of the page.");
		expect(result.content).not.toContain("Unreached.");
		expect(result.warnings).toContainEqual(
			"elements nested deeper than 512 levels were read as one level, as browsers do: layout there may be lost; past 4,096 levels the rest of the page was not read",
		);
	});

	it("fail clearly when nothing readable comes before the depth where reading stops", async () => {
		server.route("/no-text", send(`<body>${"<div/>".repeat(300_000)}<p>end</p>`, { "content-type": "text/html" }));
		const error = await failureOf(fetchWith(`${server.origin}/no-text`));
		expect(error).toMatchObject({ kind: "bad-request", code: "too-deep" });
		expect(error.message).toBe(
			"could not convert the page: its elements nest deeper than 4,096 levels before any text",
		);
	});

	it("make no more elements than the 512 levels and the shallow ones", () => {
		const page = parsePage(deep(100_000, "<p>x</p>"));
		expect(page.elementCount).toBeLessThan(520);
		expect(page).toMatchObject({ flattened: true, stoppedDeep: true });
	});
});
