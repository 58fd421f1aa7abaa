// More readers through the direct provider against loopback APIs answering recorded documents
// (test/fixtures/sources/): GitHub releases (one, the latest, the list) and commits (message, stats, patches in fences
// a patch cannot close), and Stack Overflow questions (answers by score, the accepted one marked, post bodies as
// markdown, a forged answer header escaped, the API's throttle a rate limit with its wait, then the page).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDirectProvider } from "../providers/direct/provider.ts";
import { createConverter } from "../providers/direct/worker-pool.ts";
import { githubCommit } from "../providers/sources/github-commit.ts";
import { githubRelease } from "../providers/sources/github-release.ts";
import { stackoverflowQuestion } from "../providers/sources/stackoverflow.ts";
import { request, send } from "./direct-helpers.ts";
import {
	describeMatches,
	expectInOrder,
	fixture,
	json,
	readThrough,
	type SourceWorld,
	startSourceWorld,
} from "./helpers/source-world.ts";

const MATCHES: Array<[typeof githubRelease, string, Record<string, string> | undefined]> = [
	[githubRelease, "https://github.com/acme/tinyparse/releases", { owner: "acme", repo: "tinyparse" }],
	[
		githubRelease,
		"https://github.com/acme/tinyparse/releases/tag/v2.1.0",
		{ owner: "acme", repo: "tinyparse", tag: "v2.1.0" },
	],
	[githubRelease, "https://github.com/acme/tinyparse/releases/latest", { owner: "acme", repo: "tinyparse", tag: "" }],
	[githubRelease, "https://github.com/acme/tinyparse/releases/download/v1/x.tgz", undefined],
	[
		githubCommit,
		"https://github.com/acme/tinyparse/commit/a1b2c3d",
		{ owner: "acme", repo: "tinyparse", sha: "a1b2c3d" },
	],
	[githubCommit, "https://github.com/acme/tinyparse/commits/main", undefined],
	[
		stackoverflowQuestion,
		"https://stackoverflow.com/questions/4242/why-does-my-tokenizer",
		{ id: "4242", site: "stackoverflow" },
	],
	[stackoverflowQuestion, "https://superuser.com/q/77", { id: "77", site: "superuser" }],
	[stackoverflowQuestion, "https://stackoverflow.com/questions/tagged/parsing", undefined],
];

describeMatches("reader URL matches", MATCHES);

let world: SourceWorld;
const provider = createDirectProvider();
const at = (path: string) => `http://127.0.0.1:${world.page.port}${path}`;

beforeAll(async () => {
	world = await startSourceWorld();
	const { api } = world;
	api.route("/repos/acme/tinyparse/releases", json(fixture("github", "releases.json")));
	api.route("/repos/acme/tinyparse/releases/tags/v2.1.0", json(fixture("github", "release-v2.1.0.json")));
	api.route("/repos/acme/tinyparse/releases/latest", json(fixture("github", "release-v2.1.0.json")));
	api.route("/repos/acme/tinyparse/commits/a1b2c3d", json(fixture("github", "commit-a1b2c3d.json")));
	api.route("/2.3/questions/4242", json(fixture("stackoverflow", "question-4242.json")));
	api.route("/2.3/questions/4242/answers", json(fixture("stackoverflow", "answers-4242.json")));
});
afterAll(() => world.close());
beforeEach(() => {
	world.api.hits.length = 0;
});

