// The one line under a fetched page's title that says what the page says of itself: its authors, when it was
// published and updated (a model judging recency needs both), its site, language and canonical URL when that is
// another. Page text: it is printed inside the untrusted block (runtime/format.ts), cleaned to one plain line.

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
	"author" | "authors" | "publishedAt" | "modifiedAt" | "siteName" | "language" | "canonicalUrl" | "url" | "finalUrl"
>;

/** `By A, B · published 2024-03-01 · updated 2024-05-02 · Site · en`; undefined when the page declares none of it. */
export function pageHeader(result: HeaderFacts): string | undefined {
	const parts: string[] = [];
	const names = (result.authors ?? (result.author ? [result.author] : [])).map(plain).filter(Boolean);
	if (names.length > 0) {
		const more = names.length - HEADER_DEFAULTS.authorsShown;
		const shown = names.slice(0, HEADER_DEFAULTS.authorsShown).join(", ");
		parts.push(`By ${shown}${more > 0 ? ` and ${more} more` : ""}`);
	}
	const day = (iso: string | undefined) => (iso && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : undefined);
	const published = day(result.publishedAt);
	const updated = day(result.modifiedAt);
	if (published) parts.push(`published ${published}`);
	if (updated && updated !== published) parts.push(`updated ${updated}`);
	for (const value of [result.siteName, result.language]) if (value && plain(value)) parts.push(plain(value));
	const canonical = result.canonicalUrl;
	if (canonical && canonical !== (result.finalUrl ?? result.url)) parts.push(`canonical ${plain(canonical)}`);
	return parts.length > 0 ? parts.join(" · ") : undefined;
}
