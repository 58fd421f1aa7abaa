// The "sources" bench's corpus: coder pages made up from a seed, each as its API answers (in the documented formats:
// GitHub REST, npm packument, PyPI JSON, Stack Exchange API, pkgsite and rustdoc pages with the Go module proxy's
// @latest: bench/sources-corpus-docs.ts) and as the site's HTML page around the same facts (with
// the site's usual chrome), or a docs page with its .md twin. `npx node bench/sources-corpus.ts` writes them to
// bench/fixtures/sources/ (kept in the repository); the bench reads the files, never this generator.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { docsrsPage, goPage } from "./sources-corpus-docs.ts";
import { createRandom, pick } from "./stats.ts";

/** One recorded page: its URL path, the API answers by path, the page's HTML, and the facts both must show. */
export interface CorpusPage {
	name: string;
	kind: "github-issue" | "github-pull" | "npm" | "pypi" | "stackoverflow" | "docs" | "go" | "docsrs";
	/** The page's path on the site (the bench serves it on loopback). */
	path: string;
	/** By path (query included where the site tells pages apart by it); a string is served as HTML, else as JSON. */
	api: Record<string, unknown>;
	html: string;
	/** For docs pages: the .md twin and the llms.txt of the host. */
	twin?: string;
	/** Strings every faithful reading contains: every comment, every version. */
	facts: string[];
}

export const CORPUS_DIR = join(import.meta.dirname, "fixtures", "sources");

const WORDS = (
	"parser token stream buffer flush input output config option default value error warning fix patch release " +
	"version module import export type field schema cache request response header timeout retry limit window page " +
	"test build lint format deploy docker node python rust go thread worker queue lock race memory leak crash trace"
).split(" ");

function sentence(random: () => number, words = 8 + Math.floor(random() * 14)): string {
	const out = Array.from({ length: words }, () => pick(random, WORDS));
	return `${out.join(" ").replace(/^./, (c) => c.toUpperCase())}.`;
}

function paragraph(random: () => number, sentences = 2 + Math.floor(random() * 4)): string {
	return Array.from({ length: sentences }, () => sentence(random)).join(" ");
}

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const iso = (day: number, minute = 0) => new Date(Date.UTC(2025, 0, 1 + day, 9, minute)).toISOString();
const user = (random: () => number) =>
	`${pick(random, ["alice", "bob", "carol", "dave", "erin", "frank", "grace"])}${Math.floor(random() * 90) + 10}`;

const GITHUB_HEAD = (title: string) =>
	`<!DOCTYPE html><html lang="en" data-color-mode="auto"><head><meta charset="utf-8"><title>${esc(title)}</title><link rel="stylesheet" href="https://github.githubassets.com/assets/primer.css"><script src="https://github.githubassets.com/assets/app.js" defer></script></head><body class="logged-out env-production"><div class="position-relative js-header-wrapper"><a href="#start-of-content" class="p-3 color-bg-accent-emphasis">Skip to content</a><header class="Header-old header-logged-out"><nav aria-label="Global"><ul><li><a href="/features">Product</a></li><li><a href="/solutions">Solutions</a></li><li><a href="/resources">Resources</a></li><li><a href="/open-source">Open Source</a></li><li><a href="/enterprise">Enterprise</a></li><li><a href="/pricing">Pricing</a></li></ul><div class="search"><input type="text" placeholder="Search or jump to..."></div><a href="/login">Sign in</a> <a href="/signup">Sign up</a></nav></header></div>`;
const GITHUB_FOOT = `<div class="flash">Sign up for free to join this conversation on GitHub. Already have an account? <a href="/login">Sign in to comment</a></div></div></main></div><footer class="footer"><ul><li>© 2025 GitHub, Inc.</li><li><a href="/site/terms">Terms</a></li><li><a href="/site/privacy">Privacy</a></li><li><a href="/security">Security</a></li><li><a href="https://www.githubstatus.com/">Status</a></li><li><a href="https://docs.github.com">Docs</a></li><li><a href="/contact">Contact</a></li><li><a href="/settings/cookies">Manage cookies</a></li><li>Do not share my personal information</li></ul></footer></body></html>`;

