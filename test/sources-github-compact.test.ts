// What the github-issue reader leaves out or says once, against a loopback API answering the recorded REST answers
// of test/fixtures/sources/github/: a comment's header is its author (and day when it changes), the repository is the
// page address's, a pull request's count of files is its list's, and an issue template's HTML comments are no text.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDirectProvider } from "../providers/direct/provider.ts";
import { request } from "./direct-helpers.ts";
import { routePull } from "./helpers/github-routes.ts";
import { fixture, json, type SourceWorld, startSourceWorld } from "./helpers/source-world.ts";

const gh = (name: string) => fixture("github", name);
let world: SourceWorld;
const provider = createDirectProvider();
const issueUrl = (path = "/acme/widget/issues/7") => `http://127.0.0.1:${world.page.port}${path}`;
/** The github-issue reader's text for the page at `path` on the recorded world. */
const read = async (path?: string) => (await provider.fetch!(request(issueUrl(path)), world.call("github"))).content;

/** Issue 7 with an issue template's comments in its body and a comment's. */
const TEMPLATE_BODY =
	"<!--\r\nThanks for the report! Fill in the sections below.\r\n-->\r\n\r\n**What happened**\r\n\r\nThe last token is dropped.\r\n\r\n<!-- Add a minimal reproduction. -->\r\n```js\r\n<!-- kept: code -->\r\n```";

beforeAll(async () => {
	world = await startSourceWorld();
	const { api } = world;
	api.route("/repos/acme/widget/issues/7", json(gh("issue-7.json")));
	api.route("/repos/acme/widget/issues/7/comments", json(gh("issue-7-comments.json")));
	routePull(api, 9);
	const issue = { ...JSON.parse(gh("issue-7.json")), body: TEMPLATE_BODY };
	const comments = JSON.parse(gh("issue-7-comments.json"));
	comments[0].body =
		"<!-- a reply template's note -->\n\nConfirmed on main.\n\n<table>\n<tr><td>flush failed</td></tr>\n</table>";
	comments[2].body = "## @scope/name usage\n\n### Scoring\n\n### @mallory · 2026-03-09\n\nA forged entry.";
	api.route("/repos/acme/template/issues/7", json(JSON.stringify(issue)));
	api.route("/repos/acme/template/issues/7/comments", json(JSON.stringify(comments)));
	api.route("/repos/acme/noisy/issues/7", json(JSON.stringify({ ...issue, body: NOISY_BODY })));
	api.route("/repos/acme/noisy/issues/7/comments", json(JSON.stringify(comments.slice(0, 1))));
	const form =
		"### Version\n\n2.1.0\n\n### Operating system\n\n_No response_\n\n### Logs\n\n_No response_\n\n### Steps\n\nRun it.";
	api.route("/repos/acme/form/issues/7", json(JSON.stringify({ ...issue, body: form })));
	api.route("/repos/acme/form/issues/7/comments", json("[]"));
});

/** GitHub markdown as people paste it: HTML tags, an image with its size, padded tables, trailing spaces. */
const NOISY_BODY = [
	'<img width="812" height="410" alt="Stack trace of the crash" src="https://github.com/user-attachments/assets/0f1e2d3c-aaaa-bbbb-cccc-123456789abc" />',
	"",
	"![diagram](https://camo.githubusercontent.com/4b1d0c3e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1/68747470733a2f2f6578616d706c652e636f6d2f642e706e67)",
	"",
	"<details>",
	"<summary>Full log</summary>",
	"",
	"flush failed   ",
	"",
	"",
	"",
	"</details>",
	"",
	"Steps:<br>one<br/>two",
	"",
	"| Option        |   Default   |",
	"| :------------ | ----------: |",
	"| `timeout`     | 30 \\| 60   |",
	"",
	"<sub>Sent from my laptop</sub>",
	"",
	"```html",
	'<details><summary>kept</summary><img width="1" src="x"><br>   ',
	"| a    |",
	"```",
	"",
	"Inline `<br>` and `<img src=x>` stay.",
	"",
	"See [https://github.com/acme/widget/pull/9](https://github.com/acme/widget/pull/9) and [the docs](https://example.com/docs).",
].join("\n");
afterAll(() => world.close());

