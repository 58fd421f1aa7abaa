// Interprets a fetched answer: HTTP status and challenge pages, then by content type — HTML → markdown (or text, or
// the HTML itself), PDF → text per page, text and JSON as they are, anything else an "unsupported content type"
// failure so the chain moves on. HTML and PDF are converted in the worker thread of worker-pool.ts.

import { WebAccessError } from "../../engine/errors.ts";
import { formatBytes, thousands } from "../../engine/thousands.ts";
import type { ProviderFetchResult } from "../contract.ts";
import { decodeBody } from "./charset.ts";
import type { ConvertFormat, ConvertJob, HtmlOutcome, LinkStyle } from "./convert-jobs.ts";
import type { RawPage } from "./fetch-page.ts";
import { withoutFrontMatter } from "./front-matter.ts";
import { htmlTitle } from "./html-title.ts";
import { withoutHtmlComments } from "./markdown-comments.ts";
import { leanMarkdown } from "./markdown-lean.ts";
import { challengeReason, jsOnlyReason } from "./page-checks.ts";
import { pageFacts } from "./page-types.ts";
import type { PdfLimits } from "./pdf.ts";
import type { Converter } from "./worker-pool.ts";

/** How to convert one page, and with what. */
export interface ConvertOptions {
	converter: Converter;
	/** "html" returns the decoded HTML itself; "markdown" (default) and "text" are rendered by the converter. */
	format?: ConvertFormat | "html";
	links?: LinkStyle;
	signal?: AbortSignal;
	/** The conversion's own deadline; the converter's default when absent. */
	deadlineMs?: number;
	pdfLimits?: Partial<PdfLimits>;
	/**
	 * The HTML is a DOM a browser rendered (providers/browser/): its scripts have run, so a `<noscript>` notice or an
	 * empty mount point says nothing about it; only a page with no text at all fails.
	 */
	rendered?: boolean;
}

type BodyKind = "html" | "pdf" | "text";

/** Visible characters above which a 2xx page is content, whatever challenge markup it quotes. */
const CHALLENGE_MAX_TEXT = 3000;

/** The same rule for `format: "html"`, where no text is measured: only HTML this short can be a challenge page. */
const RAW_CHALLENGE_MAX_CHARS = 64 * 1024;

const TEXT_TYPES = /^(?:text\/|application\/(?:[\w.-]+\+)?(?:json|xml)$|application\/(?:javascript|ecmascript)$)/;

/** A text body of these types is markdown (a negotiated page, a markdown twin): its result says so. */
const MARKDOWN_TYPES = new Set(["text/markdown", "text/x-markdown"]);

/** The media type without parameters, lower-cased; "" when absent. */
export function mediaType(contentType: string | undefined): string {
	return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Source and text files by extension: served as octet-stream by many servers, yet text to return untouched. */
const TEXT_FILE =
	/\.(?:md|markdown|mdx|rst|txt|adoc|org|tex|csv|tsv|log|ini|cfg|conf|toml|ya?ml|json5?|lock|diff|patch|sh|bash|zsh|fish|ps1|bat|py|pyi|rb|pl|php|lua|r|jl|js|mjs|cjs|jsx|ts|mts|cts|tsx|vue|svelte|go|rs|c|h|cc|cpp|cxx|hpp|hh|m|mm|swift|kt|kts|java|scala|clj|cljs|ex|exs|erl|hs|ml|mli|fs|fsx|cs|vb|dart|zig|nim|sql|graphql|proto|gradle|cmake|mk|dockerfile|gitignore|env|nix|tf|hcl|sol)$/i;

/** What to do with a body, by its declared type (sniffed when the server declares none or a generic one). */
export function bodyKind(contentType: string | undefined, body: Uint8Array, path = ""): BodyKind | undefined {
	const type = mediaType(contentType);
	if (type === "text/html" || type === "application/xhtml+xml") return "html";
	if (type === "application/pdf" || type === "application/x-pdf") return "pdf";
	if (TEXT_TYPES.test(type)) return "text";
	if (type !== "" && type !== "application/octet-stream" && type !== "binary/octet-stream") return undefined;
	const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, 1024)).toString("latin1");
	if (head.startsWith("%PDF-")) return "pdf";
	if (/^\s*(?:<!doctype html|<html|<head|<body)/i.test(head)) return "html";
	const textual = !head.includes("\u0000");
	return textual && (type === "" || TEXT_FILE.test(path) || /\/(?:Makefile|Dockerfile|LICENSE)$/i.test(path))
		? "text"
		: undefined;
}