function repoHeader(owner: string, repo: string): string {
	return `<div id="repository-container-header"><div class="d-flex"><a href="/${owner}">${owner}</a> / <strong><a href="/${owner}/${repo}">${repo}</a></strong> <span class="Label">Public</span></div><ul class="pagehead-actions"><li><a href="/login">Notifications</a></li><li><a href="/login">Fork 312</a></li><li><a href="/login">Star 4.1k</a></li></ul><nav class="UnderlineNav"><a href="/${owner}/${repo}">Code</a><a href="/${owner}/${repo}/issues">Issues 214</a><a href="/${owner}/${repo}/pulls">Pull requests 31</a><a href="/${owner}/${repo}/discussions">Discussions</a><a href="/${owner}/${repo}/actions">Actions</a><a href="/${owner}/${repo}/projects">Projects</a><a href="/${owner}/${repo}/security">Security</a><a href="/${owner}/${repo}/pulse">Insights</a></nav></div>`;
}

function timelineComment(login: string, at: string, body: string, owner: string): string {
	return `<div class="TimelineItem js-comment-container"><div class="avatar-parent-child TimelineItem-avatar"><a href="/${login}"><img class="avatar rounded-2" src="https://avatars.githubusercontent.com/u/1?s=80&v=4" width="40" height="40" alt="@${login}"></a></div><div class="timeline-comment-group"><div class="timeline-comment"><div class="timeline-comment-header"><div class="timeline-comment-actions"><details class="dropdown"><summary aria-label="Show options">…</summary><ul><li>Copy link</li><li>Quote reply</li><li>Report content</li></ul></details></div><h3 class="timeline-comment-header-text"><strong><a class="author" href="/${login}">${login}</a></strong> commented <a href="#issuecomment"><relative-time datetime="${at}">${at.slice(0, 10)}</relative-time></a></h3>${login === owner ? '<span class="Label">Author</span>' : '<span class="Label">Contributor</span>'}</div><div class="edit-comment-hide"><task-lists><table class="d-block"><tbody class="d-block"><tr class="d-block"><td class="d-block comment-body markdown-body js-comment-body"><p dir="auto">${esc(body)}</p></td></tr></tbody></table></task-lists></div><div class="comment-reactions"><button aria-label="thumbs up">👍 3</button><button aria-label="React">😄</button></div></div></div></div>`;
}

