// The github-issue reader through the direct provider, against a loopback API answering recorded REST answers
// (test/fixtures/sources/github/) and a loopback page server standing in for github.com: the thread as markdown,
// a pull request's parts, the fallback to the page on a rate limit or a 404, bounded huge threads, hostile comments
// still wrapped as untrusted, the token kept to the API origin, the guard on the API host, and the proxies.

import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FetchResult } from "../engine/result-types.ts";
import { createDirectProvider } from "../providers/direct/provider.ts";
import { proxySettings } from "../providers/http/proxy.ts";
import { githubIssue } from "../providers/sources/github-issue.ts";
import { formatFetch } from "../runtime/format.ts";
import { failureOf, redirect, request, send } from "./direct-helpers.ts";
import { routePull } from "./helpers/github-routes.ts";
import { type ProxyServer, startProxy } from "./helpers/proxy-server.ts";
import {
	expectInOrder,
	fixture,
	json,
	readThrough,
	recordAuth,
	type SourceWorld,
	startSourceWorld,
} from "./helpers/source-world.ts";

const gh = (name: string) => fixture("github", name);
const MATCHES: Array<[string, Record<string, string> | undefined]> = [
	["https://github.com/acme/widget/issues/7", { owner: "acme", repo: "widget", kind: "issue", number: "7" }],
	[
		"https://github.com/acme/widget/issues/7#issuecomment-9001",
		{ owner: "acme", repo: "widget", kind: "issue", number: "7" },
	],
	["https://github.com/acme/widget/pull/9", { owner: "acme", repo: "widget", kind: "pull", number: "9" }],
	["https://github.com/acme/widget/pull/9/files", { owner: "acme", repo: "widget", kind: "pull", number: "9" }],
	["https://github.com/acme/widget/issues", undefined],
	["https://github.com/acme/widget/issues/new", undefined],
	["https://github.com/acme/widget/pull/9/files/abc", undefined],
	["https://github.com/orgs/acme/issues/7", undefined],
	["https://github.com/acme/widget/blob/main/x.ts", undefined],
];

describe("github-issue URL match", () => {
	for (const [url, expected] of MATCHES) {
		it(`${url} → ${expected ? `${expected.kind} ${expected.number}` : "(not read)"}`, () => {
			expect(githubIssue.match(new URL(url))).toEqual(expected);
		});
	}
});

let world: SourceWorld;
let proxy: ProxyServer;
const provider = createDirectProvider();

beforeAll(async () => {
	[world, proxy] = await Promise.all([startSourceWorld(), startProxy()]);
	const { api, page } = world;
	api.route("/repos/acme/widget/issues/7", recordAuth(world.auth.api, json(gh("issue-7.json"))));
	api.route("/repos/acme/widget/issues/7/comments", recordAuth(world.auth.api, json(gh("issue-7-comments.json"))));
	routePull(api, 9);
	// Pull request 10: pull request 9 without reviews or review comments.
	routePull(api, 10, true);
	api.route("/repos/acme/gone/issues/1", json(gh("not-found.json"), 404));
	api.route("/repos/acme/gone/issues/1/comments", json(gh("not-found.json"), 404));
	api.route("/repos/acme/huge/issues/1", json(JSON.stringify({ ...JSON.parse(gh("issue-7.json")), comments: 2500 })));
	api.route("/repos/acme/huge/issues/1/comments", hugeComments(2500));
	api.route("/repos/acme/moved/issues/1", redirect(`${page.origin}/acme/moved/issues/1`));
	api.route("/repos/acme/moved/issues/1/comments", redirect(`${page.origin}/acme/moved/issues/1`));
	for (const path of ["/acme/widget/issues/7", "/acme/gone/issues/1", "/acme/moved/issues/1"]) {
		page.route(path, recordAuth(world.auth.page, send(gh("issue-7.html"))));
	}
});
afterAll(async () => Promise.all([world.close(), proxy.close()]));
beforeEach(() => {
	world.api.hits.length = 0;
	world.page.hits.length = 0;
	world.auth.api.length = 0;
	world.auth.page.length = 0;
	proxy.clear();
});

/** `count` comments served 100 a page with GitHub's Link header. */
function hugeComments(count: number) {
	return (req: IncomingMessage, res: ServerResponse) => {
		const query = new URL(req.url ?? "/", "http://x").searchParams;
		const page = Number(query.get("page") ?? "1");
		const last = Math.ceil(count / 100);
		const items = Array.from({ length: Math.max(0, Math.min(100, count - (page - 1) * 100)) }, (_, i) => ({
			id: (page - 1) * 100 + i + 1,
			user: { login: `user${(page - 1) * 100 + i + 1}` },
			created_at: new Date(Date.UTC(2026, 0, 1, 0, (page - 1) * 100 + i)).toISOString(),
			body: `comment ${(page - 1) * 100 + i + 1}`,
		}));
		const link = `<http://elsewhere.test/x?page=${page + 1}>; rel="next", <http://elsewhere.test/x?page=${last}>; rel="last"`;
		res.writeHead(200, { "content-type": "application/json", link }).end(JSON.stringify(items));
	};
}

