// Stack Overflow (and Super User, Server Fault, Ask Ubuntu) questions through the Stack Exchange API: the question
// with its tags, score and author, then every answer by score with the accepted one marked, each with its author and
// day (said when it changes). The question and its answers are asked at once; post bodies (HTML) are read as the
// fetcher reads a page, all of a thread's in one conversion job.

import type { ReaderOutput, ReaderTarget, SourceApi, SourceReader } from "./contract.ts";
import { changedDays, dateOnly, itemBody, names, type Obj, obj, oneLine } from "./format.ts";

const PATH = /^\/(?:questions|q)\/(\d{1,12})(?:\/[^/]*)?\/?$/;
/** Answers read (one page of the API, best first). */
const MAX_ANSWERS = 100;

function match(url: URL): ReaderTarget | undefined {
	const found = PATH.exec(url.pathname);
	if (!found) return undefined;
	// The API's site parameter is the host's first label (stackoverflow.com → stackoverflow).
	const site = url.hostname
		.toLowerCase()
		.replace(/^www\./, "")
		.split(".")[0]!;
	return { id: found[1]!, site };
}

const iso = (seconds: unknown) => (typeof seconds === "number" ? new Date(seconds * 1000).toISOString() : undefined);
const when = (seconds: unknown) => (typeof seconds === "number" ? dateOnly(iso(seconds)) : "unknown date");
const owner = (post: Obj) => oneLine(obj(post.owner).display_name, 80) || "unknown";

/**
 * The posts' bodies (HTML) as markdown, all in one conversion job: a thread costs one worker round trip, not one per
 * post. When the converter refuses them, each post is still worth its text.
 */
async function bodiesOf(api: SourceApi, posts: readonly unknown[]): Promise<string[]> {
	const html = posts.map((body) => (typeof body === "string" && body.trim() !== "" ? body : ""));
	const converted = await api.markdownEach(html.filter((body) => body !== "")).catch(() => undefined);
	let next = 0;
	return html.map((body) => {
		if (body === "") return itemBody("");
		const markdown = converted?.[next++];
		return itemBody(markdown ?? body.replace(/<[^>]*>/g, ""));
	});
}

async function read(target: ReaderTarget, api: SourceApi): Promise<ReaderOutput> {
	const site = encodeURIComponent(target.site ?? "stackoverflow");
	const [question, answers] = await Promise.all([
		api.json(`/2.3/questions/${target.id}?site=${site}&filter=withbody`),
		api.json(
			`/2.3/questions/${target.id}/answers?site=${site}&filter=withbody&sort=votes&order=desc&pagesize=${MAX_ANSWERS}`,
		),
	]);
	const q = obj(Array.isArray(obj(question.body).items) ? (obj(question.body).items as unknown[])[0] : undefined);
	if (q.question_id === undefined) throw new TypeError(`no question ${target.id} in the API's answer`);
	const list = (Array.isArray(obj(answers.body).items) ? (obj(answers.body).items as unknown[]) : []).map(obj);
	// Best first, the accepted one first among equals (the API sorts by votes already).
	list.sort(
		(a, b) =>
			Number(b.score ?? 0) - Number(a.score ?? 0) || Number(b.is_accepted === true) - Number(a.is_accepted === true),
	);
	const bodies = await bodiesOf(api, [q.body, ...list.map((a) => a.body)]);
	const title = oneLine(q.title, 500);
	// Each answer is dated only when its day differs from the answer's above (answers go by score, not by date).
	const { days, undated } = changedDays(list.map((a) => iso(a.creation_date)));
	const lines = [
		`# ${title}`,
		"",
		// The question's id is the page address's; its view count is no fact a coder reads the thread for.
		`score ${q.score ?? 0} · asked by ${owner(q)} on ${when(q.creation_date)}  `,
		`Tags: ${names(q.tags).join(", ")}  `,
		"",
		bodies[0]!,
		"",
		`## Answers (${list.length}${Number(q.answer_count ?? 0) > list.length ? ` of ${q.answer_count}` : ""}, by score${undated ? "; dated when the day changes" : ""})`,
	];
	// An answer's rank is its place (they go by score), and its header a line no body can forge: no blank line before.
	list.forEach((a, i) => {
		const accepted = a.is_accepted === true ? " · accepted" : "";
		const day = days[i] ? ` · ${days[i] === "?" ? "unknown date" : days[i]}` : "";
		lines.push(`### score ${a.score ?? 0}${accepted} · ${owner(a)}${day}`, bodies[i + 1]!);
	});
	const output: ReaderOutput = { title, markdown: `${lines.join("\n")}\n`, finalUrl: question.url };
	if (typeof q.creation_date === "number") output.publishedAt = new Date(q.creation_date * 1000).toISOString();
	output.author = owner(q);
	return output;
}

export const stackoverflowQuestion: SourceReader = {
	name: "stackoverflow-question",
	source: "stackoverflow",
	match,
	read,
};
