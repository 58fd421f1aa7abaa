// GitHub issues and pull requests through the REST API: title, state, labels, body and every comment in order with
// its author and date; for a pull request also its branches, changed files, reviews and review comments. The issue,
// its comments and the pull request's parts are asked at once (one round trip), further pages in one more.

import type { ReaderOutput, ReaderTarget, SourceApi, SourceReader } from "./contract.ts";
import { changedDays, dateOnly, login, markdownBody, names, type Obj, obj, oneLine } from "./format.ts";
import { type PagedList, pagedList } from "./paged.ts";

/** First path segments of a GitHub host that are site pages, not repository owners. */
const NOT_OWNERS = new Set(["orgs", "organizations", "settings", "users", "search", "marketplace", "apps", "topics"]);

const PATH = /^\/([A-Za-z0-9._-]+)\/([A-Za-z0-9._-]+)\/(issues|pull)\/(\d{1,10})(?:\/(?:files|commits|checks))?\/?$/;

/** A body whose last line starts with a tag. */
const ENDS_IN_HTML = /(?:^|\n)[ \t]*<[^\n]*$/;

/** One entry of the conversation; its header is `head`, the day when it differs from the entry before, `tail`. */
interface TimelineItem {
	at: string;
	head: string;
	tail?: string;
	body: string;
}

function match(url: URL): ReaderTarget | undefined {
	const found = PATH.exec(url.pathname);
	if (!found || NOT_OWNERS.has(found[1]!.toLowerCase())) return undefined;
	const [, owner, repo, view, number] = found;
	return {
		owner: owner!,
		repo: repo!.replace(/\.git$/i, ""),
		kind: view === "pull" ? "pull" : "issue",
		number: number!,
	};
}

async function read(target: ReaderTarget, api: SourceApi): Promise<ReaderOutput> {
	const base = `/repos/${target.owner}/${target.repo}`;
	const n = target.number;
	const isPull = target.kind === "pull";
	const none = Promise.resolve(undefined);
	const [issue, comments, pull, files, reviewComments, reviews] = await Promise.all([
		api.json(`${base}/issues/${n}`),
		pagedList(api, `${base}/issues/${n}/comments`),
		isPull ? api.json(`${base}/pulls/${n}`) : none,
		isPull ? pagedList(api, `${base}/pulls/${n}/files`, 30) : none,
		isPull ? pagedList(api, `${base}/pulls/${n}/comments`) : none,
		isPull ? pagedList(api, `${base}/pulls/${n}/reviews`) : none,
	]);
	const data = obj(issue.body);
	const title = oneLine(data.title, 500);
	const lines = [`# ${title} (#${n})`, "", ...facts(data, pull ? obj(pull.body) : undefined, files), ""];
	lines.push(markdownBody(data.body));
	if (!isPull && data.pull_request !== undefined) {
		lines.push("", `_(This issue is a pull request: ${oneLine(obj(data.pull_request).html_url)} lists its files.)_`);
	}
	if (files) lines.push("", ...changedFiles(files));
	const timeline = [
		...comments.items.map((c) => comment(obj(c))),
		...(reviews?.items.map((r) => review(obj(r))).filter((r) => r !== undefined) ?? []),
		...(reviewComments?.items.map((c) => reviewComment(obj(c))) ?? []),
	].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
	const total = typeof data.comments === "number" ? data.comments : comments.items.length;
	// The opening's day is said on the line under the title.
	const [entries, undated] = conversation(timeline, data.created_at);
	// The timeline goes in time order, so a day said once dates every entry after it up to the next.
	const dated = undated ? ", each day said once" : "";
	lines.push(
		"",
		`## Conversation (${total} comment${total === 1 ? "" : "s"}${reviewsNote(reviews, reviewComments)}${dated})`,
	);
	lines.push(...entries);
	const notes = [left(comments, "comments"), left(reviewComments, "review comments"), left(reviews, "reviews")];
	for (const note of notes) if (note) lines.push("", note);
	const output: ReaderOutput = { title, markdown: `${lines.join("\n")}\n`, finalUrl: issue.url };
	const author = login(data.user);
	if (author !== "ghost") output.author = author;
	if (typeof data.created_at === "string") output.publishedAt = data.created_at;
	return output;
}

