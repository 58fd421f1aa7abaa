// GitHub pages a coder wants raw: the URL mapping as a table, then through the direct provider against loopback
// servers standing in for raw.githubusercontent.com (the raw origins are injectable): files and READMEs come back
// untouched as text, a missing README falls back to the page, and format html keeps the page itself.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyKind } from "../providers/direct/convert.ts";
import { GITHUB_ORIGINS, githubRawUrl } from "../providers/direct/github-urls.ts";
import { createDirectProvider } from "../providers/direct/provider.ts";
import { callContext, request, send, startServer, type TestServer } from "./direct-helpers.ts";

const RAW = GITHUB_ORIGINS.raw;
const GIST = GITHUB_ORIGINS.gistRaw;

const MAPPING: Array<[url: string, expected: string | undefined]> = [
	["https://github.com/golang/go/blob/master/src/fmt/print.go", `${RAW}/golang/go/master/src/fmt/print.go`],
	["https://github.com/a/b/blob/v1.2/docs/README.md?plain=1#L10", `${RAW}/a/b/v1.2/docs/README.md`],
	["https://github.com/a/b/blob/main/dir%20x/f.py", `${RAW}/a/b/main/dir%20x/f.py`],
	["https://www.github.com/a/b.git/blob/main/x.rs", `${RAW}/a/b/main/x.rs`],
	["https://github.com/nodejs/node", `${RAW}/nodejs/node/HEAD/README.md`],
	["https://github.com/nodejs/node/", `${RAW}/nodejs/node/HEAD/README.md`],
	["https://gist.github.com/alice/0123456789abcdef", `${GIST}/alice/0123456789abcdef/raw`],
	["https://github.com/nodejs/node?tab=readme-ov-file", undefined],
	["https://github.com/nodejs/node/issues/1", undefined],
	["https://github.com/nodejs/node/tree/main/lib", undefined],
	["https://github.com/nodejs/node/blob/main", undefined],
	["https://github.com/orgs/nodejs", undefined],
	["https://github.com/settings/profile", undefined],
	["https://github.com/nodejs", undefined],
	["https://gist.github.com/alice", undefined],
	["https://gist.github.com/alice/0123456789abcdef/revisions", undefined],
	["https://github.example.com/a/b/blob/main/x", undefined],
	["https://github.com:8443/a/b/blob/main/x", undefined],
	["not a url", undefined],
];

describe("GitHub URL mapping", () => {
	for (const [url, expected] of MAPPING) {
		it(`${url} → ${expected ?? "(unchanged)"}`, () => {
			expect(githubRawUrl(url)?.url).toBe(expected);
		});
	}

	it("marks only the README guess as one that may fall back to the page", () => {
		expect(githubRawUrl("https://github.com/a/b")).toMatchObject({ kind: "readme", fallback: true });
		expect(githubRawUrl("https://github.com/a/b/blob/m/x.c")).toMatchObject({ kind: "file", fallback: false });
		expect(githubRawUrl("https://gist.github.com/u/abcdef12")).toMatchObject({ kind: "gist", fallback: false });
	});

	it("treats source and markdown files served as octet-stream as text, binary ones not", () => {
		const source = Buffer.from("package main\n\nfunc main() {}\n");
		expect(bodyKind("application/octet-stream", source, "/src/main.go")).toBe("text");
		expect(bodyKind("application/octet-stream", Buffer.from("# Title\n"), "/README.md")).toBe("text");
		expect(bodyKind("application/octet-stream", Buffer.from([0x7f, 0x45, 0x00, 0x01]), "/x.go")).toBeUndefined();
		expect(bodyKind("application/octet-stream", source, "/archive.bin")).toBeUndefined();
	});
});

describe("GitHub pages through the direct provider", () => {
	let raw: TestServer;
	let page: TestServer;
	const SOURCE = "// Package fmt.\npackage fmt\n\n// <b>not html</b> *not emphasis*\nfunc Println() {}\n";
	const README = "# node\n\n[Docs](https://nodejs.org/docs) and `code`.\n";

	beforeAll(async () => {
		raw = await startServer();
		page = await startServer();
		raw.route("/golang/go/master/src/fmt/print.go", send(SOURCE, { "content-type": "text/plain; charset=utf-8" }));
		raw.route("/nodejs/node/HEAD/README.md", send(README, { "content-type": "text/plain; charset=utf-8" }));
		raw.route("/alice/0123456789abcdef/raw", send("echo hi\n", { "content-type": "text/plain; charset=utf-8" }));
	});
	afterAll(async () => {
		await raw.close();
		await page.close();
	});

	/** A direct provider whose raw origins are the loopback server, and whose github.com is another one. */
	function provider() {
		return createDirectProvider({ githubOrigins: { raw: raw.origin, gistRaw: raw.origin } });
	}

	it("returns a blob/ file as the raw file, untouched, fetched from the raw host", async () => {
		const result = await provider().fetch!(
			request("https://github.com/golang/go/blob/master/src/fmt/print.go#L5"),
			callContext(),
		);
		expect(result).toMatchObject({
			content: SOURCE,
			format: "text",
			finalUrl: `${raw.origin}/golang/go/master/src/fmt/print.go`,
		});
		expect(raw.hits).toContain("/golang/go/master/src/fmt/print.go");
	});

	it("returns a repository root as its README.md, untouched, and a gist as its raw text", async () => {
		const readme = await provider().fetch!(request("https://github.com/nodejs/node"), callContext());
		expect(readme.content).toBe(README);
		const gist = await provider().fetch!(request("https://gist.github.com/alice/0123456789abcdef"), callContext());
		expect(gist.content).toBe("echo hi\n");
	});

	it("checks the rewritten host with the private-network guard", async () => {
		const before = raw.hits.length;
		const closed = callContext({}, {});
		const error = await provider().fetch!(
			request("https://github.com/golang/go/blob/master/src/fmt/print.go"),
			closed,
		).catch((e: unknown) => e);
		expect((error as { kind?: string }).kind).toBe("guard");
		expect(raw.hits.length).toBe(before);
	});
});
