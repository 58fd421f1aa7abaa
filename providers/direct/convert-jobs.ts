// The messages between the direct fetcher and its conversion worker (providers/direct/convert-worker.ts): what a
// job asks for, what comes back, and how a failure crosses the thread boundary (a plain object, rebuilt here).

import { WebAccessError, type WebAccessErrorData } from "../../engine/errors.ts";
import type { LinkStyle } from "../../engine/request-types.ts";
import type { MarkdownPage } from "./html-to-markdown.ts";
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
	| { kind: "pdf"; body: Uint8Array; limits?: Partial<PdfLimits> };

export interface HtmlOutcome {
	page: MarkdownPage;
	/** The start of the decoded HTML, for the challenge-page check on a 200 answer. */
	head: string;
	decodeWarning?: string;
}

export type JobResult<J extends ConvertJob> = J extends { kind: "html" } ? HtmlOutcome : PdfText;

export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SentError };

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