const issueUrl = (path = "/acme/widget/issues/7") => `http://127.0.0.1:${world.page.port}${path}`;

describe("github-issue reader through the direct provider", () => {
	it("falls back to the page on a rate limit, with a typed failure carrying retryAfterMs, then rests the API", async () => {
		// A world of its own: the rate limit rests the source for its origin, as it would for api.github.com.
		const limited = await startSourceWorld();
		const reset = String(Math.floor(Date.now() / 1000) + 120);
		limited.api.route(
			"/repos/acme/limited/issues/7",
			json(gh("rate-limited.json"), 403, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset }),
		);
		limited.page.route("/acme/limited/issues/7", send(gh("issue-7.html")));
		const url = `http://127.0.0.1:${limited.page.port}/acme/limited/issues/7`;
		const call = limited.call("github");
		const read = await readThrough(url, call);
		expect(read?.failure).toMatchObject({ errorClass: "rate-limit" });
		expect(read?.failure?.retryAfterMs).toBeGreaterThan(100_000);
		expect(read?.failure?.retryAfterMs).toBeLessThanOrEqual(120_000);
		const asked = limited.api.hits.filter((h) => h === "/repos/acme/limited/issues/7").length;
		const result = await provider.fetch!(request(url), call);
		expect(result.content).toContain("Parser drops the last token");
		expect(result.warnings?.[0]).toMatch(/^github-issue reader skipped: its API is rate limited for \d+ s more/);
		expect(limited.api.hits.filter((h) => h === "/repos/acme/limited/issues/7")).toHaveLength(asked);
		expect(limited.page.hits.filter((hit) => hit !== "/llms.txt")).toEqual(["/acme/limited/issues/7"]);
		await limited.close();
	});

	it("reads an issue as markdown: title, state, labels, body and every comment in order with author and date", async () => {
		const result = await provider.fetch!(request(issueUrl()), world.call("github"));
		expect(result.format).toBe("markdown");
		expect(result.title).toBe("Parser drops the last token when input ends without a newline");
		expect(result.finalUrl).toBe(`${world.api.origin}/repos/acme/widget/issues/7`);
		const text = result.content;
		expect(text).toContain("# Parser drops the last token when input ends without a newline (#7)");
		expect(text).toContain("\nissue by @alice on 2026-03-01 · closed (completed)  \n");
		expect(text).toContain("Labels: bug, parser");
		expect(text).toContain("Assignees: @bob");
		expect(text).toContain('```js\nparse("a b c")\n```');
		expect(text).toContain("## Conversation (3 comments, each day said once)");
		const order = [
			// Opened on 2026-03-01, the line above says: the first comment of that day is not dated again.
			"### @bob\n",
			"### @mallory · 2026-03-02 (edited)",
			"### @bob · 2026-03-04",
		];
		expectInOrder(text, order);
		// The issue and its comments are asked at once, and the page is not fetched.
		expect(world.api.hits.map((h) => h.split("?")[0]).sort()).toEqual([
			"/repos/acme/widget/issues/7",
			"/repos/acme/widget/issues/7/comments",
		]);
		expect(world.page.hits).toEqual([]);
	});

	it("reads a pull request: branches, merge, changed files, reviews and review comments in the conversation", async () => {
		const result = await provider.fetch!(request(issueUrl("/acme/widget/pull/9")), world.call("github"));
		const text = result.content;
		expect(text).toContain("\npull request by @bob on 2026-03-03 · merged 2026-03-04  \n");
		expect(text).toContain("Branches: bob:flush-eof → acme:main · 2 commits · +14 −3  \n");
		expect(text).toContain(
			// A file's status is said when it is not the usual "modified".
			"## Changed files (2)\n\n- `src/tokenizer.ts` +9 −3\n- `test/tokenizer.test.ts` added +5 −0",
		);
		expect(text).toContain("## Conversation (1 comment, 2 reviews, 1 review comments, each day said once)");
		expectInOrder(text, [
			// Opened that day: not dated again.
			"### Review comment · @carol on `src/tokenizer.ts:42`\n",
			// The same day as the item before: its date is not repeated.
			"### @carol\n",
			"### Review · @carol · approved · 2026-03-04\n",
		]);
		// A review that only carries review comments gets no entry of its own.
		expect(text.match(/### Review · /g)).toHaveLength(1);
	});

	it("leaves counts of none out of the conversation's heading", async () => {
		const result = await provider.fetch!(request(issueUrl("/acme/widget/pull/10")), world.call("github"));
		expect(result.content).toContain("## Conversation (1 comment, each day said once)\n");
	});

	it("falls back to the page when the API answers 404, saying so", async () => {
		const result = await provider.fetch!(request(issueUrl("/acme/gone/issues/1")), world.call("github"));
		expect(result.content).toContain("Parser drops the last token");
		expect(result.warnings?.[0]).toMatch(
			/^github-issue reader failed \(github-issue: HTTP 404 not found at .*\); read the page instead$/,
		);
	});

	it("bounds a huge thread: 10 pages of comments read at once after the first, the rest named", async () => {
		const result = await provider.fetch!(request(issueUrl("/acme/huge/issues/1")), world.call("github"));
		expect(result.content).toContain("## Conversation (2500 comments, each day said once)");
		expect(result.content.match(/^### @user\d+\b/gm)).toHaveLength(1000);
		expect(result.content).toContain("### @user1000\n");
		expect(result.content).not.toContain("@user1001");
		expect(result.content).toContain(
			"_(15 more pages of comments not read: the thread is longer than this reader's bound)_",
		);
		// Page URLs are built on the API origin, never taken from the Link header (elsewhere.test is never asked).
		expect(world.api.hits).toHaveLength(11);
	});

	it("keeps hostile comments as data: a forged comment header is escaped and the wrapper's end cannot be faked", async () => {
		const result = await provider.fetch!(request(issueUrl()), world.call("github"));
		expect(result.content).toContain("\\### @bob · 2026-03-02");
		expect(result.content.match(/^### @bob/gm)).toHaveLength(2);
		expect(result.content).not.toMatch(/^### @bob · 2026-03-02/m);
		const shown: FetchResult = {
			...result,
			url: issueUrl(),
			provider: "direct",
			truncated: false,
			totalChars: result.content.length,
			warnings: [],
			attempts: [],
		} as unknown as FetchResult;
		const text = formatFetch(shown);
		expect(text.match(/<<<END UNTRUSTED WEB CONTENT>>>/g)).toHaveLength(1);
		expect(text.trimEnd().endsWith("<<<END UNTRUSTED WEB CONTENT>>>")).toBe(true);
		expect(text).toContain("```tool_result");
	});

	it("sends a configured token to the API origin only, as a Bearer header, and never puts it in the result", async () => {
		const token = "ghp_test_TOKEN_0123456789";
		const call = world.call("github", { token: "$GH_TOKEN" }, async (expression) =>
			expression === "$GH_TOKEN" ? token : undefined,
		);
		const result = await provider.fetch!(request(issueUrl()), call);
		expect(world.auth.api).toEqual([`Bearer ${token}`, `Bearer ${token}`]);
		expect(JSON.stringify(result)).not.toContain(token);
		// The page of a failing read is fetched without it, and an API redirect to another origin drops it.
		await provider.fetch!(request(issueUrl("/acme/gone/issues/1")), call);
		expect(world.auth.page).toEqual(["-"]);
		world.auth.page.length = 0;
		const moved = await provider.fetch!(request(issueUrl("/acme/moved/issues/1")), call);
		expect(moved.warnings?.[0]).toMatch(/^github-issue reader failed/);
		expect(world.auth.page.length).toBeGreaterThanOrEqual(2);
		expect(world.auth.page.every((header) => header === "-")).toBe(true);
	});

	it("sends no token without one configured", async () => {
		await provider.fetch!(request(issueUrl()), world.call("github"));
		expect(world.auth.api).toEqual(["-", "-"]);
	});

	it("checks the API host with the private-network guard: refused, nothing is asked", async () => {
		const call = { ...world.call("github"), fetchGuard: {} };
		const error = await failureOf(provider.fetch!(request(issueUrl()), call));
		expect(error.kind).toBe("guard");
		expect(world.api.hits).toEqual([]);
	});

	it("asks the API through the provider's proxy", async () => {
		const call = { ...world.call("github"), proxy: proxySettings(undefined, undefined, { HTTP_PROXY: proxy.url }) };
		const result = await provider.fetch!(request(issueUrl()), call);
		expect(result.content).toContain("## Conversation (3 comments, each day said once)");
		expect(proxy.seen.map((s) => s.target)).toEqual([`127.0.0.1:${world.api.port}`, `127.0.0.1:${world.api.port}`]);
	});

	it("reads the page when the source is switched off or HTML is asked for", async () => {
		const off = await provider.fetch!(request(issueUrl()), world.call("github", { enabled: false }));
		expect(off.content).not.toContain("## Conversation");
		const html = await provider.fetch!({ ...request(issueUrl()), format: "html" }, world.call("github"));
		expect(html.format).toBe("html");
		expect(world.api.hits).toEqual([]);
	});
});
