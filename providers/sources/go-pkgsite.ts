// What the Go package reader (providers/sources/go.ts) takes from pkgsite's pages (pkg.go.dev has no JSON API): the
// unit header's facts, the documentation section as an HTML fragment without its index and empty sections (a
// one-line declaration standing as its item's heading), and the versions tab's versions with their dates. Pure:
// regular expressions on pkgsite's documented page structure.

import { firstGroup, READER_LIMITS, textOf, type VersionEntry } from "./format.ts";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `2022-05-27` from pkgsite's `May 27, 2022`, or undefined. Never the machine's time zone. */
export function pkgsiteDate(text: string): string | undefined {
	const found = /\b([A-Z][a-z]{2}) (\d{1,2}), (\d{4})\b/.exec(text);
	const month = found ? MONTHS.indexOf(found[1]!) : -1;
	if (!found || month < 0) return undefined;
	return new Date(Date.UTC(Number(found[3]), month, Number(found[2]))).toISOString().slice(0, 10);
}

/** The unit header's facts: the title, version, publish date, licenses, repository, import counts, banners. */
export interface UnitFacts {
	title: string;
	version: string;
	published?: string;
	license: string;
	repository: string;
	imports: string;
	importedBy: string;
	/** `Deprecated: …` or `Retracted: …` when the page says so. */
	warning: string;
}

export function unitFacts(html: string): UnitFacts {
	const published = firstGroup(html, /data-test-id="UnitHeader-commitTime"[^>]*>([\s\S]{0,200}?)<\/span>/);
	const licenses = firstGroup(html, /data-test-id="UnitHeader-licenses"[^>]*>([\s\S]{0,2000}?)<\/span>\s*<div/);
	const banner =
		/go-Message--warning[^>]*>[\s\S]{0,600}?<strong>(Deprecated|Retracted)<\/strong>([\s\S]{0,600}?)<\/div>/.exec(html);
	const facts: UnitFacts = {
		title: textOf(firstGroup(html, /<h1 class="UnitHeader-titleHeading"[^>]*>([\s\S]{0,400}?)<\/h1>/)),
		version: textOf(firstGroup(html, /aria-label="Version: ([^"]{1,120})"/), 120),
		license: textOf(licenses)
			.replace(/^License:\s*/, "")
			.replace(/\s*not legal advice$/, ""),
		repository: textOf(firstGroup(html, /<div class="UnitMeta-repo">\s*<a href="([^"]{1,500})"/), 500),
		imports: firstGroup(html, /aria-label="Imports: ([\d,]{1,12})"/),
		importedBy: firstGroup(html, /aria-label="Imported By: ([\d,]{1,12})"/),
		warning: banner ? `${banner[1]}${textOf(banner[2]!, 500).replace(/^:\s*/, ": ")}` : "",
	};
	const date = pkgsiteDate(textOf(published));
	if (date) facts.published = date;
	return facts;
}

/** Where the documentation section ends: the next part of the unit page, or its main element's end. */
const DOC_END = /class="UnitFiles|id="section-sourcefiles"|class="UnitDirectories|id="section-directories"|<\/main>/;

/**
 * The documentation section as HTML for the page converter: the overview, constants, variables, functions and
 * types with their declarations and doc comments. Left out: the index (every name again), the examples list, sections
 * that say they are empty, the ¶ anchors; source links keep their text. Empty when the page has no such section.
 */
export function docFragment(html: string): string {
	const start = html.indexOf('class="Documentation-content');
	if (start < 0) return "";
	const tagStart = html.lastIndexOf("<", start);
	const rest = html.slice(tagStart);
	const end = DOC_END.exec(rest.slice(1))?.index;
	return rest
		.slice(0, end === undefined ? undefined : end + 1)
		.slice(0, READER_LIMITS.maxDocHtmlChars)
		.replace(/<section class="Documentation-(?:index|examples)">[\s\S]*?<\/section>/g, "")
		.replace(
			/<h3[^>]*>[^<]*<a[^>]*>¶<\/a><\/h3>\s*<section class="Documentation-\w+">\s*<p class="Documentation-empty">[^<]*<\/p>\s*<\/section>/g,
			"",
		)
		.replace(/<a[^>]*>¶<\/a>/g, "")
		.replace(/<a class="Documentation-source"[^>]*>([\s\S]*?)<\/a>/g, "$1")
		.replace(DECLARED, (_, heading: string, declaration: string) => {
			const since = /Documentation-sinceVersion"[^>]*>([^<]{1,80})</.exec(heading)?.[1]?.trim();
			return `<h4><code>${declaration.replace(/<\/?a\b[^>]*>/g, "")}</code>${since ? ` ${since}` : ""}</h4>`;
		});
}

/**
 * An item's heading (`func Tokenize`) followed by a declaration of one line: the heading only names what the
 * declaration says, so the declaration becomes the heading (its "added in" note kept). Longer ones stay blocks.
 */
const DECLARED =
	/<h4\b[^>]*>((?:(?!<\/h4>)[\s\S]){0,3000})<\/h4>\s*<div class="Documentation-declaration"><pre>((?:(?!<\/pre>)[^\n]){1,3000})<\/pre><\/div>/g;

/** Every version the versions tab lists, with its date and a retraction marked, in the page's order. */
export function tabVersions(html: string): VersionEntry[] {
	const links = [...html.matchAll(/class="js-versionLink"[^>]*>\s*([^<\s]{1,120})\s*<\/a>/g)];
	return links.map((link, i) => {
		const after = html.slice(link.index! + link[0].length, links[i + 1]?.index ?? link.index! + 4000);
		const date = pkgsiteDate(textOf(after.slice(0, 2000), 2000));
		const retracted = /go-Chip[^>]*>\s*retracted\s*</.test(after);
		return { version: link[1]!, ...(date ? { date } : {}), ...(retracted ? { note: "retracted" } : {}) };
	});
}
