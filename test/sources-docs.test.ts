// The package documentation readers through the direct provider against loopback servers answering in the sites'
// own formats (test/fixtures/sources/go/, docsrs/): pkg.go.dev's page and versions tab beside the Go module proxy's
// `@latest` (GOPROXY protocol), docs.rs's rustdoc root page; the page on a 404, a rate limit's typed failure, huge
// documentation bounded, hostile doc comments still wrapped as untrusted content.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FetchResult } from "../engine/result-types.ts";
import { createDirectProvider } from "../providers/direct/provider.ts";
import { docsrsCrate } from "../providers/sources/docsrs.ts";
import { goPackage } from "../providers/sources/go.ts";
import { formatFetch } from "../runtime/format.ts";
import { type Handler, request, send } from "./direct-helpers.ts";
import {
	describeMatches,
	expectInOrder,
	fixture,
	json,
	readThrough,
	type SourceWorld,
	startSourceWorld,
} from "./helpers/source-world.ts";

const MATCHES: Array<[typeof goPackage, string, Record<string, string> | undefined]> = [
	[
		goPackage,
		"https://pkg.go.dev/github.com/acme/tinyparse/lexer",
		{ path: "github.com/acme/tinyparse/lexer", page: "github.com/acme/tinyparse/lexer" },
	],
	[
		goPackage,
		"https://pkg.go.dev/github.com/acme/tinyparse@v1.2.0/lexer",
		{ path: "github.com/acme/tinyparse/lexer", page: "github.com/acme/tinyparse@v1.2.0/lexer", version: "v1.2.0" },
	],
	[goPackage, "https://pkg.go.dev/net/http", { path: "net/http", page: "net/http" }],
	[goPackage, "https://pkg.go.dev/mod/golang.org/x/net", { path: "golang.org/x/net", page: "golang.org/x/net" }],
	[goPackage, "https://pkg.go.dev/net/http?tab=versions", undefined],
	[goPackage, "https://pkg.go.dev/search?q=lexer", undefined],
	[docsrsCrate, "https://docs.rs/tinyparse", { name: "tinyparse", version: "latest", lib: "tinyparse" }],
	[docsrsCrate, "https://docs.rs/tiny-parse/2.1.0", { name: "tiny-parse", version: "2.1.0", lib: "tiny_parse" }],
	[
		docsrsCrate,
		"https://docs.rs/tinyparse/latest/tinyparse/",
		{ name: "tinyparse", version: "latest", lib: "tinyparse" },
	],
	[docsrsCrate, "https://docs.rs/crate/tinyparse/2.1.0", { name: "tinyparse", version: "2.1.0", lib: "tinyparse" }],
	[docsrsCrate, "https://docs.rs/tinyparse/latest/tinyparse/struct.Token.html", undefined],
	[docsrsCrate, "https://docs.rs/releases/recent", undefined],
];

describeMatches("documentation reader URL matches", MATCHES);

let world: SourceWorld;
const provider = createDirectProvider();
const at = (path: string) => `http://127.0.0.1:${world.page.port}${path}`;
const go = (own = {}) => world.call("go", { proxyUrl: `${world.api.origin}/goproxy`, ...own });
const LEXER = "/github.com/acme/tinyparse/lexer";

/** pkgsite serves a unit's page and its versions tab on one path: `?tab=versions` tells them apart. */
const byTab =
	(main: Handler, versions: Handler): Handler =>
	(req, res) =>
		(new URL(req.url ?? "/", "http://x").searchParams.get("tab") === "versions" ? versions : main)(req, res);

