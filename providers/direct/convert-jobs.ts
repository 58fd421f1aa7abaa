// The messages between the direct fetcher and its conversion worker (providers/direct/convert-worker.ts): what a
// job asks for, what comes back, and how a failure crosses the thread boundary (a plain object, rebuilt here).

import { isMarkedAsUntransferable } from "node:worker_threads";
import { WebAccessError, type WebAccessErrorData } from "../../engine/errors.ts";
import type { LinkStyle } from "../../engine/request-types.ts";
import type { MarkdownPage } from "./page-types.ts";
import type { PdfLimits, PdfText } from "./pdf.ts";

/** How an HTML page is rendered: markdown (default) or plain text without markup. */
export type ConvertFormat = "markdown" | "text";
export type { LinkStyle };

export type ConvertJob =
	| {
			kind: "html";
			/** The raw body; the worker decodes it (charset sniffing and iconv stay off the main thread). */
			body: Uint8Array;
			contentType?: string;
			baseUrl: string;
			format?: ConvertFormat;
			links?: LinkStyle;
	  }
	| { kind: "pdf"; body: Uint8Array; limits?: Partial<PdfLimits> }
	| {
			/** HTML fragments an API returned (a thread's posts), each converted as a page of its own, in one job. */
			kind: "fragments";
			fragments: string[];
			baseUrl: string;
			links?: LinkStyle;
	  };

/** The fragments' markdown back to back; fragment i is `text.slice(ends[i - 1] ?? 0, ends[i])`. */
export interface FragmentsOutcome {
	text: string;
	ends: number[];
}

export interface HtmlOutcome {
	page: MarkdownPage;
	/** The start of the decoded HTML, for the challenge-page check on a 200 answer. */
	head: string;
	decodeWarning?: string;
}

export type JobResult<J extends ConvertJob> = J extends { kind: "html" }
	? HtmlOutcome
	: J extends { kind: "fragments" }
		? FragmentsOutcome
		: PdfText;

/** Characters or bytes a job brings: the queue starts the smallest first. */
export function jobSize(job: ConvertJob): number {
	if (job.kind !== "fragments") return job.body.byteLength;
	return job.fragments.reduce((sum, fragment) => sum + fragment.length, 0);
}

/** `cpuMs`: the worker thread's own CPU time for the job (GC helper threads not counted). */
export type WorkerReply = { id: number; cpuMs?: number } & (
	| { ok: true; value: unknown }
	| { ok: false; error: SentError }
);

/** The body's ArrayBuffer when it can be transferred: the body fills it alone (not a slice of Node's Buffer pool). */
export function movableBody(body: Uint8Array): ArrayBuffer[] {
	const buffer = body.buffer;
	const alone = body.byteOffset === 0 && body.byteLength === buffer.byteLength;
	return alone && buffer instanceof ArrayBuffer && !isMarkedAsUntransferable(buffer) ? [buffer] : [];
}

/** A piece of a long result text, sent ahead of the reply that carries the rest (see `splitText`). */
export interface TextPart {
	id: number;
	part: string;
}

/**
 * Characters per message for a long result text. Receiving a message holds the receiving thread for as long as
 * its copy takes (~10 ms for 2 million characters on a busy machine); pieces of this size take ~1 ms each.
 */
export const TEXT_PART_CHARS = 256 * 1024;

type TextHolder = { text: string; set: (text: string) => void };

/** The long text of a job's result: an HTML page's markdown, a PDF's content, the fragments' markdown. */
function resultText(kind: ConvertJob["kind"], value: unknown): TextHolder | undefined {
	if (kind === "fragments") {
		const outcome = value as FragmentsOutcome;
		return { text: outcome.text, set: (text) => (outcome.text = text) };
	}
	if (kind === "html") {
		const page = (value as HtmlOutcome).page;
		return { text: page.markdown, set: (text) => (page.markdown = text) };
	}
	const pdf = value as PdfText;
	return { text: pdf.content, set: (text) => (pdf.content = text) };
}

/** Worker side: cuts the result's text into parts to send first; the value keeps the last part. */
export function splitText(kind: ConvertJob["kind"], value: unknown): string[] {
	const holder = resultText(kind, value);
	if (!holder || holder.text.length <= TEXT_PART_CHARS) return [];
	const parts: string[] = [];
	let start = 0;
	while (holder.text.length - start > TEXT_PART_CHARS) {
		let end = start + TEXT_PART_CHARS;
		// A surrogate pair stays in one part (each part is then a well-formed string on its own).
		const code = holder.text.charCodeAt(end - 1);
		if (code >= 0xd800 && code <= 0xdbff) end--;
		parts.push(holder.text.slice(start, end));
		start = end;
	}
	holder.set(holder.text.slice(start));
	return parts;
}

/** Main side: puts the parts received ahead of the reply back in front of the text it carries. */
export function joinText(kind: ConvertJob["kind"], value: unknown, parts: readonly string[]): unknown {
	const holder = parts.length > 0 ? resultText(kind, value) : undefined;
	holder?.set(parts.join("") + holder.text);
	return value;
}

/** A failure as it crosses the thread boundary. */
export interface SentError {
	message: string;
	kind?: WebAccessErrorData["kind"];
	code?: string;
}

export function sendError(error: unknown): SentError {
	if (error instanceof Error && "kind" in error && "code" in error) {
		const { kind, code } = error as unknown as { kind: WebAccessErrorData["kind"]; code: string };
		return { message: error.message, kind, code };
	}
	return { message: error instanceof Error ? error.message.split("\n")[0]! : String(error) };
}

/** A WebAccessError again when it was one in the worker; otherwise a plain Error with the message. */
export function receiveError(sent: SentError): Error {
	if (sent.kind !== undefined && sent.code !== undefined) {
		return new WebAccessError(sent.message, { kind: sent.kind, code: sent.code });
	}
	return new Error(sent.message);
}