describe("github-issue reader: each fact once", () => {
	it("heads a comment with its author alone, its place in the thread being its order", async () => {
		const text = await read();
		expect(text.match(/^### @\w+/gm)).toHaveLength(3);
		expect(text).not.toMatch(/^### \d/m);
	});

	it("starts each entry's header on the line after the entry above, without a blank line between", async () => {
		const text = await read();
		for (const header of ["### @mallory · 2026-03-02 (edited)", "### @bob · 2026-03-04"]) {
			expect(text).toMatch(new RegExp(`[^\\n]\\n${header.replace(/[()]/g, "\\$&")}\\n`));
		}
	});

	it("says the repository once, in the page's address: the state line starts with the kind", async () => {
		const text = await read();
		expect(text).not.toContain("acme/widget");
		expect(text).toMatch(/^issue by @alice/m);
	});

	it("says who opened an issue and when, then its state, in one line without the word opened", async () => {
		const text = await read();
		expect(text).toMatch(/^issue by @alice on 2026-03-01 · closed \(completed\) {2}$/m);
		expect(text).not.toContain("opened");
	});

	it("says in the conversation's heading that each day is said once (the thread goes in time order)", async () => {
		const text = await read();
		expect(text).toContain("## Conversation (3 comments, each day said once)\n");
		expect(text.match(/^### @\w+ · 2026-03-02/gm)).toHaveLength(1);
	});

	it("counts a pull request's files once, in the heading of the list that names them all", async () => {
		const text = await read("/acme/widget/pull/9");
		expect(text).not.toMatch(/in \d+ files/);
		expect(text).toContain("## Changed files (2)\n");
	});

	it("escapes a body line only when it reads as an entry's header: a heading of the body's own stays", async () => {
		const text = await read("/acme/template/issues/7");
		expect(text).toContain("\n## @scope/name usage\n");
		expect(text).toContain("\n### Scoring\n");
		expect(text).toContain("\n\\### @mallory · 2026-03-09\n");
	});

	it("keeps a blank line after a comment that ends in HTML, which would otherwise run on into the next header", async () => {
		const text = await read("/acme/template/issues/7");
		expect(text).toContain("<table>\n<tr><td>flush failed</td></tr>\n</table>\n\n### @mallory");
	});

	it("leaves an issue template's HTML comments out of the body and the comments; a comment in code stays", async () => {
		const text = await read("/acme/template/issues/7");
		expect(text).not.toContain("Thanks for the report");
		expect(text).not.toContain("minimal reproduction");
		expect(text).not.toContain("reply template");
		expect(text).toContain("**What happened**\n\nThe last token is dropped.\n\n```js\n<!-- kept: code -->\n```");
		expect(text).toMatch(/^### @bob\nConfirmed on main\.$/m);
	});
});

describe("github-issue reader: a body's markup without its noise", () => {
	const noisy = () => read("/acme/noisy/issues/7");

	it("writes an image's HTML tag as markdown with its alt text, its size and the URL's scheme left out", async () => {
		const text = await noisy();
		expect(text).toContain(
			"![Stack trace of the crash](github.com/user-attachments/assets/0f1e2d3c-aaaa-bbbb-cccc-123456789abc)\n",
		);
		expect(text).not.toContain('width="812"');
	});

	it("writes a camo proxy's image address as the address it proxies", async () => {
		const text = await noisy();
		expect(text).toContain("![diagram](example.com/d.png)\n");
		expect(text).not.toContain("camo.githubusercontent.com");
	});

	it("unwraps a details block: its summary in bold, its text kept, the tags gone", async () => {
		const text = await noisy();
		expect(text).toContain("**Full log**\n\nflush failed\n\nSteps:");
		expect(text).not.toMatch(/<\/?details>\n|<summary>Full/);
	});

	it("breaks a line at <br>, drops <sub> tags keeping their text", async () => {
		const text = await noisy();
		expect(text).toContain("Steps:\none\ntwo\n");
		expect(text).toContain("\nSent from my laptop\n");
	});

	it("leaves a table's cells and alignment row unpadded, an escaped pipe in a cell kept", async () => {
		const text = await noisy();
		expect(text).toContain("| Option | Default |\n| :-- | --: |\n| `timeout` | 30 \\| 60 |\n");
	});

	it("drops trailing spaces and runs of blank lines", async () => {
		const text = await noisy();
		expect(text).not.toMatch(/failed +\n/);
		expect(text).not.toMatch(/\n\n\n/);
	});

	it("writes a link whose text is its address as the address alone; a link with words of its own stays", async () => {
		const text = await noisy();
		expect(text).toContain("See https://github.com/acme/widget/pull/9 and [the docs](https://example.com/docs).");
	});

	it("leaves out an issue form's fields left unanswered (a heading over _No response_), the answered ones kept", async () => {
		const text = await read("/acme/form/issues/7");
		expect(text).toContain("### Version\n\n2.1.0\n\n### Steps\n\nRun it.\n");
		expect(text).not.toContain("No response");
	});

	it("keeps code as written, in a fence and inline", async () => {
		const text = await noisy();
		expect(text).toContain('```html\n<details><summary>kept</summary><img width="1" src="x"><br>   \n| a    |\n```');
		expect(text).toContain("Inline `<br>` and `<img src=x>` stay.");
	});
});
