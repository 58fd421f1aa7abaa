// Markdown forms of pages through the direct provider, on loopback servers: Accept names text/markdown beside HTML
// (a negotiating server's markdown is returned as markdown), a declared text/markdown alternate replaces the HTML,
// and on a host with an llms.txt the .md twin is read instead of the page; a host without one is probed once and
// never asked for twins, one whose twins keep missing stops being asked, and what is known per host is bounded; a
// markdown page's front matter and its HTML comments are left out, its title and description kept.

import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { withoutHtmlComments } from "../providers/direct/markdown-comments.ts";
import { leanMarkdown } from "../providers/direct/markdown-lean.ts";
import { MarkdownHosts, TWIN_DEFAULTS, twinUrl } from "../providers/direct/markdown-twins.ts";
import { createDirectProvider } from "../providers/direct/provider.ts";
import { sourceSettings } from "../providers/sources/settings.ts";
import { callContext, request, send, startServer, type TestServer } from "./direct-helpers.ts";

const HTML = (body: string, head = "") =>
	`<!doctype html><html><head><title>Guide</title>${head}</head><body><nav>Home · Docs · Blog</nav><main><h1>Guide</h1><p>${body}</p></main></body></html>`;
const MD = { "content-type": "text/markdown; charset=utf-8" };
const LLMS = "# Example docs\n\n> Docs for Example.\n\n- [Guide](https://example.test/docs/guide.md)\n";

