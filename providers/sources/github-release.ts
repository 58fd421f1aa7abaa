// GitHub releases through the REST API: a release page (`/releases/tag/<tag>`) or the list (`/releases`, the 30
// newest): name, tag, date, author, pre-release or draft, notes and assets. One request.

import type { ReaderOutput, ReaderTarget, SourceApi, SourceReader } from "./contract.ts";
import { dateOnly, login, markdownBody, type Obj, obj, oneLine } from "./format.ts";

const PATH = /^\/([A-Za-z0-9._-]+)\/([A-Za-z0-9._-]+)\/releases(?:\/tag\/([^/]+)|\/latest)?\/?$/;
const LIST_SIZE = 30;

function match(url: URL): ReaderTarget | undefined {
	const found = PATH.exec(url.pathname);
	if (!found) return undefined;
	const [, owner, repo, tag] = found;
	const target: Record<string, string> = { owner: owner!, repo: repo!.replace(/\.git$/i, "") };
	// "" stands for the latest release; no tag at all for the list.
	if (tag) target.tag = decodeURIComponent(tag);
	else if (url.pathname.includes("/latest")) target.tag = "";
	return target;
}

function release(r: Obj, level: string): string[] {
	const kind = r.draft === true ? " · draft" : r.prerelease === true ? " · pre-release" : "";
	const tag = oneLine(r.tag_name);
	const name = oneLine(r.name) || tag;
	// The tag is said where the name does not say it; a release is dated to its day (its hour is no fact to a coder).
	const tagged = name.includes(tag) ? "" : `Tag ${tag} · `;
	const lines = [
		`${level} ${name}`,
		"",
		`${tagged}${dateOnly(r.published_at ?? r.created_at)} · by @${login(r.author)}${kind}  `,
	];
	const assets = Array.isArray(r.assets) ? r.assets.map(obj) : [];
	if (assets.length > 0) {
		lines.push(`Assets: ${assets.map((a) => `${oneLine(a.name, 120)} (${a.size ?? "?"} bytes)`).join(", ")}  `);
	}
	lines.push("", markdownBody(r.body));
	return lines;
}

async function read(target: ReaderTarget, api: SourceApi): Promise<ReaderOutput> {
	const base = `/repos/${target.owner}/${target.repo}/releases`;
	if (target.tag !== undefined) {
		const path = target.tag === "" ? `${base}/latest` : `${base}/tags/${encodeURIComponent(target.tag)}`;
		const answer = await api.json(path);
		const r = obj(answer.body);
		const title = `${target.owner}/${target.repo} ${oneLine(r.name) || oneLine(r.tag_name)}`;
		const output: ReaderOutput = { title, markdown: `${release(r, "#").join("\n")}\n`, finalUrl: answer.url };
		if (typeof r.published_at === "string") output.publishedAt = r.published_at;
		return output;
	}
	const answer = await api.json(`${base}?per_page=${LIST_SIZE}`);
	const list = Array.isArray(answer.body) ? answer.body.map(obj) : [];
	const lines = [`# Releases of ${target.owner}/${target.repo} (${list.length} newest)`];
	for (const r of list) lines.push("", ...release(r, "##"));
	return {
		title: `Releases of ${target.owner}/${target.repo}`,
		markdown: `${lines.join("\n")}\n`,
		finalUrl: answer.url,
	};
}

export const githubRelease: SourceReader = { name: "github-release", source: "github", match, read };
