// PyPI project pages (`pypi.org/project/<name>/`, `/<version>/`) through the JSON API: latest version, every version
// with its upload date (yanked marked), license, Python requirement, project URLs and the README. One round trip
// (the named version's document beside the project's when the URL names one).

import type { ReaderOutput, ReaderTarget, SourceApi, SourceReader } from "./contract.ts";
import { factLines, nameAndVersion, obj, oneLine, readmeBody, shortUrl, versionSection } from "./format.ts";

const PATH = /^\/project\/([A-Za-z0-9._-]+)(?:\/([^/]+))?\/?$/;

function match(url: URL): ReaderTarget | undefined {
	return nameAndVersion(PATH, url.pathname);
}

async function read(target: ReaderTarget, api: SourceApi): Promise<ReaderOutput> {
	const name = encodeURIComponent(target.name ?? "");
	const [project, release] = await Promise.all([
		api.json(`/pypi/${name}/json`),
		target.version ? api.json(`/pypi/${name}/${encodeURIComponent(target.version)}/json`) : undefined,
	]);
	const doc = obj(project.body);
	const info = obj(obj(release?.body ?? project.body).info);
	const latest = oneLine(obj(doc.info).version);
	const title = oneLine(info.name) || target.name;
	const lines = [`# ${title}${target.version ? ` ${oneLine(target.version)}` : ""}`, ""];
	if (typeof info.summary === "string" && info.summary.trim() !== "") lines.push(oneLine(info.summary, 1000), "");
	const urls = Object.entries(obj(info.project_urls)).map(([label, url]) => `${oneLine(label, 40)} ${shortUrl(url)}`);
	const releases = obj(doc.releases);
	const uploaded = (version: string): string | undefined => {
		const files = releases[version];
		const first = Array.isArray(files) ? obj(files[0]) : {};
		return typeof first.upload_time_iso_8601 === "string" ? first.upload_time_iso_8601 : undefined;
	};
	const latestDate = uploaded(latest);
	lines.push(
		...factLines([
			// Its day is in the version list.
			["Latest", latest],
			["License", info.license_expression ?? info.license],
			["Requires Python", info.requires_python],
			// The author is left out: no fact a coder reads a package page for.
			["Homepage", shortUrl(info.home_page)],
			["Project URLs", urls.join(", ")],
			["Requires", Array.isArray(info.requires_dist) ? info.requires_dist.map((d) => oneLine(d, 120)).join(", ") : ""],
		]),
	);
	const entries = Object.entries(releases).map(([version, files]) => {
		const list = Array.isArray(files) ? files.map(obj) : [];
		const date = uploaded(version);
		const yanked = list.length > 0 && list.every((file) => file.yanked === true);
		return { version, ...(date ? { date } : {}), ...(yanked ? { note: "yanked" } : {}) };
	});
	lines.push(...versionSection(entries));
	// A description in reStructuredText (PyPI's default when none is declared) is kept as written.
	const markdown = /markdown/i.test(oneLine(info.description_content_type));
	lines.push("", "## README", "", readmeBody(info.description, title ?? "", markdown));
	const output: ReaderOutput = { title, markdown: `${lines.join("\n")}\n`, finalUrl: (release ?? project).url };
	if (latestDate) output.publishedAt = latestDate;
	return output;
}

export const pypiProject: SourceReader = { name: "pypi-project", source: "pypi", match, read };