function githubPage(random: () => number, index: number, pull: boolean): CorpusPage {
	const owner = pick(random, ["acme", "tinyco", "opensrc", "devtools"]);
	const repo = `${pick(random, ["parse", "stream", "cache", "queue"])}-${pick(random, ["kit", "lib", "core", "js"])}`;
	const number = 100 + index * 7;
	const title = sentence(random, 6 + Math.floor(random() * 5)).replace(/\.$/, "");
	const author = user(random);
	const opening = paragraph(random);
	const call = `${pick(random, WORDS)}(${pick(random, WORDS)});`;
	const closing = paragraph(random);
	const body = `${opening}\n\n\`\`\`js\n${call}\n\`\`\`\n\n${closing}`;
	const count = 5 + Math.floor(random() * 36);
	const comments = Array.from({ length: count }, (_, i) => ({
		id: index * 1000 + i,
		user: { login: user(random), id: i, type: "User" },
		created_at: iso(index, i),
		updated_at: iso(index, i),
		author_association: "CONTRIBUTOR",
		body: paragraph(random, 1 + Math.floor(random() * 4)),
		reactions: { total_count: 1, "+1": 1 },
	}));
	const labels = [pick(random, ["bug", "enhancement", "question"]), pick(random, ["parser", "docs", "perf"])];
	const base = `/repos/${owner}/${repo}`;
	const issue = {
		url: `https://api.github.com${base}/issues/${number}`,
		number,
		title,
		user: { login: author, id: 1, type: "User" },
		labels: labels.map((name, i) => ({ id: i, name, color: "d73a4a", default: false, description: null })),
		state: "open",
		state_reason: null,
		assignees: [],
		milestone: null,
		comments: count,
		created_at: iso(index),
		updated_at: iso(index, count),
		closed_at: null,
		author_association: "CONTRIBUTOR",
		body,
		...(pull ? { pull_request: { url: `https://api.github.com${base}/pulls/${number}`, merged_at: null } } : {}),
	};
	const api: Record<string, unknown> = {
		[`${base}/issues/${number}`]: issue,
		[`${base}/issues/${number}/comments`]: comments,
	};
	const files = Array.from({ length: 2 + Math.floor(random() * 6) }, (_, i) => ({
		filename: `src/${pick(random, WORDS)}-${i}.ts`,
		status: "modified",
		additions: Math.floor(random() * 40),
		deletions: Math.floor(random() * 20),
	}));
	if (pull) {
		api[`${base}/pulls/${number}`] = {
			state: "open",
			draft: false,
			merged: false,
			merged_at: null,
			head: { label: `${author}:fix-${number}` },
			base: { label: `${owner}:main` },
			commits: 3,
			additions: 120,
			deletions: 40,
			changed_files: files.length,
		};
		api[`${base}/pulls/${number}/files`] = files;
		api[`${base}/pulls/${number}/reviews`] = [];
		api[`${base}/pulls/${number}/comments`] = [];
	}
	const sidebar = `<div class="Layout-sidebar"><div class="discussion-sidebar-item"><h3>Assignees</h3><p>No one assigned</p></div><div class="discussion-sidebar-item"><h3>Labels</h3>${labels.map((l) => `<a class="IssueLabel" href="/${owner}/${repo}/labels/${l}">${l}</a>`).join(" ")}</div><div class="discussion-sidebar-item"><h3>Projects</h3><p>None yet</p></div><div class="discussion-sidebar-item"><h3>Milestone</h3><p>No milestone</p></div><div class="discussion-sidebar-item"><h3>Development</h3><p>No branches or pull requests</p></div><div class="discussion-sidebar-item"><h3>Notifications</h3><button>Subscribe</button><p>You're not receiving notifications from this thread.</p></div><div class="discussion-sidebar-item"><h3>${count} participants</h3>${comments.map((c) => `<a href="/${c.user.login}"><img class="avatar" alt="@${c.user.login}" src="https://avatars.githubusercontent.com/u/2?s=52&v=4"></a>`).join("")}</div></div>`;
	const filesHtml = pull
		? `<div class="toc-diff-stats"><h2>Files changed</h2><ul>${files.map((f) => `<li><a href="#diff">${f.filename}</a> <span class="diffstat">+${f.additions} −${f.deletions}</span></li>`).join("")}</ul></div>`
		: "";
	const html = `${GITHUB_HEAD(`${title} · ${pull ? "Pull Request" : "Issue"} #${number} · ${owner}/${repo}`)}<div class="application-main"><main id="js-repo-pjax-container">${repoHeader(owner, repo)}<div class="container-xl"><div id="partial-discussion-header" class="gh-header"><h1 class="gh-header-title"><bdi class="js-issue-title markdown-title">${esc(title)}</bdi> <span class="f1-light">#${number}</span></h1><div class="gh-header-meta"><span class="State State--open">Open</span> <a class="author" href="/${author}">${author}</a> opened this ${pull ? "pull request" : "issue"} <relative-time datetime="${issue.created_at}">${issue.created_at.slice(0, 10)}</relative-time> · ${count} comments</div></div><div class="Layout"><div class="Layout-main"><div class="js-discussion">${timelineComment(author, issue.created_at, body, author)}${filesHtml}${comments.map((c) => timelineComment(c.user.login, c.created_at, c.body, author)).join("")}</div></div>${sidebar}</div>${GITHUB_FOOT}`;
	// The opening post is the thread's first comment: a reading without it does not keep every comment.
	const facts = [
		title,
		opening,
		closing,
		...comments.map((c) => c.body),
		...(pull ? files.map((f) => f.filename) : []),
	];
	return {
		name: `github-${pull ? "pull" : "issue"}-${index}`,
		kind: pull ? "github-pull" : "github-issue",
		path: `/${owner}/${repo}/${pull ? "pull" : "issues"}/${number}`,
		api,
		html,
		facts,
	};
}