describe("github-release reader", () => {
	it("reads one release: name, tag, date, author, assets and notes", async () => {
		const result = await provider.fetch!(request(at("/acme/tinyparse/releases/tag/v2.1.0")), world.call("github"));
		expect(result.content).toContain("# tinyparse 2.1.0");
		expect(result.content).toContain("Tag v2.1.0 · 2026-03-04 · by @bob");
		expect(result.content).toContain("Assets: tinyparse-2.1.0.tgz (10240 bytes)");
		expect(result.content).toContain("- The tokenizer flushes the last token at end of input (#9).");
		const latest = await provider.fetch!(request(at("/acme/tinyparse/releases/latest")), world.call("github"));
		expect(latest.content).toContain("# tinyparse 2.1.0");
	});

	it("dates a release to its day, and names its tag only when its name does not", async () => {
		const text = (await provider.fetch!(request(at("/acme/tinyparse/releases")), world.call("github"))).content;
		expect(text).not.toContain("UTC");
		expect(text).not.toContain("Tag v3.0.0-beta.1");
		expect(text).toContain("Tag v2.1.0 · 2026-03-04 · by @bob");
	});

	it("leaves generated notes' HTML comments out of a release's notes", async () => {
		const notes = JSON.parse(fixture("github", "release-v2.1.0.json"));
		notes.body = `<!-- Release notes generated using configuration in .github/release.yml at main -->\n\n${notes.body}`;
		world.api.route("/repos/acme/generated/releases/tags/v2.1.0", json(JSON.stringify(notes)));
		const text = (await provider.fetch!(request(at("/acme/generated/releases/tag/v2.1.0")), world.call("github")))
			.content;
		expect(text).not.toContain("Release notes generated");
		expect(text).toContain("## Fixes\n\n- The tokenizer flushes the last token");
	});

	it("reads the list of releases, a pre-release marked", async () => {
		const result = await provider.fetch!(request(at("/acme/tinyparse/releases")), world.call("github"));
		expect(result.content).toContain("# Releases of acme/tinyparse (2 newest)");
		expect(result.content).toContain("## v3.0.0-beta.1\n\n2026-03-05 · by @alice · pre-release");
		expect(world.api.hits).toEqual(["/repos/acme/tinyparse/releases?per_page=30"]);
	});
});

describe("github-commit reader", () => {
	it("reads message, author, stats and each file's patch in a fence the patch cannot close", async () => {
		const result = await provider.fetch!(request(at("/acme/tinyparse/commit/a1b2c3d")), world.call("github"));
		const text = result.content;
		expect(text).toContain("# Flush the last token at end of input");
		expect(text).toContain(
			"commit a1b2c3d4e5f60718293a4b5c6d7e8f9012345678 · Bob Builder (@bob) · 2026-03-04 17:30 UTC",
		);
		expect(text).toContain("+14 −3 in 2 files");
		expect(text).toContain("### `src/tokenizer.ts` modified +9 −3\n\n````diff\n@@ -40,3 +40,9 @@");
		expect(text).toContain("+  // ```not a fence end```\n+  return tokens;\n````");
		expect(text).toContain("### `assets/logo.png` added +0 −0");
	});
});