function facts(issue: Obj, pull: Obj | undefined, files: PagedList | undefined): string[] {
	const kind = pull ? "pull request" : "issue";
	let state = oneLine(issue.state) || "unknown";
	if (pull?.merged === true || typeof pull?.merged_at === "string") state = `merged ${dateOnly(pull?.merged_at)}`;
	else if (pull?.draft === true) state = `${state} (draft)`;
	else if (typeof issue.state_reason === "string" && issue.state_reason !== "")
		state += ` (${oneLine(issue.state_reason)})`;
	// The repository is the page address's: not said again. Who opened it and when come first: after the state, "by"
	// would read as who closed or merged it.
	const out = [`${kind} by @${login(issue.user)} on ${dateOnly(issue.created_at)} · ${state}`];
	if (typeof issue.closed_at === "string" && !pull?.merged_at) out.push(`Closed: ${dateOnly(issue.closed_at)}`);
	const labels = names(issue.labels);
	if (labels.length > 0) out.push(`Labels: ${labels.join(", ")}`);
	const assignees = Array.isArray(issue.assignees) ? issue.assignees.map((a) => `@${login(a)}`) : [];
	if (assignees.length > 0) out.push(`Assignees: ${assignees.join(", ")}`);
	const milestone = oneLine(obj(issue.milestone).title);
	if (milestone) out.push(`Milestone: ${milestone}`);
	if (pull) {
		const head = oneLine(obj(pull.head).label);
		const baseRef = oneLine(obj(pull.base).label);
		// The count of files is said by the list's heading when the list names them all.
		const all = files !== undefined && files.pagesLeft === 0 && files.items.length === pull.changed_files;
		out.push(
			`Branches: ${head} → ${baseRef} · ${pull.commits ?? "?"} commits · +${pull.additions ?? "?"} −${pull.deletions ?? "?"}${all ? "" : ` in ${pull.changed_files ?? "?"} files`}`,
		);
	}
	return out.map((line) => `${line}  `);
}

function changedFiles(files: PagedList): string[] {
	const out = [`## Changed files (${files.items.length}${files.pagesLeft > 0 ? "+" : ""})`, ""];
	for (const raw of files.items) {
		const file = obj(raw);
		const renamed = typeof file.previous_filename === "string" ? ` (from \`${oneLine(file.previous_filename)}\`)` : "";
		// "modified" is most files' status: said only when it is another.
		const status = oneLine(file.status);
		const shown = status === "modified" || status === "" ? "" : ` ${status}`;
		out.push(`- \`${oneLine(file.filename)}\`${renamed}${shown} +${file.additions ?? 0} −${file.deletions ?? 0}`);
	}
	if (files.pagesLeft > 0) out.push(`- _(${files.pagesLeft} more pages of files not listed)_`);
	return out;
}

/** A comment, headed by its author: its place in the thread is its order. */
function comment(c: Obj): TimelineItem {
	const edited = typeof c.updated_at === "string" && c.updated_at !== c.created_at ? " (edited)" : "";
	return {
		at: String(c.created_at ?? ""),
		head: `### @${login(c.user)}`,
		tail: edited,
		body: markdownBody(c.body),
	};
}

function review(r: Obj): TimelineItem | undefined {
	const state = oneLine(r.state);
	// A review without text that only comments carries its review comments, listed on their own.
	if ((typeof r.body !== "string" || r.body.trim() === "") && state === "COMMENTED") return undefined;
	return {
		at: String(r.submitted_at ?? ""),
		head: `### Review · @${login(r.user)} · ${state.toLowerCase().replace(/_/g, " ")}`,
		body: markdownBody(r.body),
	};
}

function reviewComment(c: Obj): TimelineItem {
	const line = typeof c.line === "number" ? `:${c.line}` : "";
	return {
		at: String(c.created_at ?? ""),
		head: `### Review comment · @${login(c.user)} on \`${oneLine(c.path)}${line}\``,
		body: markdownBody(c.body),
	};
}

/**
 * The conversation's lines: each entry's header and body, the day in the header only when it differs from the entry
 * before, the first entry's from the day the issue was opened (a thread of one day says it once); and whether some
 * entry went undated so.
 */
function conversation(timeline: readonly TimelineItem[], opened: unknown): [string[], boolean] {
	const { days, undated } = changedDays(
		timeline.map((item) => item.at),
		opened,
	);
	// A header line is one a body cannot forge (itemBody escapes it): no blank line is needed to set it apart, but after
	// a body that ends in HTML (`</details>`), which in markdown runs on to the next blank line.
	const lines = timeline.flatMap((item, i) => [
		`${item.head}${days[i] ? ` · ${days[i]}` : ""}${item.tail ?? ""}`,
		...(ENDS_IN_HTML.test(item.body) ? [item.body, ""] : [item.body]),
	]);
	return [lines, undated];
}

function reviewsNote(reviews: PagedList | undefined, comments: PagedList | undefined): string {
	const parts = [
		reviews && reviews.items.length > 0 ? `${reviews.items.length} reviews` : "",
		comments && comments.items.length > 0 ? `${comments.items.length} review comments` : "",
	].filter((part) => part !== "");
	return parts.map((part) => `, ${part}`).join("");
}

function left(list: PagedList | undefined, what: string): string | undefined {
	if (!list || list.pagesLeft === 0) return undefined;
	return `_(${list.pagesLeft} more pages of ${what} not read: the thread is longer than this reader's bound)_`;
}

export const githubIssue: SourceReader = { name: "github-issue", source: "github", match, read };