export async function convertPage(
	page: RawPage,
	provider: string,
	options: ConvertOptions,
): Promise<ProviderFetchResult> {
	const contentType = page.headers["content-type"];
	const host = new URL(page.finalUrl).host;
	const ok = page.status >= 200 && page.status < 300;
	// Challenge pages are small and ASCII-led: a lossy UTF-8 read is enough to recognise one.
	const challenge = challengeReason(page.status, page.headers, ok ? "" : page.body.toString("utf8"));
	if (challenge) throw failure(`${challenge} at ${host}`, "bot-challenge", provider, page);
	if (!ok) throw statusError(page, provider, host);

	const warnings: string[] = [];
	if (page.truncated) warnings.push(`response is larger than ${formatBytes(page.maxBytes)}: content cut at the cap`);
	const kind = bodyKind(contentType, page.body, new URL(page.finalUrl).pathname);
	if (kind === undefined) {
		throw failure(
			`unsupported content type ${mediaType(contentType) || "(none)"}`,
			"unsupported-content-type",
			provider,
			page,
		);
	}
	const base = { finalUrl: page.finalUrl, extraction: "verbatim" as const };
	if (kind === "pdf") {
		if (page.truncated) {
			throw failure(`PDF is larger than ${formatBytes(page.maxBytes)} (maxBytes)`, "too-large", provider, page);
		}
		const job = { kind: "pdf" as const, body: page.body, ...(options.pdfLimits ? { limits: options.pdfLimits } : {}) };
		const pdf = await convertIn(options, job, provider, page);
		warnings.push(...(pdf.warnings ?? []));
		if (options.format === "html") warnings.push("format html: a PDF has no HTML, so this is its text");
		const content = { content: pdf.content, format: "text" as const, title: pdf.title };
		return { ...base, ...content, ...(warnings.length ? { warnings } : {}) };
	}
	if (kind === "text" || options.format === "html") {
		const decoded = await decodeBody(page.body, contentType, kind === "html");
		if (decoded.warning) warnings.push(decoded.warning);
		const small = kind === "html" && decoded.text.length < RAW_CHALLENGE_MAX_CHARS;
		const challenge200 = small ? challengeReason(page.status, page.headers, decoded.text) : undefined;
		if (challenge200) throw failure(`${challenge200} at ${host}`, "bot-challenge", provider, page);
		const markdown = kind === "text" && MARKDOWN_TYPES.has(mediaType(contentType));
		const format = kind === "html" ? ("html" as const) : markdown ? ("markdown" as const) : ("text" as const);
		// A markdown page's front matter is metadata: its title named, the rest left out; its HTML comments, MDX
		// wiring and pasted markup too (direct/markdown-lean.ts).
		const read = markdown ? withoutFrontMatter(decoded.text) : { text: decoded.text, title: undefined };
		if (markdown) read.text = leanMarkdown(withoutHtmlComments(read.text), { mdx: true });
		// The converter that reads a page's title does not run for format html: the head is scanned here.
		const title = kind === "html" ? htmlTitle(decoded.text) : read.title;
		const named = {
			...(title !== undefined ? { title } : {}),
			...("author" in read && read.author ? { author: read.author } : {}),
			...("publishedAt" in read && read.publishedAt ? { publishedAt: read.publishedAt } : {}),
		};
		return { ...base, content: read.text, format, ...named, ...(warnings.length ? { warnings } : {}) };
	}

	const format = options.format === "text" ? ("text" as const) : undefined;
	const job: Extract<ConvertJob, { kind: "html" }> = {
		kind: "html" as const,
		body: page.body,
		contentType,
		baseUrl: page.finalUrl,
		...(format ? { format } : {}),
		...(options.links ? { links: options.links } : {}),
	};
	const { page: converted, head, decodeWarning }: HtmlOutcome = await convertIn(options, job, provider, page);
	if (decodeWarning) warnings.push(decodeWarning);
	// A 200 answer counts as a challenge only when it is small: articles may quote challenge markup.
	const smallPage = converted.stats.textLength < CHALLENGE_MAX_TEXT;
	const challenge200 = smallPage ? challengeReason(page.status, page.headers, head) : undefined;
	if (challenge200) throw failure(`${challenge200} at ${host}`, "bot-challenge", provider, page);
	if (converted.flattenedDepth) {
		const depth = converted.flattenedDepth;
		const stopped = converted.stoppedAtDepth;
		const rest = stopped ? `; past ${thousands(stopped)} levels the rest of the page was not read` : "";
		warnings.push(
			`elements nested deeper than ${depth} levels were read as one level, as browsers do: layout there may be lost${rest}`,
		);
		// Nothing readable before the depth where reading stopped: a clear failure, not an empty success.
		if (stopped && converted.markdown.trim() === "" && !converted.embedded) {
			const what = `could not convert the page: its elements nest deeper than ${thousands(stopped)} levels before any text`;
			throw failure(what, "too-deep", provider, page);
		}
	}
	const jsOnly = options.rendered
		? converted.stats.textLength === 0
			? "page has no text"
			: undefined
		: jsOnlyReason(converted.stats);
	if (jsOnly) {
		if (!converted.embedded) throw failure(`${jsOnly} (${host})`, "needs-javascript", provider, page);
		return embeddedResult(converted, base, warnings, format);
	}
	if (converted.thinFallback) {
		warnings.push(
			`the ${converted.thinFallback} extraction found too little text: this is the page's readable text without its navigation`,
		);
	} else if (!converted.mainContent) warnings.push("no main content found: converted the whole page");
	if (converted.leftOut) warnings.push(leftOutWarning(converted.leftOut));
	if (converted.cutAtChars) {
		// A cut inside one huge text node can leave nothing: say so instead of an empty success.
		if (converted.markdown.trim() === "") {
			const what = `page HTML is larger than ${formatBytes(converted.cutAtChars)} and its first part has no text`;
			throw failure(what, "too-large", provider, page);
		}
		warnings.push(`page HTML is larger than ${formatBytes(converted.cutAtChars)}: converted the first part only`);
	}
	return {
		...base,
		// With references, the executor lists after each window the ones it cites.
		content: converted.markdown,
		...(converted.references ? { references: converted.references } : {}),
		// The converter's contract (html-to-markdown.ts options): it renders text when asked.
		...(format ? { format } : {}),
		...(converted.extractedAs ? { extractedAs: converted.extractedAs } : {}),
		title: converted.title,
		...pageFacts(converted),
		...(warnings.length ? { warnings } : {}),
	};
}