function versionsOf(random: () => number, count: number): Array<{ version: string; date: string }> {
	const out: Array<{ version: string; date: string }> = [];
	let [major, minor, patch] = [0, 1, 0];
	for (let i = 0; i < count; i++) {
		const step = random();
		if (step < 0.1) [major, minor, patch] = [major + 1, 0, 0];
		else if (step < 0.4) [minor, patch] = [minor + 1, 0];
		else patch++;
		out.push({ version: `${major}.${minor}.${patch}`, date: iso(i * 9) });
	}
	return out;
}

const REGISTRY_CHROME = (site: string, title: string, main: string) =>
	`<!DOCTYPE html><html><head><meta charset="utf-8"><title>${esc(title)} - ${site}</title><script src="/static/app.js"></script></head><body><header><nav><a href="/">${site}</a><form><input placeholder="Search packages"></form><a href="/signup">Sign Up</a><a href="/login">Sign In</a><a href="/pricing">Pricing</a><a href="/docs">Documentation</a></nav><div class="banner">Help keep the ecosystem safe: turn on two-factor authentication.</div></header><main>${main}</main><footer><div><h3>Support</h3><ul><li><a href="/help">Help</a></li><li><a href="/advisories">Advisories</a></li><li><a href="/status">Status</a></li><li><a href="/support">Contact</a></li></ul></div><div><h3>Company</h3><ul><li><a href="/about">About</a></li><li><a href="/blog">Blog</a></li><li><a href="/press">Press</a></li></ul></div><div><h3>Terms &amp; Policies</h3><ul><li><a href="/policies">Policies</a></li><li><a href="/terms">Terms of Use</a></li><li><a href="/conduct">Code of Conduct</a></li><li><a href="/privacy">Privacy</a></li></ul></div></footer></body></html>`;

