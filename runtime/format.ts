// The compact markdown the model sees (and the CLI prints): numbered results or the page text, the answer,
// one line per warning, a one-line trace only after a fallback, and a hard cap that says how to get the rest.

import { OUTPUT_DEFAULTS } from "../engine/limits.ts";
import type { WebRequest } from "../engine/request-types.ts";
import type { Attempt, ExtractedAs, FetchResult, SearchResult } from "../engine/result-types.ts";
import { thousands } from "../engine/thousands.ts";
import { pageHeader } from "./page-header.ts";
import { closeUntrusted, UNTRUSTED_END, wrapUntrusted } from "./untrusted.ts";

/** How to get more, in the reader's own terms: the model calls a tool, a person runs the CLI with flags. */
export interface Continuation {
	/** "call web_fetch again with offset 4000" / "run it again with --offset 4000" */
	next(offset: number): string;
	/** For an over-long output: "call web_fetch with a smaller maxChars or offset N" / "--max-chars …". */
	smaller(offset?: number): string;
	/** For an over-long search output. */
	fewer: string;
}

export function toolTerms(fetchTool = "web_fetch"): Continuation {
	return {
		next: (offset) => `call ${fetchTool} again with offset ${offset}`,
		smaller: (offset) =>
			`call ${fetchTool} with a smaller maxChars${offset !== undefined ? ` or offset ${offset}` : ""} for the rest`,
		fewer: "ask for fewer results or leave includeContent off",
	};
}

/** The CLI's own flags (`pi-web-access fetch <url> --offset N`). */
export const CLI_TERMS: Continuation = {
	next: (offset) => `run it again with --offset ${offset}`,
	smaller: (offset) => `run it again with a smaller --max-chars${offset !== undefined ? ` or --offset ${offset}` : ""}`,
	fewer: "ask for fewer with --max-results, or leave out --include-content",
};

const terms = (given: string | Continuation): Continuation => (typeof given === "string" ? toolTerms(given) : given);

/**
 * `characters 2,000–4,000 of 16,594`: where the window starts and ends, and the whole text's length. Both sides
 * count the page's text only: the reference list a window carries after its text (executor/results.ts) is not
 * part of it, so a window that reached the end ends at the total.
 */
export function windowHeader(result: FetchResult, offset?: number): string {
	const length = result.content.length;
	const total = result.totalChars;
	const toTheEnd = !result.truncated && total !== undefined ? Math.max(total, offset ?? 0) : undefined;
	const end = result.nextOffset ?? toTheEnd ?? (offset !== undefined ? offset + length : (total ?? length));
	const start = offset ?? Math.max(0, end - length);
	const of = result.totalChars !== undefined ? ` of ${thousands(result.totalChars)}` : "";
	return `characters ${thousands(start)}–${thousands(end)}${of}`;
}

/** pi's truncateHead, or a stand-in with the same contract (keeps whole lines from the start). */
export type Truncate = (
	text: string,
	options: { maxBytes: number; maxLines: number },
) => {
	content: string;
	truncated: boolean;
};

/** Keeps whole lines from the start within a byte budget (used when pi's helper is not available). */
export const truncateLines: Truncate = (text, { maxBytes, maxLines }) => {
	if (Buffer.byteLength(text) <= maxBytes && text.split("\n").length <= maxLines)
		return { content: text, truncated: false };
	const out: string[] = [];
	let bytes = 0;
	for (const line of text.split("\n")) {
		const size = Buffer.byteLength(line) + 1;
		if (bytes + size > maxBytes || out.length >= maxLines) break;
		out.push(line);
		bytes += size;
	}
	return { content: out.join("\n"), truncated: true };
};

/** `via deepseek after exa: rate-limit` — only when a fallback happened. */
export function traceLine(provider: string, attempts: Attempt[]): string | undefined {
	const failed = attempts.filter((a) => a.provider !== provider && (a.outcome === "error" || a.outcome === "empty"));
	if (failed.length === 0) return undefined;
	const why = failed.map((a) => `${a.provider}: ${a.outcome === "empty" ? "empty" : (a.reason ?? "error")}`).join("; ");
	return `via ${provider} after ${why}`;
}

/** Results, their page text and the backend's answer come from the web: all of it inside one untrusted block. */
export function formatSearch(result: SearchResult): string {
	const lines: string[] = [];
	const web: string[] = [];
	if (result.results.length === 0) lines.push(`No results for ${JSON.stringify(result.query)}.`);
	result.results.forEach((r, i) => {
		web.push(`${i + 1}. **${oneLine(r.title || r.url)}**`);
		web.push(`   ${r.url}${r.publishedAt ? ` · ${oneLine(r.publishedAt)}` : ""}`);
		if (r.snippet) web.push(`   ${oneLine(r.snippet)}`);
		if (r.content) web.push("", r.content.replace(/^/gm, "   "), "");
	});
	if (result.answer) web.push("", "**Answer** (written by the backend):", result.answer);
	if (web.length > 0) lines.push(wrapUntrusted(`search results (${result.provider})`, web.join("\n"), "search"));
	for (const warning of result.warnings) lines.push(`warning: ${warning}`);
	const trace = traceLine(result.provider, result.attempts);
	if (trace) lines.push(trace);
	return lines.join("\n");
}