/**
 * Says what the extraction left out of the main content, so that a reader knows the text is not all. It counts and
 * never quotes: warnings are printed outside the untrusted-content block, and the page's own words belong inside it.
 */
function leftOutWarning({ count, lists }: { count: number; lists: number }): string {
	const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
	const parts = [
		...(count > 0 ? [`${plural(count, "short line")} after the article`] : []),
		...(lists > 0 ? [`${plural(lists, "link list")} inside ${count > 0 ? "it" : "the article"}`] : []),
	];
	return `left out ${parts.join(" and ")} (format "html" has the whole page)`;
}

/** A JavaScript shell whose text its embedded state holds (providers/direct/embedded-state.ts): that text, said so. */
function embeddedResult(
	converted: HtmlOutcome["page"],
	base: Pick<ProviderFetchResult, "finalUrl" | "extraction">,
	warnings: string[],
	format: "text" | undefined,
): ProviderFetchResult {
	const { source, markdown, title, references, cutAtChars } = converted.embedded!;
	const why = "the page needs JavaScript to render, so layout and some text may be missing";
	warnings.push(`text recovered from the page's embedded state (${source}): ${why}`);
	if (cutAtChars) warnings.push(`embedded text is longer than ${cutAtChars} characters: kept the first part`);
	if (converted.cutAtChars) {
		warnings.push(`page HTML is larger than ${formatBytes(converted.cutAtChars)}: converted the first part only`);
	}
	return {
		...base,
		content: markdown,
		...(references ? { references } : {}),
		...(format ? { format } : {}),
		title: title ?? converted.title,
		...pageFacts(converted),
		warnings,
	};
}

/** Runs a job in the worker; its failures (too deep, too large, past the deadline, unreadable PDF) gain data. */
async function convertIn<J extends Parameters<Converter["run"]>[0]>(
	options: ConvertOptions,
	job: J,
	provider: string,
	page: RawPage,
) {
	try {
		// The page's bytes are not read again here: they move to the worker rather than being copied.
		return await options.converter.run(job, {
			transferBody: true,
			...(options.signal ? { signal: options.signal } : {}),
			...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}),
		});
	} catch (error) {
		const data = { provider, status: page.status, url: page.finalUrl, cause: error };
		const known = error instanceof WebAccessError;
		// Deadline, memory and cancellation keep their kind; a PDF's own failures (no text layer) keep theirs.
		if (known && (BOUND_CODES.has(error.code) || job.kind === "pdf")) {
			throw new WebAccessError(error.message, { kind: error.kind, code: error.code, ...data });
		}
		const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
		// About this page (e.g. nesting too deep to convert), not the provider: bad-request, no cooldown.
		throw new WebAccessError(`could not convert the page: ${message.slice(0, 120)}`, {
			kind: "bad-request",
			code: "html-conversion",
			...data,
		});
	}
}

const BOUND_CODES = new Set(["convert-deadline", "convert-memory", "convert-crashed", "cancelled"]);

function failure(message: string, code: string, provider: string, page: RawPage): WebAccessError {
	return new WebAccessError(message, { kind: "bad-request", code, provider, status: page.status, url: page.finalUrl });
}

/** 5xx → server; other statuses are about this URL (bad-request), so the provider is not cooled for them. */
function statusError(page: RawPage, provider: string, host: string): WebAccessError {
	const server = page.status >= 500;
	return new WebAccessError(`HTTP ${page.status} from ${host}`, {
		kind: server ? "server" : "bad-request",
		code: `http-${page.status}`,
		provider,
		status: page.status,
		url: page.finalUrl,
	});
}