function packagePage(random: () => number, index: number, kind: "npm" | "pypi"): CorpusPage {
	const name = `${pick(random, ["tiny", "fast", "micro", "safe"])}-${pick(random, WORDS)}-${index}`;
	const versions = versionsOf(random, 8 + Math.floor(random() * 40));
	const latest = versions.at(-1)!;
	const description = sentence(random);
	const readme = `# ${name}\n\n${paragraph(random)}\n\n## Install\n\n\`\`\`sh\n${kind === "npm" ? "npm install" : "pip install"} ${name}\n\`\`\`\n\n## Usage\n\n${paragraph(random)}\n\n\`\`\`\n${pick(random, WORDS)}(${pick(random, WORDS)})\n\`\`\`\n\n${paragraph(random)}`;
	const readmeHtml = readme
		.split("\n\n")
		.map((block) =>
			block.startsWith("#")
				? `<h2>${esc(block.replace(/^#+ /, ""))}</h2>`
				: block.startsWith("```")
					? `<pre><code>${esc(block.replace(/```\w*\n?/g, ""))}</code></pre>`
					: `<p>${esc(block)}</p>`,
		)
		.join("");
	const versionRows = [...versions]
		.reverse()
		.map(
			(v) =>
				`<tr><td><a href="/${kind === "npm" ? `package/${name}/v/${v.version}` : `project/${name}/${v.version}/`}">${v.version}</a></td><td>${kind === "npm" ? Math.floor(random() * 9000) : ""}</td><td><time datetime="${v.date}">${v.date.slice(0, 10)}</time></td></tr>`,
		);
	if (kind === "npm") {
		const packument = {
			_id: name,
			name,
			description,
			"dist-tags": { latest: latest.version },
			versions: Object.fromEntries(
				versions.map((v) => [
					v.version,
					{
						name,
						version: v.version,
						license: "MIT",
						dependencies: { kleur: "^4.1.5" },
						dist: {
							tarball: `https://registry.npmjs.org/${name}/-/${name}-${v.version}.tgz`,
							shasum: "0".repeat(40),
							integrity: `sha512-${"A".repeat(86)}==`,
						},
					},
				]),
			),
			time: {
				created: versions[0]!.date,
				modified: latest.date,
				...Object.fromEntries(versions.map((v) => [v.version, v.date])),
			},
			maintainers: [{ name: "alice", email: "alice@example.com" }],
			license: "MIT",
			repository: { type: "git", url: `git+https://github.com/acme/${name}.git` },
			readme,
		};
		const main = `<div class="package-header"><h1>${name}</h1><span>${latest.version} • Public • Published ${latest.date.slice(0, 10)}</span></div><ul class="tabs"><li>Readme</li><li>Code (Beta)</li><li>1 Dependency</li><li>${Math.floor(random() * 900)} Dependents</li><li>${versions.length} Versions</li></ul><div class="readme">${readmeHtml}</div><aside><h3>Install</h3><code>npm i ${name}</code><h3>Repository</h3><a href="https://github.com/acme/${name}">github.com/acme/${name}</a><h3>Weekly Downloads</h3><p>${Math.floor(random() * 99999)}</p><h3>Version</h3><p>${latest.version}</p><h3>License</h3><p>MIT</p><h3>Last publish</h3><p>${latest.date.slice(0, 10)}</p><h3>Collaborators</h3><img alt="alice"><a href="/support">Report malware</a></aside><section class="versions"><h2>Version History</h2><table><thead><tr><th>Version</th><th>Downloads (Last 7 Days)</th><th>Published</th></tr></thead><tbody>${versionRows.join("")}</tbody></table></section>`;
		return {
			name: `npm-${index}`,
			kind,
			path: `/package/${name}`,
			api: { [`/${name}`]: packument },
			html: REGISTRY_CHROME("npm", name, main),
			facts: versions.map((v) => v.version),
		};
	}
	const releases = Object.fromEntries(
		versions.map((v) => [
			v.version,
			[
				{
					filename: `${name}-${v.version}.tar.gz`,
					packagetype: "sdist",
					python_version: "source",
					size: 20480,
					upload_time: v.date.slice(0, 19),
					upload_time_iso_8601: v.date,
					url: `https://files.pythonhosted.org/packages/${name}-${v.version}.tar.gz`,
					yanked: false,
					yanked_reason: null,
					digests: { sha256: "0".repeat(64), md5: "0".repeat(32), blake2b_256: "0".repeat(64) },
				},
			],
		]),
	);
	const doc = {
		info: {
			name,
			version: latest.version,
			summary: description,
			description: readme,
			description_content_type: "text/markdown",
			license: "MIT",
			license_expression: "MIT",
			requires_python: ">=3.9",
			author: "Alice Example",
			project_urls: { Repository: `https://github.com/acme/${name}` },
			requires_dist: ["attrs>=23.1"],
			classifiers: [
				"Programming Language :: Python :: 3",
				"License :: OSI Approved :: MIT License",
				"Operating System :: OS Independent",
			],
		},
		releases,
		urls: releases[latest.version],
		vulnerabilities: [],
		last_serial: 1,
	};
	const main = `<div class="package-header"><h1 class="package-header__name">${name} ${latest.version}</h1><p>pip install ${name}</p><p class="package-header__date">Released: <time>${latest.date.slice(0, 10)}</time></p></div><div class="package-description"><p>${esc(description)}</p></div><nav class="vertical-tabs"><a href="#description">Project description</a><a href="#history">Release history</a><a href="#files">Download files</a></nav><div id="description" class="project-description">${readmeHtml}</div><div id="history"><h2>Release history</h2><div class="release-timeline">${[
		...versions,
	]
		.reverse()
		.map(
			(v) =>
				`<div class="release"><a href="/project/${name}/${v.version}/"><p class="release__version">${v.version}</p><p class="release__version-date"><time datetime="${v.date}">${v.date.slice(0, 10)}</time></p></a></div>`,
		)
		.join(
			"",
		)}</div></div><aside><h3>Navigation</h3><h3>Verified details</h3><p>These details have been verified by PyPI</p><h3>Meta</h3><p>License: MIT</p><p>Requires: Python &gt;=3.9</p><h3>Classifiers</h3><ul><li>Programming Language :: Python :: 3</li><li>License :: OSI Approved :: MIT License</li></ul></aside>`;
	return {
		name: `pypi-${index}`,
		kind,
		path: `/project/${name}/`,
		api: { [`/pypi/${name}/json`]: doc },
		html: REGISTRY_CHROME("PyPI", name, main),
		facts: versions.map((v) => v.version),
	};
}