/** A title or snippet on one line. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ");

/** How a page that is not an article was read, in the header line (an article says nothing: the usual way). */
const READ_AS: Record<ExtractedAs, string> = {
	article: "",
	listing: "a listing (its entries)",
	collection: "a collection (its entries)",
	documentation: "documentation",
	forum: "a forum thread (its posts in order)",
	product: "a product page",
	service: "a service page (its sections)",
	"page-text": "the page's readable text",
};

export function formatFetch(
	result: FetchResult,
	fetchTool: string | Continuation = "web_fetch",
	offset?: number,
): string {
	const lines: string[] = [];
	// The final URL is named once, in the wrapper's first line; both are shortened so that no URL can push the
	// page text (and the wrapper's end marker) out of the output window.
	const redirected = result.finalUrl !== undefined && result.finalUrl !== result.url;
	const where = `${shortUrl(result.url)}${redirected ? " (redirected)" : ""}`;
	lines.push(where);
	const range = windowHeader(result, offset);
	const kind = result.extractedAs ? READ_AS[result.extractedAs] : "";
	const crawled = result.crawledAt ? ` · crawled ${result.crawledAt}` : "";
	lines.push(`extraction: ${result.extraction}${kind ? ` · read as ${kind}` : ""}${crawled} · ${range}`);
	// The title and what the page says of itself are the page's too: inside the block, never a header above it.
	const header = pageHeader(result);
	const title = result.title ? `# ${oneLine(result.title)}\n` : "";
	const lead = title || header ? `${title}${header ? `${header}\n` : ""}\n` : "";
	lines.push(wrapUntrusted(shortUrl(result.finalUrl ?? result.url), `${lead}${result.content}`));
	if (result.truncated && result.nextOffset !== undefined) {
		lines.push(`The text continues: ${terms(fetchTool).next(result.nextOffset)}.`);
	}
	for (const warning of result.warnings) lines.push(`warning: ${warning}`);
	const trace = traceLine(result.provider, result.attempts);
	if (trace) lines.push(trace);
	return lines.join("\n");
}

/** A URL cut to OUTPUT_DEFAULTS.urlShownChars in text output: its start and end, an ellipsis for the middle. */
export function shortUrl(url: string): string {
	const { urlShownChars } = OUTPUT_DEFAULTS;
	if (url.length <= urlShownChars) return url;
	const tail = Math.floor(urlShownChars / 4);
	return `${url.slice(0, urlShownChars - tail - 1)}…${url.slice(-tail)}`;
}

/** Caps model-facing text at `maxChars`, saying what was cut and how to get the rest. */
export function guardOutput(
	text: string,
	maxChars: number,
	truncate: Truncate,
	how: string,
): { text: string; truncated: boolean } {
	if (text.length <= maxChars) return { text, truncated: false };
	const notice = `\n[output cut at ${maxChars} characters of ${text.length}; ${how}]`;
	// A cut inside the untrusted block gets its end marker back (room kept for it): web text is never open-ended.
	const room = maxChars - notice.length - UNTRUSTED_END.length - 1;
	// Bytes ≥ characters in UTF-8, so a byte budget is also a character budget.
	const cut = truncate(text, { maxBytes: Math.max(0, room), maxLines: Number.MAX_SAFE_INTEGER });
	return { text: `${closeUntrusted(cut.content)}${notice}`, truncated: true };
}

/**
 * Shrinks a fetch window so the whole model-facing text fits `maxChars`, moving nextOffset back to match:
 * the model then continues exactly where the shown text stops.
 */
export function fitFetch(
	result: FetchResult,
	offset: number,
	maxChars: number,
	fetchTool: string | Continuation = "web_fetch",
): FetchResult {
	// Where to continue is said once, by formatFetch's "The text continues" line (nextOffset is set).
	const warning = `text cut to fit the output limit (${maxChars} characters)`;
	// Measured with the warning a cut adds and the largest next offset (the most digits), so the cut text fits too.
	const widest = offset + result.content.length;
	const shell = {
		...result,
		content: "",
		nextOffset: widest,
		truncated: true,
		warnings: [...result.warnings, warning],
	};
	const overhead = formatFetch(shell, fetchTool, offset).length;
	const room = Math.max(0, maxChars - overhead - 16);
	if (result.content.length <= room) return result;
	const cut = result.content.slice(0, room);
	return {
		...result,
		content: cut,
		truncated: true,
		nextOffset: offset + cut.length,
		warnings: [...result.warnings, warning],
	};
}

/**
 * The markdown the model sees for a result, within `maxChars`: a fetch window is first shrunk to fit (so the next
 * offset is exact), then the text is guarded. Returns the result as shown (its window may be smaller).
 */
export function modelText<R extends SearchResult | FetchResult>(
	result: R,
	request: WebRequest,
	/** `fetchTool` names the tool in continuation hints; `terms` (the CLI's) replaces them. */
	options: { maxChars: number; truncate: Truncate; fetchTool?: string; terms?: Continuation },
): { result: R; text: string; truncated: boolean } {
	const { maxChars, truncate } = options;
	const said = options.terms ?? toolTerms(options.fetchTool);
	if (request.kind === "fetch") {
		const shown = fitFetch(result as FetchResult, request.offset, maxChars, said);
		const how = said.smaller(shown.nextOffset);
		return { result: shown as R, ...guardOutput(formatFetch(shown, said, request.offset), maxChars, truncate, how) };
	}
	return { result, ...guardOutput(formatSearch(result as SearchResult), maxChars, truncate, said.fewer) };
}
