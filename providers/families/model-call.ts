// What a model-family call sends, shared by the OpenAI / Anthropic / xAI / Gemini families: the model id and base
// URL of a call, the user location option, the search and fetch prompts, and the "a model wrote this" warning.
// Pure: no I/O. Site patterns become tool hosts in providers/params/filters.ts; recency words come from engine/recency.ts.

import { WebAccessError } from "../../engine/errors.ts";
import { recencyWords } from "../../engine/recency.ts";
import type { SearchRequest } from "../../engine/request-types.ts";
import type { CallContext } from "../contract.ts";
import { asRecord, asString } from "../http/json.ts";

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
