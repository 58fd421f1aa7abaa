// Pieces the model-mediated families (OpenAI / Anthropic / xAI / Gemini) share: the prompts, the model and base URL
// of a call, citation snippets, URL cleaning, dates, and the "a model wrote this" warning. Pure: no I/O. Site
// patterns become tool hosts in providers/params/filters.ts; recency words come from engine/recency.ts.

import { WebAccessError } from "../../engine/errors.ts";
import { recencyWords } from "../../engine/recency.ts";
import type { SearchRequest } from "../../engine/request-types.ts";
import type { SearchResultItem } from "../../engine/result-types.ts";
import type { CallContext } from "../contract.ts";
import { asRecord, asString } from "../http/json.ts";

export const MODEL_PROMPT_DEFAULTS = {
	/** Longest snippet cut from an answer around a citation. */
	snippetChars: 300,
};

/** The `userLocation` option as the tools take it: `{ type: "approximate", … }`, or undefined when unset/empty. */
export function userLocation(options: Readonly<Record<string, unknown>>): Record<string, string> | undefined {
	const raw = asRecord(options.userLocation);
	if (raw === undefined) return undefined;
	const location: Record<string, string> = { type: "approximate" };
	for (const field of ["city", "region", "country", "timezone"]) {
		const value = asString(raw[field]);
		if (value !== undefined && value !== "") location[field] = field === "country" ? value.toUpperCase() : value;
	}
	return Object.keys(location).length > 1 ? location : undefined;
}

/** The model id of a call: the config's `model`, else the type's default; a config error when neither exists. */
export function configuredModel(call: CallContext, fallback: string | undefined): string {
	const model = call.config.model ?? fallback;
	if (model === undefined || model === "") {
		throw new WebAccessError(`provider "${call.config.name}" has no model configured`, {
			kind: "config",
			code: "no-model",
			provider: call.config.name,
		});
	}
	return model;
}

/** Base URL of a call (config → pi provider → type default), without a trailing slash; a config error when none. */
export function modelBaseUrl(call: CallContext, fallback: string | undefined): string {
	const base = (call.config.baseUrl ?? call.piAuth?.baseUrl ?? fallback ?? "").replace(/\/+$/, "");
	if (base === "") {
		throw new WebAccessError(
			`provider "${call.config.name}" has no base URL: set baseUrl or a pi provider that has one`,
			{
				kind: "config",
				code: "no-base-url",
				provider: call.config.name,
			},
		);
	}
	return base;
}

/** Warning for fetch results a model wrote (extraction "model"). */
export function modelRenditionWarning(model: string): string {
	return `extraction: model — the text is ${model}'s rendition of the page, not the page's own text; it may be shortened or paraphrased`;
}

/** The user message for a search: the query plus how to answer (no tool-specific wording). */
export function searchPrompt(request: SearchRequest, where = "the web"): string {
	const lines = [
		`Search ${where} for: ${request.query}`,
		`Then answer briefly from what you found and cite every source you use as a markdown link. Use up to ${request.maxResults} relevant sources.`,
	];
	if (request.recency !== undefined) lines.push(`Prefer pages published ${recencyWords(request.recency)}.`);
	return lines.join("\n");
}

/** The user message for a model-written fetch. */
export function fetchPrompt(url: string, toolHint = "the web search tool"): string {
	return [
		`Open this page with ${toolHint}: ${url}`,
		"Then write out the page's main text in full as markdown, as close to verbatim as you can: keep headings, lists, code and tables; leave out navigation, ads and footers.",
		"Reply with the page text only, without any comment of your own. If the page cannot be opened, say so in one sentence.",
	].join("\n");
}

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