describe("stackoverflow-question reader", () => {
	it("reads the question and every answer by score, the accepted one marked, bodies as markdown", async () => {
		const result = await provider.fetch!(request(at("/questions/4242/why")), world.call("stackoverflow"));
		const text = result.content;
		expect(result.title).toBe("Why does my tokenizer drop the last token?");
		expect(text).toContain("\nscore 17 · asked by carol on 2026-03-03  \n");
		expect(text).toContain("Tags: javascript, parsing");
		expect(text).toMatch(/```\s*\nparse\("a b c"\) \/\/ \["a", "b"\]\n```/);
		expect(text).toContain("## Answers (3, by score; dated when the day changes)");
		// An answer's header dates it to the day (the hour is no fact a reader of the thread needs), and only when the
		// day differs from the answer's above: the three answers of one day say it once.
		expectInOrder(text, [
			"\n### score 25 · dave · 2026-03-03\n",
			"\n### score 12 · accepted · erin\n",
			"\n### score -2 · frank\n",
		]);
		expect(text).toContain("if (pending) tokens.push(pending);");
		// The question and its answers go at once, to the site the URL's host names.
		expect([...world.api.hits].sort()).toEqual([
			"/2.3/questions/4242/answers?site=127&filter=withbody&sort=votes&order=desc&pagesize=100",
			"/2.3/questions/4242?site=127&filter=withbody",
		]);
	});

	it("heads an answer with its score, mark, author and day, not its rank: the answers go by score", async () => {
		const text = (await provider.fetch!(request(at("/questions/4242/why")), world.call("stackoverflow"))).content;
		expect(text).toMatch(/^### score 25 · dave/m);
		expect(text).not.toMatch(/^### \d/m);
	});

	it("says the question's id once, in the page's address, and leaves out its view count", async () => {
		const text = (await provider.fetch!(request(at("/questions/4242/why")), world.call("stackoverflow"))).content;
		expect(text).not.toContain("4242");
		expect(text).not.toContain("views");
	});

	it("starts each answer's header on the line after the answer above, without a blank line between", async () => {
		const text = (await provider.fetch!(request(at("/questions/4242/why")), world.call("stackoverflow"))).content;
		expect(text).toMatch(/[^\n]\n### score 12 · accepted · erin\n/);
		expect(text).toMatch(/[^\n]\n### score -2 · frank\n/);
	});

	it("escapes an answer body's forged answer header", async () => {
		const result = await provider.fetch!(request(at("/questions/4242/why")), world.call("stackoverflow"));
		expect(result.content.match(/^### score /gm)).toHaveLength(3);
		expect(result.content).toMatch(/^\\### score 999 · accepted · mallory/m);
	});

	it("converts a thread of many answers in one conversion job, each body under its own answer", async () => {
		const thread = await startSourceWorld();
		const answers = Array.from({ length: 24 }, (_, i) => ({
			owner: { display_name: `user${i}` },
			is_accepted: i === 3,
			score: 100 - i,
			creation_date: 1772510000 + i * 60,
			answer_id: 5000 + i,
			body: `<p>Body of answer ${i + 1}, with <code>call${i + 1}()</code>.</p><pre><code>step(${i + 1});\n</code></pre>`,
		}));
		const question = {
			question_id: 77,
			title: "Many answers?",
			score: 3,
			tags: ["x"],
			body: "<p>The <em>question</em>.</p>",
		};
		thread.api.route("/2.3/questions/77", json(JSON.stringify({ items: [question] })));
		thread.api.route("/2.3/questions/77/answers", json(JSON.stringify({ items: answers })));
		// A real worker converter, its jobs counted where the direct provider hands them over.
		const converter = createConverter();
		try {
			const counted = createDirectProvider({ converter });
			const url = `http://127.0.0.1:${thread.page.port}/questions/77/many`;
			const result = await counted.fetch!(request(url), thread.call("stackoverflow"));
			expect(converter.stats()).toMatchObject({ jobs: 1, started: 1 });
			expect(result.content).toContain("The _question_.");
			// Split back in order: each answer's markdown follows its own header and no other.
			const posts = result.content.split(/^### /m).slice(1);
			expect(posts).toHaveLength(24);
			posts.forEach((post, i) => {
				expect(post).toMatch(new RegExp(`^score ${100 - i}${i === 3 ? " · accepted" : ""} · user${i}\\b`));
				expect(post).toContain(`Body of answer ${i + 1}, with \`call${i + 1}()\`.`);
				expect(post).toMatch(new RegExp(`\`\`\`\\s*\\nstep\\(${i + 1}\\);\\n\`\`\``));
				expect(post).not.toContain(`Body of answer ${i + 2},`);
			});
		} finally {
			await converter.close();
			await thread.close();
		}
	});

	it("takes the API's throttle_violation as a rate limit with the wait it names, and reads the page", async () => {
		const throttled = await startSourceWorld();
		throttled.api.route("/2.3/questions/9", json(fixture("stackoverflow", "throttled.json"), 400));
		throttled.api.route("/2.3/questions/9/answers", json(fixture("stackoverflow", "throttled.json"), 400));
		throttled.page.route("/questions/9/x", send("<html><body><main><p>The question page.</p></main></body></html>"));
		const url = `http://127.0.0.1:${throttled.page.port}/questions/9/x`;
		const call = throttled.call("stackoverflow");
		const read = await readThrough(url, call);
		expect(read?.failure).toMatchObject({ errorClass: "rate-limit", retryAfterMs: 82_626_000 });
		const result = await provider.fetch!(request(url), call);
		expect(result.content).toContain("The question page.");
		expect(result.warnings?.[0]).toMatch(/^stackoverflow-question reader skipped: its API is rate limited/);
		await throttled.close();
	});
});
