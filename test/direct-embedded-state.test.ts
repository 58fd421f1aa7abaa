// A JavaScript shell (empty without JavaScript) whose text its embedded state holds is read from that state
// (providers/direct/embedded-state.ts): Next.js, Nuxt 3 and 2, Redux stores, JSON-LD. State without prose, hostile
// state and pages with visible text keep today's behaviour. Pages are built here and served on loopback.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BLOB_DEFAULTS, balancedEnd, resolveDevalue } from "../providers/direct/embedded-blobs.ts";
import { EMBEDDED_DEFAULTS, stateItems } from "../providers/direct/embedded-state.ts";
import directDefault from "../providers/direct/provider.ts";
import { callContext, failureOf, fetchWith, request, send, startServer, type TestServer } from "./direct-helpers.ts";

let server: TestServer;
beforeAll(async () => {
	server = await startServer();
});
afterAll(() => server.close());

const warning = (source: string) =>
	`text recovered from the page's embedded state (${source}): the page needs JavaScript to render, so layout and some text may be missing`;

const TITLE = "Why the Tide Clock Runs Backwards";
const BODY_HTML =
	'<p>The tide clock on the harbour wall has confused visitors since 1893. Its hand turns anticlockwise, and it shows the <a href="/tides">state of the tide</a>, not the hour.</p>' +
	"<h2>How the mechanism works</h2><p>A reversing idler gear sits between the drive and the hand. The keeper winds it every Sunday, and the hand drifts less than ten minutes a week.</p>" +
	"<ul><li>a reversing idler gear;</li><li>a float in the harbour well.</li></ul>";
const PROSE = Array.from(
	{ length: 4 },
	(_, i) => `Step ${i + 1} of the method is explained here in plain words, so that a reader can follow it at home.`,
);

