// Reading a model's answer, shared by the model families: citations collected as results (ResultList), URLs
// without tracking parameters, the sentence a citation supports as its snippet, and calendar dates. Pure: no I/O.

import type { SearchResultItem } from "../../engine/result-types.ts";

export const MODEL_PROMPT_DEFAULTS = {
	/** Longest snippet cut from an answer around a citation. */
	snippetChars: 300,
};

/** The URL without tracking parameters (`utm_*`, e.g. OpenAI's `?utm_source=openai`) and fragment. */
export function cleanUrl(url: string): string {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return url;
	}
	for (const name of [...parsed.searchParams.keys()]) if (/^utm_/i.test(name)) parsed.searchParams.delete(name);
	parsed.hash = "";
	return parsed.toString();
}

/** Hostname of a URL, or the URL itself when it does not parse (used as a fallback title). */
export function hostOf(url: string): string {
	try {
		return new URL(url).hostname;
	} catch {
		return url;
	}
}

/** Markdown links `[label](url)` reduced to their label; citation markers `[[1]](url)` removed. */
export function stripLinks(text: string): string {
	return text
		.replace(/\s*\[\[\d+\]\]\([^)]*\)/g, "")
		.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
		.replace(/\s+/g, " ")
		.trim();
}

/** The sentence of `text` that ends where a citation starts (at `index`), links removed. */
export function sentenceBefore(text: string, index: number): string {
	const head = text.slice(0, Math.max(0, Math.min(index, text.length)));
	const boundary = Math.max(
		head.lastIndexOf(". "),
		head.lastIndexOf("\n"),
		head.lastIndexOf("? "),
		head.lastIndexOf("! "),
	);
	let sentence = stripLinks(head.slice(boundary + 1)).replace(/[\s(]+$/, "");
	if (sentence.length > MODEL_PROMPT_DEFAULTS.snippetChars) {
		sentence = `…${sentence.slice(sentence.length - MODEL_PROMPT_DEFAULTS.snippetChars)}`;
	}
	return sentence;
}

/** YYYY-MM-DD of a date written out in full ("March 2, 2026", "2026-03-02"); relative ages give undefined. */
export function calendarDate(value: unknown): string | undefined {
	if (typeof value !== "string" || !/\b\d{4}\b/.test(value)) return undefined;
	const iso = /^(\d{4}-\d{2}-\d{2})/.exec(value.trim());
	if (iso) return iso[1];
	const parsed = new Date(value);
	if (Number.isNaN(parsed.getTime())) return undefined;
	// Date-only text parses as local midnight: read the local calendar fields, not the UTC ones.
	const pad = (n: number) => String(n).padStart(2, "0");
	return `${parsed.getFullYear()}-${pad(parsed.getMonth() + 1)}-${pad(parsed.getDate())}`;
}

/** Collects results by cleaned URL: the first sighting fixes the order, later ones fill in title and snippet. */
export class ResultList {
	readonly #items = new Map<string, SearchResultItem>();

	add(item: SearchResultItem): void {
		const url = cleanUrl(item.url);
		const known = this.#items.get(url);
		if (known === undefined) {
			this.#items.set(url, { ...item, url });
			return;
		}
		if (known.title === hostOf(url) && item.title !== hostOf(url)) known.title = item.title;
		if (item.snippet !== "" && !known.snippet.includes(item.snippet)) {
			known.snippet = known.snippet === "" ? item.snippet : `${known.snippet} … ${item.snippet}`;
		}
		if (known.publishedAt === undefined && item.publishedAt !== undefined) known.publishedAt = item.publishedAt;
	}

	items(): SearchResultItem[] {
		return [...this.#items.values()];
	}
}