function stackPage(random: () => number, index: number): CorpusPage {
	const id = 70000 + index;
	const title = `How do I ${sentence(random, 6).toLowerCase().replace(/\.$/, "")}?`;
	const count = 3 + Math.floor(random() * 8);
	const texts = Array.from({ length: count }, () => paragraph(random));
	const answers = texts.map((text, i) => ({
		owner: { display_name: user(random), reputation: 100 + i },
		is_accepted: i === 1,
		score: 40 - i * 5,
		creation_date: 1_735_700_000 + i * 3600,
		answer_id: id * 10 + i,
		question_id: id,
		body: `<p>${esc(text)}</p><pre><code>${esc(`${pick(random, WORDS)}(${pick(random, WORDS)})`)}</code></pre>`,
	}));
	// Drawn in the order the question's fields always were, so the pages stay as recorded.
	const asker = user(random);
	const asked = paragraph(random);
	const question = {
		tags: ["javascript", "node.js"],
		owner: { display_name: asker, reputation: 50 },
		is_answered: true,
		view_count: 12000,
		accepted_answer_id: id * 10 + 1,
		answer_count: count,
		score: 55,
		creation_date: 1_735_600_000,
		question_id: id,
		title,
		body: `<p>${esc(asked)}</p>`,
	};
	const post = (body: string, score: number, accepted: boolean, who: string) =>
		`<div class="post-layout"><div class="votecell"><button aria-label="Up vote">▲</button><div class="js-vote-count">${score}</div><button aria-label="Down vote">▼</button>${accepted ? '<div class="js-accepted-answer-indicator" title="accepted">✓</div>' : ""}<button aria-label="Save">Save</button><a href="/posts/timeline">Show activity on this post.</a></div><div class="postcell"><div class="s-prose js-post-body">${body}</div><div class="post-menu"><a href="/q/${id}">Share</a><a href="/posts/edit">Improve this answer</a><button>Follow</button></div><div class="user-info"><div class="user-action-time">answered</div><div class="user-details"><a href="/users/1/${who}">${who}</a><div class="-flair"><span class="reputation-score">1,234</span><span class="badge1"></span>3<span class="badge2"></span>12</div></div></div></div><div class="comments"><ul><li><span class="comment-copy">${esc(sentence(random))}</span> – <a class="comment-user">${user(random)}</a></li></ul><a class="js-add-link">Add a comment</a></div></div>`;
	const html = `<!DOCTYPE html><html><head><title>${esc(title)} - Stack Overflow</title><script src="https://cdn.sstatic.net/Js/stub.en.js"></script></head><body class="question-page"><header class="s-topbar"><a href="/">Stack Overflow</a><ol><li><a href="/questions">Questions</a></li><li>About</li><li>Products</li><li>For Teams</li></ol><input placeholder="Search…"><a href="/users/login">Log in</a><a href="/users/signup">Sign up</a></header><div class="container"><div id="left-sidebar"><nav><ol><li><a href="/">Home</a></li><li><a href="/questions">Questions</a></li><li><a href="/tags">Tags</a></li><li><a href="/users">Users</a></li><li><a href="/jobs">Companies</a></li><li>Collectives</li><li>Explore Collectives</li></ol></nav></div><div id="content"><div id="question-header"><h1><a href="/questions/${id}">${esc(title)}</a></h1></div><div class="d-flex"><span>Asked 1 year ago</span><span>Modified 3 months ago</span><span>Viewed 12k times</span></div><div id="question">${post(question.body, question.score, false, question.owner.display_name)}<div class="post-taglist"><a class="post-tag">javascript</a><a class="post-tag">node.js</a></div></div><div id="answers"><h2>${count} Answers</h2><div>Sorted by: <select><option>Highest score (default)</option><option>Trending</option><option>Date modified (newest first)</option></select></div>${answers.map((a) => post(a.body, a.score, a.is_accepted, a.owner.display_name)).join("")}</div><h2>Your Answer</h2><form><textarea></textarea><p>Thanks for contributing an answer to Stack Overflow!</p><ul><li>Please be sure to answer the question. Provide details and share your research!</li></ul><p>But avoid …</p><ul><li>Asking for help, clarification, or responding to other answers.</li></ul><button>Post Your Answer</button></form></div><div id="sidebar"><div class="s-sidebarwidget"><h4>The Overflow Blog</h4><ul><li>${esc(sentence(random))}</li><li>${esc(sentence(random))}</li></ul></div><div class="module"><h4>Linked</h4><ul><li>${esc(sentence(random))}</li></ul></div><div class="module"><h4>Related</h4><ul>${Array.from({ length: 10 }, () => `<li><a href="/q/1">${esc(sentence(random))}</a></li>`).join("")}</ul></div><div id="hot-network-questions"><h4>Hot Network Questions</h4><ul>${Array.from({ length: 12 }, () => `<li><a href="https://x.stackexchange.com/q/1">${esc(sentence(random))}</a></li>`).join("")}</ul></div></div></div><footer><nav><h5>Stack Overflow</h5><ul><li>Questions</li><li>Help</li><li>Chat</li></ul><h5>Company</h5><ul><li>About</li><li>Press</li><li>Work Here</li><li>Legal</li><li>Privacy Policy</li><li>Terms of Service</li><li>Contact Us</li><li>Cookie Settings</li></ul></nav><p>Site design / logo © 2025 Stack Exchange Inc; user contributions licensed under CC BY-SA.</p></footer></body></html>`;
	return {
		name: `stackoverflow-${index}`,
		kind: "stackoverflow",
		path: `/questions/${id}/q`,
		api: {
			[`/2.3/questions/${id}`]: { items: [question], has_more: false, quota_max: 300, quota_remaining: 290 },
			[`/2.3/questions/${id}/answers`]: { items: answers, has_more: false, quota_max: 300, quota_remaining: 289 },
		},
		html,
		// The question is the thread's first post, as a GitHub issue's opening comment is.
		facts: [title, asked, ...texts],
	};
}

