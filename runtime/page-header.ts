// The one line under a fetched page's title that says what the page says of itself: its authors, when it was
// published and updated (a model judging recency needs both), its site, language and canonical URL, each only when
// the title line or the page's address does not say it already. Page text: printed inside the untrusted block
// (runtime/format.ts), cleaned to one plain line.

import type { FetchResult } from "../engine/result-types.ts";

const HEADER_DEFAULTS = { authorsShown: 5, valueChars: 120 };

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** A value as one short plain line: controls and bidi marks removed, whitespace collapsed, length capped. */
function plain(value: string): string {
	const text = value.replace(INVISIBLE, " ").replace(/\s+/g, " ").trim();
	return text.length > HEADER_DEFAULTS.valueChars ? `${text.slice(0, HEADER_DEFAULTS.valueChars - 1)}…` : text;
}

/** What the line is made of: a fetch result's metadata fields and where it was fetched. */
export type HeaderFacts = Pick<
	FetchResult,
	| "title"
	| "author"
	| "authors"
	| "publishedAt"
	| "modifiedAt"
	| "siteName"
	| "language"
	| "canonicalUrl"
	| "url"
	| "finalUrl"
>;

/** Letters and digits only, lower case: how a name is compared with the title and the host. */
const bare = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/** The host without `www.`, or undefined for an address that does not parse. */
function hostOf(address: string): string | undefined {
	try {
		return new URL(address).hostname.replace(/^www\./, "");
	} catch {
		return undefined;
	}
}

/** A name the host spells: the host itself (`futurezone.at`) or one of its labels (`ComputerBase`). */
function hostSays(name: string, host: string | undefined): boolean {
	if (!host || !name) return false;
	return name === bare(host) || host.split(".").some((label) => bare(label) === name);
}

/**
 * True when the canonical address names the page fetched: scheme, `www.`, a trailing slash, path parameters
 * (`;jsessionid=…`) and the fragment aside, and every query parameter it keeps also in the page's (tracking and
 * session parameters are what a canonical address drops).
 */
function samePage(canonical: string, page: string): boolean {
	try {
		const [a, b] = [new URL(canonical), new URL(page)];
		const path = (url: URL) => url.pathname.replace(/;[^/]*/g, "").replace(/\/+$/, "");
		if (hostOf(canonical) !== hostOf(page) || a.port !== b.port || path(a) !== path(b)) return false;
		return [...a.searchParams].every(([key, value]) => b.searchParams.getAll(key).includes(value));
	} catch {
		return canonical === page;
	}
}

/** `de-DE` says no more than `de`; other regions (`de-AT`, `en-US`) are kept. */
function language(tag: string): string {
	const [lang, region, ...rest] = tag.split("-");
	return rest.length === 0 && lang && region?.toLowerCase() === lang.toLowerCase() ? lang.toLowerCase() : tag;
}

/**
 * `By A, B · 2024-03-01, updated 2024-05-02 · Site · en`: the first date is the day published (said bare, as a byline
 * dates a page); undefined when the page declares none of it.
 */
export function pageHeader(result: HeaderFacts): string | undefined {
	const parts: string[] = [];
	const address = result.finalUrl ?? result.url;
	const host = hostOf(address);
	const site = result.siteName ? plain(result.siteName) : "";
	// An organisation named as the author is the site, not a person: said by the site name or the host.
	const names = (result.authors ?? (result.author ? [result.author] : []))
		.map(plain)
		.filter((name) => name && bare(name) !== bare(site) && !hostSays(bare(name), host));
	if (names.length > 0) {
		const more = names.length - HEADER_DEFAULTS.authorsShown;
		const shown = names.slice(0, HEADER_DEFAULTS.authorsShown).join(", ");
		parts.push(`By ${shown}${more > 0 ? ` and ${more} more` : ""}`);
	}
	const day = (iso: string | undefined) => (iso && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : undefined);
	const published = day(result.publishedAt);
	const updated = day(result.modifiedAt);
	const update = updated && updated !== published ? `updated ${updated}` : undefined;
	if (published || update) parts.push(published && update ? `${published}, ${update}` : (published ?? update)!);
	const title = bare(result.title ?? "");
	if (site && !title.includes(bare(site)) && !hostSays(bare(site), host)) parts.push(site);
	const lang = result.language ? plain(result.language) : "";
	if (lang) parts.push(language(lang));
	const canonical = result.canonicalUrl;
	if (canonical && !samePage(canonical, address)) parts.push(`canonical ${plain(canonical)}`);
	return parts.length > 0 ? parts.join(" · ") : undefined;
}
