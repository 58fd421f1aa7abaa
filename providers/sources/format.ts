// Markdown pieces every reader writes the same way: a date, a one-line field, an item header a body cannot forge,
// a bounded body. Readers put API text (titles, comments, READMEs) into markdown with these.

import { withoutHtmlComments } from "../direct/markdown-comments.ts";
import { leanMarkdown } from "../direct/markdown-lean.ts";

/** A JSON object of an API answer, read field by field. */
export type Obj = Record<string, unknown>;

/** `value` when it is an object, else an empty one (an API may answer null or another shape). */
export const obj = (value: unknown): Obj => (typeof value === "object" && value !== null ? (value as Obj) : {});

/** The first group of `pattern`'s first match in `text`, or "" (the readers' fields out of a page's HTML). */
export const firstGroup = (text: string, pattern: RegExp): string => pattern.exec(text)?.[1] ?? "";

/** An API answer's body as text: "" when it was not read as text (a JSON answer, none). */
export const bodyText = (answer: { body?: unknown }): string => (typeof answer.body === "string" ? answer.body : "");

/** `{ name, version? }` from a package page path whose pattern captures the name and maybe the version. */
export function nameAndVersion(pattern: RegExp, path: string): Record<string, string> | undefined {
	const found = pattern.exec(path);
	if (!found) return undefined;
	return found[2] ? { name: found[1]!, version: found[2] } : { name: found[1]! };
}

/**
 * Longest body of one item (a comment, an answer, a README) kept, the rest cut with a note; a package's documentation
 * (pkg.go.dev, docs.rs) is cut at `maxDocChars`, and its HTML at `maxDocHtmlChars` before it is converted.
 */
export const READER_LIMITS = {
	maxItemChars: 30_000,
	maxFieldChars: 300,
	maxDocChars: 80_000,
	maxDocHtmlChars: 600_000,
};

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#34": '"' };