function docsPage(random: () => number, index: number): CorpusPage {
	const topic = `${pick(random, ["Configuring", "Deploying", "Testing", "Caching"])} ${pick(random, WORDS)}s`;
	const sections = Array.from({ length: 3 + Math.floor(random() * 3) }, () => ({
		heading: sentence(random, 3).replace(/\.$/, ""),
		text: paragraph(random),
		code: `${pick(random, WORDS)}.${pick(random, WORDS)}({ ${pick(random, WORDS)}: true })`,
	}));
	const twin = `# ${topic}\n\n${sections.map((s) => `## ${s.heading}\n\n${s.text}\n\n\`\`\`js\n${s.code}\n\`\`\``).join("\n\n")}\n`;
	const nav = Array.from(
		{ length: 40 },
		(_, i) => `<li><a href="/docs/page-${i}">${esc(sentence(random, 2).replace(/\.$/, ""))}</a></li>`,
	).join("");
	const html = `<!DOCTYPE html><html><head><title>${topic} | Example Docs</title><script src="/assets/docs.js"></script></head><body><header><a href="/">Example</a><nav><a href="/docs">Docs</a><a href="/api">API</a><a href="/blog">Blog</a><a href="/changelog">Changelog</a></nav><button>Search docs ⌘K</button><button>Toggle theme</button></header><div class="layout"><aside class="sidebar"><nav><ul>${nav}</ul></nav></aside><main><article><nav class="breadcrumbs"><a href="/docs">Docs</a> › <span>${topic}</span></nav><h1>${topic}</h1>${sections.map((s) => `<h2 id="${s.heading.replace(/\W+/g, "-")}">${esc(s.heading)}<a class="anchor" href="#${s.heading.replace(/\W+/g, "-")}">#</a></h2><p>${esc(s.text)}</p><div class="code-block"><button class="copy">Copy</button><pre><code class="language-js">${esc(s.code)}</code></pre></div>`).join("")}<div class="feedback">Was this page helpful? <button>Yes</button> <button>No</button></div><nav class="pagination"><a href="/docs/prev">← Previous</a><a href="/docs/next">Next →</a></nav><a href="https://github.com/example/docs/edit/main/page.md">Edit this page on GitHub</a></article><aside class="toc"><h3>On this page</h3><ul>${sections.map((s) => `<li><a href="#x">${esc(s.heading)}</a></li>`).join("")}</ul></aside></main></div><footer><p>© 2025 Example, Inc.</p><a href="/privacy">Privacy</a><a href="/terms">Terms</a><a href="https://status.example.com">Status</a></footer></body></html>`;
	return {
		name: `docs-${index}`,
		kind: "docs",
		path: `/docs/topic-${index}`,
		api: {},
		html,
		twin,
		facts: sections.map((s) => s.text),
	};
}

