// The arxiv-paper reader through the direct provider against a loopback arXiv answering a recorded Atom feed
// (test/fixtures/sources/arxiv/) and a PDF made by the tests: metadata and abstract, then the paper's text; the
// metadata alone when the PDF fails; the page when the API knows no such paper.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDirectProvider } from "../providers/direct/provider.ts";
import { arxivPaper } from "../providers/sources/arxiv.ts";
import { makePdf, request, send } from "./direct-helpers.ts";
import { fixture, type SourceWorld, startSourceWorld } from "./helpers/source-world.ts";

const ATOM = { "content-type": "application/atom+xml; charset=utf-8" };

describe("arxiv-paper URL match", () => {
	const cases: Array<[string, Record<string, string> | undefined]> = [
		["https://arxiv.org/abs/2601.01234", { id: "2601.01234" }],
		["https://arxiv.org/abs/2601.01234v2", { id: "2601.01234v2" }],
		["https://arxiv.org/abs/hep-th/9901001", { id: "hep-th/9901001" }],
		["https://arxiv.org/pdf/2601.01234", undefined],
		["https://arxiv.org/list/cs.PL/recent", undefined],
	];
	for (const [url, expected] of cases) it(url, () => expect(arxivPaper.match(new URL(url))).toEqual(expected));
});

describe("arxiv-paper reader", () => {
	let world: SourceWorld;
	const provider = createDirectProvider();
	beforeAll(async () => {
		world = await startSourceWorld();
		world.api.route("/api/query", (req, res) => {
			const id = new URL(req.url ?? "/", "http://x").searchParams.get("id_list");
			const name = id === "2601.01234" || id === "2601.05555" ? "query-2601.01234.xml" : "query-missing.xml";
			send(fixture("arxiv", name), ATOM)(req, res);
		});
		world.api.route(
			"/pdf/2601.01234",
			send(makePdf(["Section 1 flushes the last token"], "Tokenizers"), { "content-type": "application/pdf" }),
		);
		world.page.route("/abs/2601.99999", send("<html><body><main><p>The abstract page.</p></main></body></html>"));
	});
	afterAll(() => world.close());
	const at = (path: string) => `http://127.0.0.1:${world.page.port}${path}`;

	it("reads title, authors, dates, categories, comment and abstract, then the paper's text, asked at once", async () => {
		const result = await provider.fetch!(request(at("/abs/2601.01234")), world.call("arxiv"));
		const text = result.content;
		expect(result.title).toBe("Tokenizers That Never Drop the Last Token");
		expect(text).toContain("arXiv:2601.01234 · Alice Example, Bob Builder");
		expect(text).toContain("Submitted 2026-01-02 12:00 UTC · updated 2026-01-09 18:00 UTC");
		expect(text).toContain("Categories: cs.PL, cs.FL");
		expect(text).toContain("Comment: 12 pages, 3 figures");
		expect(text).toContain(
			"## Abstract\n\nWe study tokenizers & parsers that flush at end of input. We show a linear-time fix.",
		);
		expect(text).toMatch(/## Paper\n\n[\s\S]*Section 1 flushes the last token/);
	});

	it("keeps the metadata when the PDF cannot be read", async () => {
		const result = await provider.fetch!(request(at("/abs/2601.05555")), world.call("arxiv"));
		expect(result.content).toContain("# Tokenizers That Never Drop the Last Token");
		expect(result.content).toContain("## Paper\n\n_(the PDF could not be read)_");
	});

	it("reads the page when the API knows no such paper", async () => {
		const result = await provider.fetch!(request(at("/abs/2601.99999")), world.call("arxiv"));
		expect(result.content).toContain("The abstract page.");
		expect(result.warnings?.[0]).toMatch(/^arxiv-paper reader failed .*no arXiv entry for 2601\.99999/);
	});
});
