// crates.io pages (`crates.io/crates/<name>`, `/<version>`) through its API: latest version, every version with its
// date (yanked marked), license, repository, documentation and the README, which the API serves rendered (an HTML
// fragment, converted as one). The README needs the version the first answer names unless the URL names one: then
// both go at once.

import type { ReaderOutput, ReaderTarget, SourceApi, SourceReader } from "./contract.ts";
import { bodyText, factLines, nameAndVersion, obj, oneLine, readmeBody, shortUrl, versionSection } from "./format.ts";

const PATH = /^\/crates\/([A-Za-z0-9_-]+)(?:\/([^/]+))?\/?$/;

function match(url: URL): ReaderTarget | undefined {
	return nameAndVersion(PATH, url.pathname);
}

async function readme(api: SourceApi, name: string, version: string): Promise<string> {
	// A crate without a README answers 403 or 404: the rest of the page still stands.
	try {
		const answer = await api.text(`/api/v1/crates/${name}/${encodeURIComponent(version)}/readme`, "text/html");
		const html = bodyText(answer);
		// A fragment, not a page: read as a whole page, the article reading kept only its code block, flattened.
		return html.trim() === "" ? "" : await api.markdown(html);
	} catch {
		return "";
	}
}

async function read(target: ReaderTarget, api: SourceApi): Promise<ReaderOutput> {
	const name = encodeURIComponent(target.name ?? "");
	const early = target.version ? readme(api, name, target.version) : undefined;
	const answer = await api.json(`/api/v1/crates/${name}`);
	const doc = obj(answer.body);
	const crate = obj(doc.crate);
	const versions = Array.isArray(doc.versions) ? doc.versions.map(obj) : [];
	const latest = oneLine(crate.max_stable_version ?? crate.max_version ?? crate.newest_version);
	const shown = target.version ?? latest;
	const version = versions.find((v) => v.num === shown) ?? {};
	const text = await (early ?? (shown ? readme(api, name, shown) : Promise.resolve("")));
	const title = oneLine(crate.name) || target.name;
	const lines = [`# ${title}${target.version ? ` ${oneLine(target.version)}` : ""}`, ""];
	if (typeof crate.description === "string") lines.push(oneLine(crate.description, 1000), "");
	lines.push(
		...factLines([
			// Its day is in the version list.
			["Latest", latest],
			["License", version.license],
			["Rust version", version.rust_version],
			["Repository", shortUrl(crate.repository)],
			["Documentation", shortUrl(crate.documentation)],
			["Homepage", shortUrl(crate.homepage)],
			["Downloads", crate.downloads],
			["Keywords", Array.isArray(crate.keywords) ? crate.keywords.join(", ") : ""],
		]),
	);
	const entries = versions.map((v) => ({
		version: String(v.num ?? "?"),
		...(typeof v.created_at === "string" ? { date: v.created_at } : {}),
		...(v.yanked === true ? { note: "yanked" } : {}),
	}));
	lines.push(...versionSection(entries));
	lines.push("", "## README", "", text ? readmeBody(text, title ?? "") : "_(no README)_");
	const output: ReaderOutput = { title, markdown: `${lines.join("\n")}\n`, finalUrl: answer.url };
	if (typeof crate.updated_at === "string") output.publishedAt = crate.updated_at;
	return output;
}

export const cratesCrate: SourceReader = { name: "crates-crate", source: "crates", match, read };