/**
 * The whole corpus, the same for a seed: 12 issues, 6 pull requests, 6 npm, 4 PyPI, 4 Stack Overflow, 4 docs, 3
 * pkg.go.dev packages, 3 docs.rs crates (the last two kinds drawn last, so the others stay as they were).
 */
export function generateCorpus(seed = 29): CorpusPage[] {
	const random = createRandom(seed);
	const pages: CorpusPage[] = [];
	for (let i = 0; i < 12; i++) pages.push(githubPage(random, i, false));
	for (let i = 12; i < 18; i++) pages.push(githubPage(random, i, true));
	for (let i = 0; i < 6; i++) pages.push(packagePage(random, i, "npm"));
	for (let i = 6; i < 10; i++) pages.push(packagePage(random, i, "pypi"));
	for (let i = 0; i < 4; i++) pages.push(stackPage(random, i));
	for (let i = 0; i < 4; i++) pages.push(docsPage(random, i));
	for (let i = 0; i < 3; i++) pages.push(goPage(random, i, WORDS, sentence));
	for (let i = 0; i < 3; i++) pages.push(docsrsPage(random, i, WORDS, sentence));
	return pages;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	mkdirSync(CORPUS_DIR, { recursive: true });
	for (const page of generateCorpus())
		writeFileSync(join(CORPUS_DIR, `${page.name}.json`), `${JSON.stringify(page)}\n`);
	console.log(`wrote ${CORPUS_DIR}`);
}
