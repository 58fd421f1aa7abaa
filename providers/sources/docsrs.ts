// docs.rs crate pages (`docs.rs/<crate>`, `/<version>`, the rustdoc root `/<crate>/<version>/<lib>/`, the crate page
// `/crate/<crate>/<version>`) through the crate's rustdoc root page, one request: name and version (docs.rs's crate
// metadata), description, license, repository, the crate-level docs and the item list. docs.rs's rustdoc JSON is not
// used: it exists only for releases built since mid-2025, comes compressed, changes format with rustdoc, and holds the
// whole item graph (megabytes for a large crate) where the root page holds the crate docs and its item list.

import type { ReaderOutput, ReaderTarget, SourceApi, SourceReader } from "./contract.ts";
import {
	bareHtml,
	bodyText,
	factLines,
	firstGroup,
	itemBody,
	obj,
	oneLine,
	READER_LIMITS,
	shortUrl,
	textOf,
} from "./format.ts";

const PATH =
	/^\/(crate\/)?([A-Za-z0-9_-]{1,64})(?:\/([^/]{1,64})(?:\/([A-Za-z0-9_]{1,64})(?:\/(?:index\.html)?)?)?)?\/?$/;
/** docs.rs's own pages, not crates. */
const SITE_PAGES = new Set(["about", "releases", "crate", "search", "-"]);
const ITEM_KINDS = "mod|struct|enum|trait|fn|macro|type|constant|static|union|attr|derive|primitive|traitalias|keyword";

function match(url: URL): ReaderTarget | undefined {
	const found = PATH.exec(url.pathname);
	if (!found || SITE_PAGES.has(found[2]!.toLowerCase())) return undefined;
	const [, crate, name, version, lib] = found;
	// `/crate/<name>/<version>` names no rustdoc root; a lib segment only follows a version.
	if (crate && lib) return undefined;
	return { name: name!, version: version ?? "latest", lib: lib ?? name!.replace(/-/g, "_") };
}

/**
 * The rustdoc page's main content as HTML for the page converter: the crate-level docs and the item list, without
 * rustdoc's heading (the title says it), buttons, "Expand description", source links and § anchors; item names keep
 * their text without their links (the section heading says their kind).
 */
export function rustdocFragment(html: string): string {
	const start = html.indexOf('<section id="main-content"');
	if (start < 0) return "";
	const end = html.indexOf("</section>", start);
	return html
		.slice(start, end < 0 ? undefined : end)
		.slice(0, READER_LIMITS.maxDocHtmlChars)
		.replace(/<div class="main-heading">[\s\S]*?<\/h1>/, "")
		.replace(/<(button|rustdoc-toolbar|summary)\b[^>]*>[\s\S]*?<\/\1>/g, "")
		.replace(/<a class="src"[^>]*>[\s\S]*?<\/a>/g, "")
		.replace(/<a\b[^>]*>§<\/a>/g, "")
		.replace(new RegExp(`<a class="(?:${ITEM_KINDS})"[^>]*>([\\s\\S]*?)<\\/a>`, "g"), "$1");
}

async function read(target: ReaderTarget, api: SourceApi): Promise<ReaderOutput> {
	const answer = await api.text(
		`/${target.name}/${encodeURIComponent(target.version ?? "latest")}/${target.lib}/`,
		"text/html",
	);
	const html = bodyText(answer);
	const fragment = rustdocFragment(html);
	// A page without rustdoc's main content (a failed build's notice, a mirror's error page) is no crate's docs.
	if (fragment === "") throw new TypeError(`no rustdoc content for ${target.name} ${target.version}`);
	let metadata: Record<string, unknown> = {};
	try {
		metadata = obj(
			JSON.parse(firstGroup(html, /<script id="crate-metadata" type="application\/json">([\s\S]{0,2000}?)<\/script>/)),
		);
	} catch {
		// Older docs.rs pages carry no metadata script: the URL's name and version stand.
	}
	const name = oneLine(metadata.name, 64) || target.name!;
	const version = oneLine(metadata.version, 64) || target.version!;
	const description = textOf(firstGroup(html, /class="pure-menu-link crate-name" title="([^"]{1,1000})"/), 1000);
	const license = textOf(
		firstGroup(html, /<span class="pure-menu-text description">([\s\S]{0,4000}?)<\/span>\s*<\/li>/),
		200,
	);
	const repository = firstGroup(
		html,
		/<a href="(https?:\/\/[^"]{1,500})" class="pure-menu-link">(?:(?!<\/a>)[\s\S]){0,4000}?Repository\s*<\/a>/,
	);
	const docs = await api.markdown(bareHtml(fragment));
	const lines = [`# ${name} ${version}`, ""];
	// Cargo's description is often the docs' first line: said once.
	if (description && !docs.includes(description)) lines.push(description, "");
	lines.push(
		...factLines([
			["License", license],
			["Repository", shortUrl(repository)],
			["Yanked", /This release has been yanked/.test(html) ? "yes" : ""],
		]),
	);
	lines.push("", "## Documentation", "", docs.trim() ? itemBody(docs, READER_LIMITS.maxDocChars) : "_(none)_");
	return { title: `${name} ${version}`, markdown: `${lines.join("\n")}\n`, finalUrl: answer.url };
}

export const docsrsCrate: SourceReader = { name: "docsrs-crate", source: "docsrs", match, read };