/** An HTML fragment's text on one line: tags dropped, the common entities decoded (a page's header field). */
export function textOf(html: string, maxChars = READER_LIMITS.maxFieldChars): string {
	const text = html
		.replace(/<[^>]*>/g, " ")
		.replace(/&(amp|lt|gt|quot|#39|#34);/g, (_, name: string) => ENTITIES[name]!);
	return oneLine(text, maxChars);
}

/** `2024-01-03 12:34 UTC` from an ISO date; the input as given when it is no date. */
export function dateTime(iso: unknown): string {
	if (typeof iso !== "string" || iso === "") return "unknown date";
	const time = Date.parse(iso);
	if (Number.isNaN(time)) return oneLine(iso);
	return `${new Date(time).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** `2024-01-03` from an ISO date. */
export function dateOnly(iso: unknown): string {
	if (typeof iso !== "string") return "?";
	const time = Date.parse(iso);
	return Number.isNaN(time) ? "?" : new Date(time).toISOString().slice(0, 10);
}

/**
 * The day each item of a list (a thread's comments, answers) is dated with in its header: its day when that differs
 * from the item's before, else "" (a thread of one day says it once); `undated` when some item went without. `above`:
 * the day of what the list follows (an issue's opening), said already.
 */
export function changedDays(dates: readonly unknown[], above?: unknown): { days: string[]; undated: boolean } {
	let last = above === undefined ? "" : dateOnly(above);
	let undated = false;
	const days = dates.map((at) => {
		const day = dateOnly(at);
		const same = day === last;
		undated ||= same;
		last = day;
		return same ? "" : day;
	});
	return { days, undated };
}

/** A field on one line, bounded (a title or label with newlines cannot start a heading of its own). */
export function oneLine(value: unknown, maxChars = READER_LIMITS.maxFieldChars): string {
	const flat = (typeof value === "string" ? value : value === undefined || value === null ? "" : String(value))
		.replace(/\s+/g, " ")
		.trim();
	return flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat;
}

/** A user name as the header shows it: only the characters a login may have. */
export function login(user: unknown): string {
	const name = typeof user === "object" && user !== null ? (user as { login?: unknown }).login : user;
	const safe = typeof name === "string" ? name.replace(/[^A-Za-z0-9_.[\]-]/g, "") : "";
	return safe === "" ? "ghost" : safe;
}

/**
 * The prefix of the headers readers give items (`### @bob · …`, `### score 12 · …`, `### Review · …`, and the numbered
 * ones they gave before, `### 2 · …`); a body line starting so is escaped. Narrow enough that a README's or a doc's
 * own headings (`## Scoring`, `## @scope/name usage`) stay as they are.
 */
const ITEM_HEADER =
	/^( {0,3})(#{1,6}[ \t]+(?:(?:Comment|Review|Answer|Question|Accepted)\b|\d+ ·|score -?\d+\b|@[\w.[\]-]+[ \t]*(?:·|$)))/gim;

/**
 * An item's body as markdown, bounded: a line that would read as one of our item headers is escaped (a comment
 * cannot pose as another's author), and a body longer than `maxChars` is cut with a note.
 */
export function itemBody(value: unknown, maxChars = READER_LIMITS.maxItemChars): string {
	const text = typeof value === "string" ? value.replace(/\r\n?/g, "\n").trim() : "";
	if (text === "") return "_(no text)_";
	const cut = text.length > maxChars ? `${text.slice(0, maxChars)}\n\n_(cut at ${maxChars} characters)_` : text;
	return cut.replace(ITEM_HEADER, "$1\\$2");
}

/** An issue form's field left unanswered: its heading over GitHub's `_No response_`. */
const UNANSWERED = /^#{1,6}[ \t][^\n]*\n+_No response_[ \t]*(?:\n+|$)/gm;

/**
 * A body written in markdown (a GitHub issue's, comment's or release's) as `itemBody` gives it, without its HTML
 * comments on lines of their own (an issue template's instructions, generated notes' markers, which GitHub does not
 * show either), an issue form's unanswered fields, and the noise leanMarkdown takes out.
 */
export function markdownBody(value: unknown): string {
	if (typeof value !== "string") return itemBody(value);
	const text = withoutHtmlComments(value.replace(/\r\n?/g, "\n")).replace(UNANSWERED, "");
	return itemBody(leanMarkdown(text));
}

/**
 * A site's HTML fragment without its `class`, `id` and `data-` attributes, for the page converter: a site's own names
 * ("comment", "example", "sidebar") would read as boilerplate to the converter's main-content heuristics, and a doc
 * heading's id made from its words (pkgsite's `hdr-Comments`) too.
 */
export function bareHtml(html: string): string {
	return html.replace(/\s(?:class|id|data-[\w-]+)="[^"]*"/g, "");
}

/** `"a", "b"` names of a list of `{ name }` objects or strings, on one line. */
export function names(list: unknown): string[] {
	if (!Array.isArray(list)) return [];
	return list
		.map((item) => oneLine(typeof item === "object" && item !== null ? (item as { name?: unknown }).name : item, 80))
		.filter((name) => name !== "");
}

/** One published version of a package. */
export interface VersionEntry {
	version: string;
	/** ISO date; undefined when the registry gives none. */
	date?: string;
	/** `yanked`, `deprecated`, … */
	note?: string;
}

/**
 * Every version, newest first, a paragraph per year that dates them by month and day (`2024: 1.2.3 01-02, 1.2.2 12-01
 * yanked`): the year said once, not on each of a long list, and a day after its version without parentheses (a
 * version has no spaces, so what follows it is its day and note). Undated versions keep their registry order after the
 * dated ones (`undated: …`).
 */
export function versionList(entries: readonly VersionEntry[]): string {
	const dated = entries.filter((e) => e.date !== undefined && !Number.isNaN(Date.parse(e.date)));
	const undated = entries.filter((e) => !dated.includes(e));
	dated.sort((a, b) => Date.parse(b.date!) - Date.parse(a.date!));
	const shown = (e: VersionEntry, day: string) => {
		const parts = [day, e.note ?? ""].filter((p) => p !== "");
		return [oneLine(e.version, 80), ...parts].join(" ");
	};
	const years: string[][] = [];
	let year = "";
	for (const e of dated) {
		const day = dateOnly(e.date);
		if (day.slice(0, 4) !== year) {
			year = day.slice(0, 4);
			years.push([`${year}:`]);
		}
		years.at(-1)!.push(shown(e, day.slice(5)));
	}
	const lines = years.map(([label, ...list]) => `${label} ${list.join(", ")}`);
	if (undated.length > 0) {
		const list = undated.map((e) => shown(e, "")).join(", ");
		lines.push(dated.length > 0 ? `undated: ${list}` : list);
	}
	return lines.join("\n\n");
}

/**
 * A package's version section: its heading with the count and the list. The days say the order, so the heading does
 * not (`order` says it where they cannot: a list without days).
 */
export function versionSection(entries: readonly VersionEntry[], order = ""): string[] {
	return ["", `## Versions (${entries.length}${order ? `, ${order}` : ""})`, "", versionList(entries) || "none"];
}

/** `key: value` lines for the facts that are present, each ending in a markdown line break. */
export function factLines(facts: ReadonlyArray<[string, unknown]>): string[] {
	return facts
		.map(([key, value]) => [key, oneLine(value)] as const)
		.filter(([, value]) => value !== "")
		.map(([key, value]) => `${key}: ${value}  `);
}

/** A repository field (`"github:a/b"`, `{ url: "git+https://…" }`) as a plain URL-ish string. */
export function repositoryUrl(value: unknown): string {
	const raw = typeof value === "string" ? value : (value as { url?: unknown } | null)?.url;
	if (typeof raw !== "string") return "";
	return raw
		.replace(/^git\+/, "")
		.replace(/\.git$/, "")
		.replace(/^git:\/\//, "https://");
}

/** A URL as the model reads it: `https://` and a closing slash left out (host and path say it); other schemes kept. */
export function shortUrl(value: unknown): string {
	return oneLine(value)
		.replace(/^https:\/\//i, "")
		.replace(/\/$/, "");
}

/**
 * A package's README as markdown, its opening title left out when it only repeats the package's `name`; `markdown`
 * false for one in another markup (reStructuredText's grid tables are drawn with their padding), kept as written.
 */
export function readmeBody(readme: unknown, name: string, markdown = true): string {
	const raw = typeof readme === "string" ? readme.replace(/\r\n?/g, "\n").trim() : "";
	const text = markdown ? leanMarkdown(raw) : raw;
	const title = /^#[ \t]+([^\n]*?)[ \t#]*(?:\n+|$)/.exec(text);
	const repeats = title !== null && title[1]!.trim().toLowerCase() === name.trim().toLowerCase();
	return itemBody(repeats ? text.slice(title[0].length) : text);
}

/** `text` in a code fence longer than any run of backticks inside it, so the text cannot close it early. */
export function fenced(text: string, language = ""): string {
	const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
	const fence = "`".repeat(longest + 1);
	return `${fence}${language}\n${text.replace(/\n$/, "")}\n${fence}`;
}