const servers: TestServer[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function server(): Promise<TestServer> {
	const s = await startServer();
	servers.push(s);
	return s;
}

const TWINS: Array<[string, string | undefined]> = [
	["https://docs.example.com/guide/intro", "https://docs.example.com/guide/intro.md"],
	["https://docs.example.com/guide/intro/", "https://docs.example.com/guide/intro.md"],
	["https://docs.example.com/guide/intro.html", "https://docs.example.com/guide/intro.html.md"],
	["https://docs.example.com/", "https://docs.example.com/index.html.md"],
	["https://docs.example.com/guide/intro?tab=2", undefined],
	["https://docs.example.com/files/report.pdf", undefined],
];

describe("the .md twin of a page URL", () => {
	for (const [url, twin] of TWINS) it(`${url} → ${twin ?? "(none)"}`, () => expect(twinUrl(url)).toBe(twin));
});

describe("content negotiation and declared alternates", () => {
	it("asks for text/markdown beside HTML and returns a negotiating server's markdown as markdown", async () => {
		const site = await server();
		let accept = "";
		site.route("/page", (req: IncomingMessage, res: ServerResponse) => {
			accept = String(req.headers.accept);
			if (/text\/markdown/.test(accept)) send("# Guide\n\nThe markdown itself.\n", MD)(req, res);
			else send(HTML("html"))(req, res);
		});
		const provider = createDirectProvider({ markdownHosts: new MarkdownHosts() });
		const result = await provider.fetch!(request(`${site.origin}/page`), callContext());
		expect(accept).toMatch(/^text\/html,text\/markdown,/);
		expect(result).toMatchObject({ format: "markdown", content: "# Guide\n\nThe markdown itself.\n" });
	});

	it("reads a page's declared text/markdown alternate instead of its HTML, and the HTML when the alternate fails", async () => {
		const site = await server();
		const link = '<link rel="alternate" type="text/markdown" href="/page.md">';
		site.route("/page", send(HTML("html text", link)));
		site.route("/page.md", send("# Guide\n\nFrom the alternate.\n", { "content-type": "text/plain; charset=utf-8" }));
		site.route(
			"/broken",
			send(HTML("the html text", '<link rel="alternate" type="text/markdown" href="/missing.md">')),
		);
		const provider = createDirectProvider({ markdownHosts: new MarkdownHosts() });
		const result = await provider.fetch!(request(`${site.origin}/page`), callContext());
		expect(result).toMatchObject({ format: "markdown", content: "# Guide\n\nFrom the alternate.\n" });
		expect(result.finalUrl).toBe(`${site.origin}/page.md`);
		const fallback = await provider.fetch!(request(`${site.origin}/broken`), callContext());
		expect(fallback.content).toContain("the html text");
		expect(site.hits).toContain("/missing.md");
	});
});

describe("front matter of a markdown page", () => {
	it("leaves a markdown page's YAML front matter out, its title and description kept as heading and first line", async () => {
		const site = await server();
		const meta =
			'---\ntitle: "Install the CLI"\ndescription: Set up the tool in a minute.\nsidebar_position: 3\nslug: /install\n---\n';
		site.route("/bare", send(`${meta}\nRun the installer.\n`, MD));
		site.route("/headed", send(`${meta}# Install\n\nSet up the tool in a minute. Run the installer.\n`, MD));
		site.route("/rule", send("---\n\nA page that opens with a rule.\n", MD));
		site.route("/post", send("---\nauthor: Ada\ndate: 2026-03-04\n---\n# Notes\n\nText.\n", MD));
		const provider = createDirectProvider({ markdownHosts: new MarkdownHosts() });
		const cases: Array<[string, Record<string, string>]> = [
			[
				"/bare",
				{
					format: "markdown",
					title: "Install the CLI",
					content: "# Install the CLI\n\nSet up the tool in a minute.\n\nRun the installer.\n",
				},
			],
			// A page with its own heading keeps it; a description the page says already is not said twice.
			[
				"/headed",
				{ title: "Install the CLI", content: "# Install\n\nSet up the tool in a minute. Run the installer.\n" },
			],
			// A post's author and date are the page's facts, not lines of its text.
			["/post", { content: "# Notes\n\nText.\n", author: "Ada", publishedAt: "2026-03-04T00:00:00.000Z" }],
			["/rule", { content: "---\n\nA page that opens with a rule.\n" }],
		];
		for (const [path, expected] of cases) {
			expect(await provider.fetch!(request(`${site.origin}${path}`), callContext())).toMatchObject(expected);
		}
	});
});

describe("a markdown page's HTML comments", () => {
	it("leaves out comments on lines of their own, as a rendered page does; code's and unclosed ones stay", async () => {
		const site = await server();
		// Each line of the page, and whether the model reads it.
		const lines: Array<[string, boolean]> = [
			["<!-- markdownlint-disable MD033 -->", false],
			["", false],
			["# Install", true],
			["", true],
			["<!-- TOC -->", false],
			["<!--", false],
			["  an editor's note", false],
			["-->", false],
			["", false],
			["Run the installer.", true],
			["", true],
			["```html", true],
			["<!-- a comment in code is the code's text -->", true],
			["```", true],
			["", true],
			["<!-- kept --> because text follows it.", true],
			["", true],
			["Done.", true],
			["", true],
			["<!-- never closed", true],
			["", true],
		];
		site.route("/install", send(lines.map(([line]) => line).join("\n"), MD));
		const provider = createDirectProvider({ markdownHosts: new MarkdownHosts() });
		const result = await provider.fetch!(request(`${site.origin}/install`), callContext());
		const read = lines.filter(([, shown]) => shown).map(([line]) => line);
		expect(result.content).toBe(read.join("\n"));
	});
});

describe("a markdown page's MDX and pasted noise", () => {
	it("leaves out MDX imports and component tags (a tab's label kept in bold), and a table's padding", async () => {
		const site = await server();
		const page = [
			"import Tabs from '@theme/Tabs';",
			'import TabItem from "@theme/TabItem";',
			"",
			"# Install",
			"",
			'<Tabs groupId="package-manager">',
			'<TabItem value="npm" label="npm" default>',
			"",
			"```sh",
			"npm install widget",
			"import x from 'kept-in-code';",
			"```",
			"",
			"</TabItem>",
			"</Tabs>",
			"",
			"<DocCardList />",
			"",
			"| Option     | Default |   ",
			"| ---------- | ------- |",
			"| `eof`      | `true`  |",
		].join("\n");
		site.route("/install", send(page, MD));
		const provider = createDirectProvider({ markdownHosts: new MarkdownHosts() });
		const result = await provider.fetch!(request(`${site.origin}/install`), callContext());
		expect(result.content).toBe(
			"# Install\n\n**npm**\n\n```sh\nnpm install widget\nimport x from 'kept-in-code';\n```\n\n| Option | Default |\n| --- | --- |\n| `eof` | `true` |",
		);
	});
});

describe("leanMarkdown", () => {
	it("reads megabyte lines of unclosed tags, brackets and backtick runs in bounded time", () => {
		const lines = [
			"<img ".repeat(300_000),
			"<summary>".repeat(200_000),
			`${"![".repeat(500_000)}](http`,
			`${"[https://".repeat(200_000)}](http`,
			Array.from({ length: 1500 }, (_, i) => `${"`".repeat(i + 1)}a`).join(""),
			`| ${" ".repeat(1_000_000)}x |`,
		];
		const started = performance.now();
		for (const line of lines) leanMarkdown(line, { mdx: true });
		// Linear scans take well under a second here; a pattern that rescans from each opener took 3.5 s on the first.
		expect(performance.now() - started).toBeLessThan(3_000);
	});
});

describe("withoutHtmlComments", () => {
	it("keeps a run of comments that close only before text whole, each line read once", () => {
		const text = `${"<!-- open\n".repeat(20_000)}--> text after\n\nDone.\n`;
		expect(withoutHtmlComments(text)).toBe(text);
	});
});

describe(".md twins on hosts with an llms.txt", () => {
	it("probes llms.txt beside a host's first page, then reads later pages from their twins alone", async () => {
		const site = await server();
		site.route("/llms.txt", send(LLMS, { "content-type": "text/plain; charset=utf-8" }));
		site.route("/docs/a", send(HTML("page a")));
		site.route("/docs/b", send(HTML("page b as html")));
		site.route("/docs/b.md", send("# B\n\nPage b as markdown.\n", MD));
		const provider = createDirectProvider({ markdownHosts: new MarkdownHosts() });
		await provider.fetch!(request(`${site.origin}/docs/a`), callContext());
		expect([...site.hits].sort()).toEqual(["/docs/a", "/llms.txt"]);
		site.hits.length = 0;
		const b = await provider.fetch!(request(`${site.origin}/docs/b`), callContext());
		expect(b).toMatchObject({ format: "markdown", content: "# B\n\nPage b as markdown.\n" });
		expect(site.hits).toEqual(["/docs/b.md"]);
	});

	it("never asks a host without an llms.txt for twins: one probe, then one request a page", async () => {
		const site = await server();
		for (const name of ["a", "b", "c", "d", "e"]) site.route(`/docs/${name}`, send(HTML(`page ${name}`)));
		const provider = createDirectProvider({ markdownHosts: new MarkdownHosts() });
		for (const name of ["a", "b", "c", "d", "e"])
			await provider.fetch!(request(`${site.origin}/docs/${name}`), callContext());
		expect(site.hits.filter((h) => h === "/llms.txt")).toHaveLength(1);
		expect(site.hits.filter((h) => h.endsWith(".md"))).toEqual([]);
		expect(site.hits).toHaveLength(6);
	});

	it("takes a catch-all route's HTML answer for /llms.txt as none", async () => {
		const site = await server();
		site.route("/llms.txt", send(HTML("# not an llms.txt")));
		site.route("/docs/a", send(HTML("page a")));
		site.route("/docs/b", send(HTML("page b")));
		const provider = createDirectProvider({ markdownHosts: new MarkdownHosts() });
		await provider.fetch!(request(`${site.origin}/docs/a`), callContext());
		await provider.fetch!(request(`${site.origin}/docs/b`), callContext());
		expect(site.hits.filter((h) => h.endsWith(".md"))).toEqual([]);
	});

	it(`stops asking for twins after ${TWIN_DEFAULTS.maxMisses} misses in a row`, async () => {
		const site = await server();
		site.route("/llms.txt", send(LLMS, { "content-type": "text/plain" }));
		for (const name of ["a", "b", "c", "d"]) site.route(`/docs/${name}`, send(HTML(`page ${name}`)));
		const provider = createDirectProvider({ markdownHosts: new MarkdownHosts() });
		for (const name of ["a", "b", "c", "d"])
			await provider.fetch!(request(`${site.origin}/docs/${name}`), callContext());
		expect(site.hits.filter((h) => h.endsWith(".md"))).toEqual(["/docs/b.md", "/docs/c.md"]);
	});

	it("is switched off by sources.markdown.enabled false: no probe, no twin, no alternate", async () => {
		const site = await server();
		site.route("/llms.txt", send(LLMS, { "content-type": "text/plain" }));
		site.route("/page", send(HTML("html text", '<link rel="alternate" type="text/markdown" href="/page.md">')));
		const provider = createDirectProvider({ markdownHosts: new MarkdownHosts() });
		const call = { ...callContext(), sources: sourceSettings({ markdown: { enabled: false } }) };
		const result = await provider.fetch!(request(`${site.origin}/page`), call);
		expect(result.content).toContain("html text");
		expect(site.hits).toEqual(["/page"]);
	});
});

describe("what is known per host", () => {
	it("is kept an hour, then probed again", async () => {
		let now = 0;
		const hosts = new MarkdownHosts(() => now);
		let probes = 0;
		const probe = async () => {
			probes++;
			return true;
		};
		await hosts.probe("https://a.test", probe);
		expect(hosts.twins("https://a.test")).toBe(true);
		now = TWIN_DEFAULTS.ttlMs + 1;
		expect(hosts.twins("https://a.test")).toBeUndefined();
		await hosts.probe("https://a.test", probe);
		expect(probes).toBe(2);
	});

	it(`remembers at most ${TWIN_DEFAULTS.hosts} hosts, the least recently used forgotten first`, async () => {
		const hosts = new MarkdownHosts();
		for (let i = 0; i <= TWIN_DEFAULTS.hosts; i++) await hosts.probe(`https://h${i}.test`, async () => false);
		expect(hosts.twins("https://h0.test")).toBeUndefined();
		expect(hosts.twins("https://h1.test")).toBe(false);
		expect(hosts.twins(`https://h${TWIN_DEFAULTS.hosts}.test`)).toBe(false);
	});

	it("runs one probe for concurrent first pages of a host", async () => {
		const hosts = new MarkdownHosts();
		let probes = 0;
		const slow = () =>
			new Promise<boolean>((resolve) => {
				probes++;
				setTimeout(() => resolve(false), 10);
			});
		await Promise.all([hosts.probe("https://c.test", slow), hosts.probe("https://c.test", slow)]);
		expect(probes).toBe(1);
	});
});