beforeAll(async () => {
	world = await startSourceWorld();
	const { api, page } = world;
	const html = (body: string, status = 200) => send(body, { "content-type": "text/html; charset=utf-8" }, status);
	const text = (body: string, status = 200) => send(body, { "content-type": "text/plain; charset=utf-8" }, status);
	api.route(LEXER, byTab(html(fixture("go", "lexer.html")), html(fixture("go", "lexer-versions.html"))));
	api.route("/goproxy/github.com/acme/tinyparse/@latest", json(fixture("go", "latest.json")));
	api.route("/goproxy/github.com/acme/tinyparse/@v/list", text(fixture("go", "list.txt")));
	for (const path of ["/goproxy/github.com/acme/tinyparse/lexer/@latest", "/goproxy/github.com/acme/@latest"])
		api.route(path, text(fixture("go", "not-found.txt"), 404));
	api.route("/tinyparse/latest/tinyparse/", html(fixture("docsrs", "tinyparse.html")));
	api.route(
		"/samedesc/latest/samedesc/",
		html(
			fixture("docsrs", "tinyparse.html")
				.replace('"name": "tinyparse"', '"name": "samedesc"')
				.replace(
					'title="A tiny parser that flushes the last token."',
					'title="A tiny parser that flushes the last token at end of input."',
				),
		),
	);
	api.route(
		"/hugecrate/latest/hugecrate/",
		html(
			fixture("docsrs", "tinyparse.html").replace(
				"<p>A tiny parser that flushes the last token at end of input.</p>",
				`<p>${"A tiny parser that says so at length. ".repeat(5000)}</p>`,
			),
		),
	);
	api.route("/gone/latest/gone/", html("<html><body><h1>The requested crate does not exist</h1></body></html>", 404));
	page.route("/gone", html("<html><body><main><p>The docs.rs page itself.</p></main></body></html>"));
	const huge = fixture("go", "lexer.html").replace(
		"<p>Lexer reads tokens from a reader.</p>",
		`<p>${"Lexer reads tokens from a reader and says so at length. ".repeat(4000)}</p>`,
	);
	api.route("/github.com/acme/huge", byTab(html(huge), html(fixture("go", "lexer-versions.html"))));
});
afterAll(() => world.close());
beforeEach(() => {
	world.api.hits.length = 0;
	world.page.hits.length = 0;
});

