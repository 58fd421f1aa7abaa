// arXiv abstract pages (`arxiv.org/abs/<id>`) through the arXiv API: title, authors, dates,
// categories, comment and abstract from the Atom answer of `/api/query?id_list=`, then the paper's text (its PDF read
// as the fetcher reads one). Both are asked at once; a paper whose PDF cannot be read keeps its metadata.

import type { ReaderOutput, ReaderTarget, SourceApi, SourceReader } from "./contract.ts";
import { bodyText, dateTime, itemBody, oneLine } from "./format.ts";

/** New-style ids (2401.01234, v2) and old-style ones (hep-th/9901001). */
const PATH = /^\/abs\/((?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?\/\d{7})(?:v\d+)?)\/?$/;

function match(url: URL): ReaderTarget | undefined {
	const found = PATH.exec(url.pathname);
	return found ? { id: found[1]! } : undefined;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** The text of the first `<tag>` in `xml` (entities decoded), or "". */
function tagText(xml: string, tag: string): string {
	const found = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(xml);
	return found ? found[1]!.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name]!).trim() : "";
}

/** Every `term` of the `<tag term="…">` elements. */
function terms(xml: string, tag: string): string[] {
	return [...xml.matchAll(new RegExp(`<${tag}\\b[^>]*\\bterm="([^"]*)"`, "g"))].map((m) => oneLine(m[1], 40));
}

async function read(target: ReaderTarget, api: SourceApi): Promise<ReaderOutput> {
	const id = target.id ?? "";
	const [feed, paper] = await Promise.all([
		api.text(`/api/query?id_list=${encodeURIComponent(id)}`, "application/atom+xml"),
		api.page(`/pdf/${id}`, "application/pdf").then(bodyText, () => ""),
	]);
	const xml = String(feed.body);
	const entry = /<entry>([\s\S]*?)<\/entry>/.exec(xml)?.[1];
	const title = entry ? oneLine(tagText(entry, "title"), 500) : "";
	// The API answers an unknown id with an entry titled "Error" (or none): that is no paper.
	if (!entry || title === "" || title === "Error") throw new TypeError(`no arXiv entry for ${id}`);
	const authors = [...entry.matchAll(/<author>([\s\S]*?)<\/author>/g)].map((a) => oneLine(tagText(a[1]!, "name"), 100));
	const published = tagText(entry, "published");
	const lines = [
		`# ${title}`,
		"",
		`arXiv:${id} · ${authors.join(", ")}  `,
		`Submitted ${dateTime(published)} · updated ${dateTime(tagText(entry, "updated"))}  `,
		`Categories: ${terms(entry, "category").join(", ")}  `,
	];
	const comment = oneLine(tagText(entry, "arxiv:comment"), 500);
	if (comment) lines.push(`Comment: ${comment}  `);
	const doi = oneLine(tagText(entry, "arxiv:doi"), 200);
	if (doi) lines.push(`DOI: ${doi}  `);
	lines.push("", "## Abstract", "", itemBody(oneLine(tagText(entry, "summary"), 10_000)));
	lines.push("", "## Paper", "", paper.trim() !== "" ? itemBody(paper, 400_000) : "_(the PDF could not be read)_");
	const output: ReaderOutput = { title, markdown: `${lines.join("\n")}\n`, finalUrl: feed.url };
	if (authors[0]) output.author = authors.join(", ");
	if (published) output.publishedAt = published;
	return output;
}

export const arxivPaper: SourceReader = { name: "arxiv-paper", source: "arxiv", match, read };
