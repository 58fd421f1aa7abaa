// Interprets a fetched answer: HTTP status and challenge pages, then by content type — HTML → markdown, PDF → text
// per page, text and JSON as they are, anything else an "unsupported content type" failure so the chain moves on.

import { WebAccessError } from "../../engine/errors.ts";
import type { ProviderFetchResult } from "../../engine/types.ts";
import { decodeBody } from "./charset.ts";
import type { RawPage } from "./fetch-page.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";
import { challengeReason, jsOnlyReason } from "./page-checks.ts";
import { pdfToText } from "./pdf.ts";

type BodyKind = "html" | "pdf" | "text";

/** Visible characters above which a 2xx page is content, whatever challenge markup it quotes. */
const CHALLENGE_MAX_TEXT = 3000;

const TEXT_TYPES = /^(?:text\/|application\/(?:[\w.-]+\+)?(?:json|xml)$|application\/(?:javascript|ecmascript)$)/;

/** The media type without parameters, lower-cased; "" when absent. */
export function mediaType(contentType: string | undefined): string {
	return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/** What to do with a body, by its declared type (sniffed when the server declares none or a generic one). */
export function bodyKind(contentType: string | undefined, body: Uint8Array): BodyKind | undefined {
	const type = mediaType(contentType);
	if (type === "text/html" || type === "application/xhtml+xml") return "html";
	if (type === "application/pdf" || type === "application/x-pdf") return "pdf";
	if (TEXT_TYPES.test(type)) return "text";
	if (type !== "" && type !== "application/octet-stream" && type !== "binary/octet-stream") return undefined;
	const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, 1024)).toString("latin1");
	if (head.startsWith("%PDF-")) return "pdf";
	if (/^\s*(?:<!doctype html|<html|<head|<body)/i.test(head)) return "html";
	return type === "" && !head.includes("\u0000") ? "text" : undefined;
}

export async function convertPage(page: RawPage, provider: string): Promise<ProviderFetchResult> {
	const contentType = page.headers["content-type"];
	const host = new URL(page.finalUrl).host;
	const ok = page.status >= 200 && page.status < 300;
	// Challenge pages are small and ASCII-led: a lossy UTF-8 read is enough to recognise one.
	const challenge = challengeReason(page.status, page.headers, ok ? "" : page.body.toString("utf8"));
	if (challenge) throw failure(`${challenge} at ${host}`, "bot-challenge", provider, page);
	if (!ok) throw statusError(page, provider, host);

	const warnings: string[] = [];
	if (page.truncated) warnings.push(`response is larger than ${formatBytes(page.maxBytes)}: content cut at the cap`);
	const kind = bodyKind(contentType, page.body);
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
		const pdf = await pdfToText(page.body);
		return { ...base, content: pdf.content, title: pdf.title, ...(warnings.length ? { warnings } : {}) };
	}
	const decoded = await decodeBody(page.body, contentType, kind === "html");
	if (decoded.warning) warnings.push(decoded.warning);
	if (kind === "text") return { ...base, content: decoded.text, ...(warnings.length ? { warnings } : {}) };

	let converted: Awaited<ReturnType<typeof htmlToMarkdown>>;
	try {
		converted = await htmlToMarkdown(decoded.text, page.finalUrl);
	} catch (error) {
		const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
		// About this page (e.g. nesting too deep to convert), not the provider: bad-request, no cooldown.
		throw new WebAccessError(`could not convert the page: ${message.slice(0, 120)}`, {
			kind: "bad-request",
			code: "html-conversion",
			provider,
			status: page.status,
			url: page.finalUrl,
			cause: error,
		});
	}
	// A 200 answer counts as a challenge only when it is small: articles may quote challenge markup.
	const smallPage = converted.stats.textLength < CHALLENGE_MAX_TEXT;
	const challenge200 = smallPage ? challengeReason(page.status, page.headers, decoded.text) : undefined;
	if (challenge200) throw failure(`${challenge200} at ${host}`, "bot-challenge", provider, page);
	const jsOnly = jsOnlyReason(converted.stats);
	if (jsOnly) throw failure(`${jsOnly} (${host})`, "needs-javascript", provider, page);
	if (!converted.mainContent) warnings.push("no main content found: converted the whole page");
	if (converted.cutAtChars) {
		warnings.push(`page HTML is larger than ${formatBytes(converted.cutAtChars)}: converted the first part only`);
	}
	return {
		...base,
		content: converted.markdown,
		title: converted.title,
		...(converted.author ? { author: converted.author } : {}),
		...(converted.publishedAt ? { publishedAt: converted.publishedAt } : {}),
		...(warnings.length ? { warnings } : {}),
	};
}

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

function formatBytes(bytes: number): string {
	return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}