/** A JavaScript shell: an empty mount point, the framework's bundle, and whatever `state` the test puts in. */
function shell(state: string, mount = '<div id="__next"></div>', head = ""): string {
	return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Harbour Blog</title>${head}<script src="/_next/static/chunks/main-5c2f.js" defer></script></head><body>${mount}${state}</body></html>`;
}
const nextData = (data: unknown) =>
	`<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(data).replace(/</g, "\\u003c")}</script>`;
const nextPost = (post: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
	props: { pageProps: { post, nav: [{ label: "Home", href: "/" }], ...extra }, __N_SSG: true },
	page: "/blog/[slug]",
	query: { slug: "tide-clock" },
	buildId: "kP3x9_vQ2",
	isFallback: false,
});
const POST = {
	id: "p_8f3a2c91",
	slug: "tide-clock",
	title: TITLE,
	date: "2024-03-05T10:00:00.000Z",
	author: { name: "Ines Varga", avatarUrl: "/img/ines.png" },
	coverImage: "https://cdn.example/tide.jpg",
	className: "prose lg:prose-xl mx-auto",
	contentHtml: BODY_HTML,
};

async function serve(path: string, html: string) {
	server.route(path, send(html));
	return `${server.origin}${path}`;
}

async function expectNeedsJavascript(url: string) {
	const error = await failureOf(fetchWith(url));
	expect([error.kind, error.code]).toEqual(["bad-request", "needs-javascript"]);
}

describe("a JavaScript shell read from its embedded state", () => {
	it("reads a Next.js post from __NEXT_DATA__: title heading, HTML body as markdown, links as references", async () => {
		const result = await fetchWith(await serve("/next", shell(nextData(nextPost(POST)))));
		expect(result.warnings).toEqual([warning("__NEXT_DATA__")]);
		expect(result.title).toBe(TITLE);
		const md = result.content;
		expect(md.startsWith(`# ${TITLE}\n\nThe tide clock on the harbour wall`)).toBe(true);
		expect(md).toContain("## How the mechanism works");
		expect(md).toContain("- a reversing idler gear;\n- a float in the harbour well.");
		const number = Number(/\[state of the tide\]\[(\d+)\]/.exec(md)?.[1]);
		expect(result.references?.urls[number - 1]).toBe(`${server.origin}/tides`);
		for (const noise of ["p_8f3a2c91", "cdn.example", "prose lg:prose-xl", "2024-03-05", "kP3x9", "Home"]) {
			expect(md).not.toContain(noise);
		}
	});

	it("honours format text and inline links", async () => {
		const url = await serve("/next-text", shell(nextData(nextPost(POST))));
		const text = await directDefault.fetch!({ ...request(url), format: "text" }, callContext());
		expect(text.format).toBe("text");
		expect(text.content.startsWith(`${TITLE}\n\nThe tide clock`)).toBe(true);
		expect(text.content).not.toMatch(/[#[]/);
		const inline = await directDefault.fetch!({ ...request(url), links: "inline" }, callContext());
		expect(inline.content).toContain(`[state of the tide](${server.origin}/tides)`);
		expect(inline.references).toBeUndefined();
	});

	it("reads a Nuxt 3 devalue payload (__NUXT_DATA__), references resolved, a cycle left out", async () => {
		const table = [
			["ShallowReactive", 1],
			{ data: 2, state: 10, once: 12, _errors: 13, serverRendered: 15, path: 16 },
			["ShallowReactive", 3],
			{ "article-tide-clock": 4 },
			{ id: 5, title: 6, description: 7, body: 8, author: 9, related: 17 },
			"a7f3c9e1d2",
			"Harbour lights at low water",
			"How the harbour keeps its lights burning when the tide is far out.",
			BODY_HTML,
			{ name: 18 },
			["Reactive", 11],
			{},
			["Set"],
			["ShallowReactive", 14],
			{},
			true,
			"/articles/tide-clock",
			[4],
			"Ines Varga",
		];
		const state = `<script type="application/json" data-nuxt-data="nuxt-app" data-ssr="true" id="__NUXT_DATA__">${JSON.stringify(table)}</script>`;
		const result = await fetchWith(await serve("/nuxt3", shell(state, '<div id="__nuxt"></div>')));
		expect(result.warnings).toEqual([warning("__NUXT_DATA__")]);
		expect(result.content).toMatch(/^# Harbour lights at low water\n\nHow the harbour keeps its lights burning/);
		expect(result.content).toContain("## How the mechanism works");
		expect(result.content.match(/The tide clock on the harbour wall/g)).toHaveLength(1);
	});

	it("reads a Nuxt 2 window.__NUXT__ JSON literal, and leaves its IIFE form alone (never run)", async () => {
		const data = { layout: "default", data: [{ article: { title: TITLE, body: BODY_HTML } }], fetch: {}, error: null };
		const json = `<script>window.__NUXT__=${JSON.stringify({ ...data, serverRendered: true, routePath: "/x" })};</script>`;
		const result = await fetchWith(await serve("/nuxt2", shell(json, '<div id="__nuxt"></div>')));
		expect(result.warnings).toEqual([warning("__NUXT__")]);
		expect(result.content.startsWith(`# ${TITLE}\n\n`)).toBe(true);
		const iife = `<script>window.__NUXT__=(function(a,b){return {layout:"default",data:[{article:{title:a,body:b}}]}}(${JSON.stringify(TITLE)},${JSON.stringify(BODY_HTML)}));</script>`;
		await expectNeedsJavascript(await serve("/nuxt2-iife", shell(iife, '<div id="__nuxt"></div>')));
	});

	it("reads a Redux store from window.__INITIAL_STATE__ = {…} and from __PRELOADED_STATE__ = JSON.parse(…)", async () => {
		const store = {
			router: { location: { pathname: "/recipes/12", search: "" } },
			entities: {
				recipes: {
					"12": {
						id: 12,
						name: "Harbour brown bread",
						summary: "A dense loaf the lock keepers baked on the stove.",
						steps: PROSE,
					},
				},
			},
			ui: { theme: "dark", sidebarOpen: false, i18nKey: "recipes.detail.title" },
		};
		const plain = `<script>window.__INITIAL_STATE__ = ${JSON.stringify(store)};</script>`;
		const result = await fetchWith(await serve("/redux", shell(plain, '<div id="root"></div>')));
		expect(result.warnings).toEqual([warning("__INITIAL_STATE__")]);
		expect(result.content).toBe(
			["# Harbour brown bread", "A dense loaf the lock keepers baked on the stove.", ...PROSE].join("\n\n"),
		);
		const encoded = JSON.stringify(JSON.stringify(store)).replace(/</g, "\\x3C");
		const parsed = `<script>window["__PRELOADED_STATE__"] = JSON.parse(${encoded});</script>`;
		const second = await fetchWith(await serve("/redux-parse", shell(parsed, '<div id="root"></div>')));
		expect(second.warnings).toEqual([warning("__PRELOADED_STATE__")]);
		expect(second.content).toBe(result.content);
	});

	it("reads an Apollo cache (__APOLLO_STATE__) and a Remix context (__remixContext)", async () => {
		const apollo = {
			"Article:42": { __typename: "Article", id: "42", headline: TITLE, body: BODY_HTML, author: { __ref: "A:1" } },
			"A:1": { __typename: "Author", id: "1", name: "Ines Varga" },
			ROOT_QUERY: { __typename: "Query", 'article({"slug":"tide-clock"})': { __ref: "Article:42" } },
		};
		const remix = {
			url: "/posts/tide-clock",
			state: {
				loaderData: { root: { user: null }, "routes/posts.$slug": { post: { title: TITLE, html: BODY_HTML } } },
			},
			future: { v3_fetcherPersist: true },
		};
		for (const [path, script, source] of [
			["/apollo", `window.__APOLLO_STATE__=${JSON.stringify(apollo)};`, "__APOLLO_STATE__"],
			[
				"/remix",
				`window.__remixContext = ${JSON.stringify(remix)};__remixContext.p = function(v){return v};`,
				"__remixContext",
			],
		] as const) {
			const result = await fetchWith(await serve(path, shell(`<script>${script}</script>`, '<div id="root"></div>')));
			expect(result.warnings).toEqual([warning(source)]);
			expect(result.content).toMatch(new RegExp(`^# ${TITLE}\\n\\nThe tide clock[^]*## How the mechanism works`));
		}
	});

	it("reads a JavaScript shell's JSON-LD articleBody", async () => {
		const ld = { "@type": "NewsArticle", headline: TITLE, articleBody: PROSE.join("\n\n") };
		const head = `<script type="application/ld+json">${JSON.stringify(ld)}</script>`;
		const result = await fetchWith(await serve("/ld", shell("", '<div id="app"></div>', head)));
		expect(result.warnings).toEqual([warning("JSON-LD articleBody")]);
		expect(result.content).toBe(["# Harbour Blog", ...PROSE].join("\n\n"));
	});
});

describe("what is not recovered", () => {
	it("still fails needs-javascript when the state holds only ids, URLs, classes, keys and config", async () => {
		const config = {
			id: "9f86d081884c7d659a2feaa0c55ad015",
			slug: "dashboard",
			imageUrl: "https://cdn.example/a.png",
			className: "flex items-center justify-between px-4 md:px-8",
			labelKey: "home.hero.title",
			title: "Dashboard",
			token: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
			updated: "2024-03-05",
			features: { beta: true },
		};
		await expectNeedsJavascript(await serve("/config", shell(nextData(nextPost(config)))));
	});

	it("keeps a server-rendered page's visible text and ignores its __NEXT_DATA__", async () => {
		const visible = `<div id="__next"><article><h1>${TITLE}</h1><p>${PROSE.join(" ")}</p></article></div>`;
		const state = nextData(
			nextPost({ ...POST, contentHtml: "<p>Only the state says this sentence, nowhere else.</p>" }),
		);
		const result = await fetchWith(await serve("/ssr", shell(state, visible)));
		expect(result.content).toContain(PROSE[3]);
		expect(result.content).not.toContain("Only the state says");
		expect(result.warnings ?? []).toEqual([]);
	});
});

describe("hostile state ends within the bounds", () => {
	const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

	it("reads the text of a several-MB state and stops the walk at its node bound", async () => {
		const items = Array.from({ length: 60_000 }, (_, i) => ({ id: i, url: `/item/${i}`, label: `Item ${i}` }));
		const html = shell(nextData(nextPost(POST, { items })));
		expect(html.length).toBeGreaterThan(3 * 1024 * 1024);
		const result = await fetchWith(await serve("/huge", html));
		expect(result.content.startsWith(`# ${TITLE}`)).toBe(true);
		const wide = Array.from({ length: 3 * EMBEDDED_DEFAULTS.maxNodes }, (_, i) => `word ${i}`);
		expect(stateItems(wide).visited).toBe(EMBEDDED_DEFAULTS.maxNodes + 1);
	});

	it("fails cleanly when the state is past the part of the HTML converted (a page over 4 MB)", async () => {
		const filler = `<!-- ${"x".repeat(4.5 * 1024 * 1024)} -->`;
		await expectNeedsJavascript(await serve("/past-cut", shell(`${filler}${nextData(nextPost(POST))}`)));
	});

	it("walks 100,000 levels of nesting only to its depth bound", async () => {
		const post = JSON.stringify(nextPost(POST)).replace('"nav":', `"deep":${deep(100_000)},"nav":`);
		const html = shell(`<script id="__NEXT_DATA__" type="application/json">${post}</script>`);
		expect((await fetchWith(await serve("/deep", html))).content.startsWith(`# ${TITLE}`)).toBe(true);
		const only = shell(`<script id="__NEXT_DATA__" type="application/json">${deep(100_000)}</script>`);
		await expectNeedsJavascript(await serve("/deep-only", only));
		expect(stateItems(JSON.parse(deep(100_000))).visited).toBeLessThanOrEqual(EMBEDDED_DEFAULTS.maxDepth + 2);
	});

	it("resolves a cyclic devalue table once per entry and a long chain only to its depth bound", () => {
		const cyclic = resolveDevalue([{ self: 0, next: 1, list: 2 }, { back: 0, list: 2 }, [0, 1, 2], ["Reactive", 0]]);
		expect(JSON.stringify(cyclic)).toBe('{"next":{"list":[null,null,null]}}');
		const chain = Array.from({ length: 300_000 }, (_, i) => ({ next: i + 1 }));
		let depth = 0;
		for (let node = resolveDevalue(chain) as { next?: unknown }; node?.next; depth++) node = node.next as typeof node;
		expect(depth).toBe(BLOB_DEFAULTS.maxDepth);
	});

	it("fails cleanly on unbalanced braces, and the scanner reads braces inside strings as text", async () => {
		const cut = `<script>window.__INITIAL_STATE__ = {"article":{"title":"${TITLE}","body":"${PROSE.join(" ")} {"</script>`;
		await expectNeedsJavascript(await serve("/unbalanced", shell(cut, '<div id="root"></div>')));
		const text = 'x = {"a":"}{[","b":[1,{"c":"\\"}"}]} tail';
		expect(text.slice(4, balancedEnd(text, 4))).toBe('{"a":"}{[","b":[1,{"c":"\\"}"}]}');
		expect(balancedEnd("{[{", 0)).toBe(-1);
	});

	it("keeps the text of an HTML field nested deeper than 512 levels, read as one level", async () => {
		const deep = `${"<div>".repeat(1000)}<p>Deep text.</p>${"</div>".repeat(1000)}`;
		const post = { ...POST, contentHtml: deep, excerpt: PROSE.join(" ") };
		const result = await fetchWith(await serve("/deep-html", shell(nextData(nextPost(post)))));
		expect(result.content).toContain("Deep text.");
		expect(result.content).toContain(PROSE[0]);
	});
});
