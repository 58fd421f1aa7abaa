// npm package pages (`npmjs.com/package/<name>`, `/v/<version>`) through the registry's packument: latest version,
// every version with its date, license, repository, dependencies of the version shown, and the README. One request.

import type { ReaderOutput, ReaderTarget, SourceApi, SourceReader } from "./contract.ts";
import {
	factLines,
	nameAndVersion,
	obj,
	oneLine,
	readmeBody,
	repositoryUrl,
	shortUrl,
	versionSection,
} from "./format.ts";

const NAME = "(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9._~-][a-z0-9._~-]*";
const PATH = new RegExp(`^/package/(${NAME})(?:/v/([^/]+))?/?$`, "i");

function match(url: URL): ReaderTarget | undefined {
	return nameAndVersion(PATH, decodeURIComponent(url.pathname));
}

async function read(target: ReaderTarget, api: SourceApi): Promise<ReaderOutput> {
	// A scoped name keeps its "@" and has its "/" encoded, as the registry documents.
	const answer = await api.json(`/${(target.name ?? "").replace("/", "%2F")}`);
	const doc = obj(answer.body);
	const tags = obj(doc["dist-tags"]);
	const times = obj(doc.time);
	const versions = obj(doc.versions);
	const latest = typeof tags.latest === "string" ? tags.latest : undefined;
	const shown = target.version ?? latest;
	const manifest = obj(shown ? versions[shown] : undefined);
	const name = oneLine(doc.name) || target.name;
	const lines = [`# ${name}${shown && shown !== latest ? `@${oneLine(shown)}` : ""}`, ""];
	if (typeof doc.description === "string") lines.push(oneLine(doc.description, 1000), "");
	const tagText = Object.entries(tags)
		.map(([tag, version]) => `${oneLine(tag, 40)} ${oneLine(version, 80)}`)
		.join(", ");
	const repository = shortUrl(repositoryUrl(manifest.repository ?? doc.repository));
	// npm's default homepage is the repository's README: that one is said by the Repository line.
	const homepage = shortUrl(doc.homepage);
	lines.push(
		...factLines([
			// Its day is in the version list.
			["Latest", latest],
			// Latest alone is said by the line above.
			["Dist-tags", Object.keys(tags).some((tag) => tag !== "latest") ? tagText : ""],
			["License", manifest.license ?? doc.license],
			["Repository", repository],
			["Homepage", homepage.replace(/#readme$/i, "") === repository ? "" : homepage],
			["Deprecated", manifest.deprecated],
			["Keywords", Array.isArray(doc.keywords) ? doc.keywords.join(", ") : ""],
			// The maintainers (the accounts that may publish) are left out: no fact a coder reads a package page for.
		]),
	);
	const deps = Object.entries(obj(manifest.dependencies)).map(
		([dep, range]) => `${oneLine(dep, 100)} ${oneLine(range, 60)}`,
	);
	if (shown && manifest.version !== undefined) {
		lines.push(
			"",
			`## Dependencies of ${oneLine(shown)} (${deps.length})`,
			"",
			deps.length > 0 ? deps.join(", ") : "none",
		);
	}
	const entries = Object.entries(versions).map(([version, raw]) => {
		const deprecated = obj(raw).deprecated;
		return {
			version,
			...(typeof times[version] === "string" ? { date: times[version] as string } : {}),
			...(deprecated ? { note: "deprecated" } : {}),
		};
	});
	lines.push(...versionSection(entries));
	const readme = typeof doc.readme === "string" && doc.readme.trim() !== "" ? doc.readme : manifest.readme;
	lines.push(
		"",
		"## README",
		"",
		typeof readme === "string" && readme.trim() !== ""
			? readmeBody(readme, name ?? "")
			: "_(no README in the registry)_",
	);
	const output: ReaderOutput = { title: name, markdown: `${lines.join("\n")}\n`, finalUrl: answer.url };
	if (typeof times.modified === "string") output.publishedAt = times.modified;
	return output;
}

export const npmPackage: SourceReader = { name: "npm-package", source: "npm", match, read };
