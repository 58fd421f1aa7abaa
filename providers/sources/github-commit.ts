// A GitHub commit (`/<o>/<r>/commit/<sha>`) through the REST API: message, author and date, stats, and each changed
// file with its patch (bounded like any item). One request.

import type { ReaderOutput, ReaderTarget, SourceApi, SourceReader } from "./contract.ts";
import { dateTime, fenced, itemBody, login, obj, oneLine, READER_LIMITS } from "./format.ts";

const PATH = /^\/([A-Za-z0-9._-]+)\/([A-Za-z0-9._-]+)\/commit\/([0-9a-fA-F]{7,40})\/?$/;

function match(url: URL): ReaderTarget | undefined {
	const found = PATH.exec(url.pathname);
	if (!found) return undefined;
	return { owner: found[1]!, repo: found[2]!.replace(/\.git$/i, ""), sha: found[3]! };
}

async function read(target: ReaderTarget, api: SourceApi): Promise<ReaderOutput> {
	const answer = await api.json(`/repos/${target.owner}/${target.repo}/commits/${target.sha}`);
	const data = obj(answer.body);
	const commit = obj(data.commit);
	const author = obj(commit.author);
	const message = typeof commit.message === "string" ? commit.message : "";
	const subject = oneLine(message.split("\n")[0], 500);
	const stats = obj(data.stats);
	const files = Array.isArray(data.files) ? data.files.map(obj) : [];
	const sha = oneLine(data.sha) || target.sha;
	const lines = [
		`# ${subject}`,
		"",
		`${target.owner}/${target.repo} · commit ${sha} · ${oneLine(author.name)} (@${login(data.author)}) · ${dateTime(author.date)}  `,
		`+${stats.additions ?? "?"} −${stats.deletions ?? "?"} in ${files.length} files  `,
		"",
		itemBody(message),
		"",
		`## Changed files (${files.length})`,
	];
	for (const file of files) {
		lines.push(
			"",
			`### \`${oneLine(file.filename)}\` ${oneLine(file.status)} +${file.additions ?? 0} −${file.deletions ?? 0}`,
		);
		if (typeof file.patch === "string") {
			const patch =
				file.patch.length > READER_LIMITS.maxItemChars
					? `${file.patch.slice(0, READER_LIMITS.maxItemChars)}\n… (cut)`
					: file.patch;
			lines.push("", fenced(patch, "diff"));
		}
	}
	const output: ReaderOutput = { title: subject, markdown: `${lines.join("\n")}\n`, finalUrl: answer.url };
	if (typeof author.date === "string") output.publishedAt = author.date;
	return output;
}

export const githubCommit: SourceReader = { name: "github-commit", source: "github", match, read };