describe("go-package reader", () => {
	it("reads pkg.go.dev's documentation, facts and versions with dates, and the module and latest from the proxy", async () => {
		const result = await provider.fetch!(request(at(LEXER)), go());
		const text = result.content;
		expect(result.title).toBe("lexer");
		// A doc heading and a declaration's comment are the package's words, not a site's comment thread.
		expectInOrder(text, [
			"github.com/acme/tinyparse/lexer · module github.com/acme/tinyparse · v1.4.0  \n",
			"License: BSD-3-Clause",
			"Imports: 4 · imported by 1,234",
			"Package lexer splits input into tokens",
			"### Hostile doc comment",
			"ErrUnterminated is returned when a quoted string has no closing quote.",
			"func Tokenize(s string) ([]Token, error)",
			"Tokenize returns every token of s",
			"type Lexer struct {\n\t// contains filtered or unexported fields\n}",
			"func (l *Lexer) Next() (Token, error)",
			"Next returns the next token, or io.EOF after the last one.",
			"## Versions (4)\n\n2026: v1.4.0 03-04\n\n2025: v1.3.1 01-20 retracted\n\n2024: v1.2.0 06-11, v1.0.0 02-01\n",
		]);
		// Left out: the index (every name again), empty sections, anchors and source links.
		expect(text).not.toContain("This section is empty");
		expect(text).not.toContain("¶");
		expect(text).not.toContain("lexer.go#L21");
		expect(text.match(/func Tokenize\(/g)).toHaveLength(1);
		// The latest is the version shown: said once. Page, versions tab and module guesses go at once.
		expect(text).not.toContain("Latest:");
		expect([...world.api.hits].sort()).toEqual([
			LEXER,
			`${LEXER}?tab=versions`,
			"/goproxy/github.com/acme/@latest",
			"/goproxy/github.com/acme/tinyparse/@latest",
			"/goproxy/github.com/acme/tinyparse/lexer/@latest",
		]);
		expect(world.page.hits).toEqual([]);
	});

	it("says the module's repository and the version's day once: no Repository line for the module path, the day in the version list", async () => {
		const text = (await provider.fetch!(request(at(LEXER)), go())).content;
		expect(text).toContain(" · module github.com/acme/tinyparse · v1.4.0  \n");
		expect(text).not.toContain("Repository:");
		expect(text.match(/03-04/g)).toHaveLength(1);
		expect(text).not.toContain("2026-03-04");
	});

	it("says a one-line declaration in its item's heading instead of the name and then the declaration again", async () => {
		const text = (await provider.fetch!(request(at(LEXER)), go())).content;
		expect(text).toContain(
			"#### `func Tokenize(s string) ([]Token, error)` added in v1.2.0\n\nTokenize returns every token of s",
		);
		expect(text).toContain("#### `func (l *Lexer) Next() (Token, error)`\n\nNext returns the next token");
		expect(text).not.toContain("#### func ");
		// A declaration of several lines stays a block under its heading.
		expect(text).toContain(
			"#### type Lexer\n\n```\ntype Lexer struct {\n\t// contains filtered or unexported fields\n}\n```",
		);
	});

	it("reads the module proxy alone when pkg.go.dev is rate limited: the module, its latest and every version", async () => {
		const limited = await startSourceWorld();
		limited.api.route(LEXER, send("too many requests", { "retry-after": "30" }, 429));
		limited.api.route("/goproxy/github.com/acme/tinyparse/@latest", json(fixture("go", "latest.json")));
		limited.api.route(
			"/goproxy/github.com/acme/tinyparse/@v/list",
			send(fixture("go", "list.txt"), { "content-type": "text/plain" }),
		);
		const call = limited.call("go", { proxyUrl: `${limited.api.origin}/goproxy` });
		const result = await provider.fetch!(request(`http://127.0.0.1:${limited.page.port}${LEXER}`), call);
		expect(result.content).toContain("module github.com/acme/tinyparse");
		expect(result.content).toContain("Latest: v1.4.0 (2026-03-04)");
		expect(result.content).toContain("HTTP 429 rate limited");
		expect(result.content).toContain(
			"## Versions (5, newest first)\n\n2026: v1.4.0 03-04\n\nundated: v1.10.0-rc.1, v1.3.1, v1.2.0, v1.0.0\n",
		);
		expect(limited.page.hits).toEqual([]);
		await limited.close();
	});

	it("fails with the typed rate limit and reads the page when neither pkg.go.dev nor the proxy answers", async () => {
		const limited = await startSourceWorld();
		limited.api.route("/net/http", send("too many requests", { "retry-after": "30" }, 429));
		limited.page.route("/net/http", send("<html><body><main><p>The http package page.</p></main></body></html>"));
		const url = `http://127.0.0.1:${limited.page.port}/net/http`;
		const call = limited.call("go", { proxyUrl: `${limited.api.origin}/goproxy` });
		const read = await readThrough(url, call);
		expect(read?.failure).toMatchObject({ errorClass: "rate-limit", retryAfterMs: 30_000 });
		// The standard library is no module of a proxy: it is not asked.
		expect(limited.api.hits.filter((hit) => hit.startsWith("/goproxy"))).toEqual([]);
		const result = await provider.fetch!(request(url), call);
		expect(result.content).toContain("The http package page.");
		expect(result.warnings?.[0]).toMatch(/^go-package reader skipped: its API is rate limited/);
		await limited.close();
	});

	it("bounds huge documentation: cut with a note", async () => {
		const result = await provider.fetch!(request(at("/github.com/acme/huge")), go());
		expect(result.content).toContain("_(cut at 80000 characters)_");
		expect(result.content.length).toBeLessThan(85_000);
	});
});

describe("docsrs-crate reader", () => {
	it("reads the rustdoc root: name, version, description, license, repository, crate docs and the item list", async () => {
		const result = await provider.fetch!(request(at("/tinyparse")), world.call("docsrs"));
		const text = result.content;
		expect(result.title).toBe("tinyparse 2.1.0");
		expectInOrder(text, [
			"# tinyparse 2.1.0\n\nA tiny parser that flushes the last token.\n",
			"License: MIT OR Apache-2.0",
			"Repository: github.com/acme/tinyparse",
			"A tiny parser that flushes the last token at end of input.",
			'let tokens = tinyparse::parse("a b c");',
			"## Modules\n\nlexer\n\nSplits input into tokens.",
			"## Functions\n\nparse\n\nReturns every token of `s`, the last one included.",
		]);
		expect(text).not.toContain("§");
		expect(text).not.toContain("Expand description");
		expect(text).not.toContain("Copy item path");
		expect(text).not.toContain("lib.rs.html");
		expect(world.api.hits).toEqual(["/tinyparse/latest/tinyparse/"]);
	});

	it("says a description the crate docs open with once", async () => {
		const result = await provider.fetch!(request(at("/samedesc")), world.call("docsrs"));
		expect(result.content.match(/A tiny parser that flushes the last token at end of input\./g)).toHaveLength(1);
		expect(result.content).toContain("# samedesc 2.1.0\n\nLicense: MIT OR Apache-2.0");
	});

	it("fails with the typed rate limit when docs.rs answers 429, then reads the page", async () => {
		const limited = await startSourceWorld();
		limited.api.route("/busy/latest/busy/", send("slow down", { "retry-after": "12" }, 429));
		limited.page.route("/busy", send("<html><body><main><p>The busy crate's page.</p></main></body></html>"));
		const url = `http://127.0.0.1:${limited.page.port}/busy`;
		const read = await readThrough(url, limited.call("docsrs"));
		expect(read?.failure).toMatchObject({ errorClass: "rate-limit", retryAfterMs: 12_000 });
		const result = await provider.fetch!(request(url), limited.call("docsrs"));
		expect(result.content).toContain("The busy crate's page.");
		await limited.close();
	});

	it("bounds a huge crate's documentation: cut with a note", async () => {
		const result = await provider.fetch!(request(at("/hugecrate")), world.call("docsrs"));
		expect(result.content).toContain("_(cut at 80000 characters)_");
		expect(result.content.length).toBeLessThan(85_000);
	});

	it("falls back to the page when docs.rs answers 404, saying so", async () => {
		const result = await provider.fetch!(request(at("/gone")), world.call("docsrs"));
		expect(result.content).toContain("The docs.rs page itself.");
		expect(result.warnings?.[0]).toMatch(
			/^docsrs-crate reader failed \(docsrs-crate: HTTP 404 not found at .*\); read the page instead$/,
		);
	});
});

describe("hostile documentation", () => {
	const shown = (result: Awaited<ReturnType<NonNullable<typeof provider.fetch>>>, url: string) =>
		formatFetch({
			...result,
			url,
			provider: "direct",
			truncated: false,
			totalChars: result.content.length,
			warnings: [],
			attempts: [],
		} as unknown as FetchResult);

	it("keeps a doc comment's forged headers and fake end marker inside the untrusted block", async () => {
		for (const [url, call] of [
			[at(LEXER), go()],
			[at("/tinyparse"), world.call("docsrs")],
		] as const) {
			const result = await provider.fetch!(request(url), call);
			expect(result.content).toMatch(/^\\### (Comment|Answer) 1 /m);
			const text = shown(result, url);
			expect(text.match(/<<<END UNTRUSTED WEB CONTENT>>>/g)).toHaveLength(1);
			expect(text.trimEnd().endsWith("<<<END UNTRUSTED WEB CONTENT>>>")).toBe(true);
		}
	});
});
