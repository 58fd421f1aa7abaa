// PDF → text, one `--- page N ---` heading per page, with unpdf (PDF.js without a worker or canvas), imported on
// first use. A PDF without any text layer (a scan) is a failure, so the chain can try a provider that runs OCR.
// Bounded: the first `maxPages` pages are read (a warning says so), and a PDF whose streams inflate past a cap is
// refused before PDF.js decodes it (PDF.js keeps decoded streams in memory the worker's heap cap does not cover).

import { WebAccessError } from "../../engine/errors.ts";
import { inflatedStreamBytes } from "./pdf-streams.ts";

export interface PdfText {
	content: string;
	title?: string;
	pages: number;
	warnings?: string[];
}

export const PDF_LIMITS = {
	/** Pages read; the rest are left out with a warning (15,000 pages would take half a minute and gigabytes). */
	maxPages: 500,
	/** Total bytes the PDF's non-image FlateDecode streams may inflate to (a 1 MB file can inflate to 1 GB). */
	maxInflatedBytes: 128 * 1024 * 1024,
	/**
	 * Pages are read until this much time has passed, then the rest is left out with a warning: a cut result
	 * before the conversion deadline instead of a failure at it (PDF.js finds page N of a flat page tree in O(N)).
	 */
	maxMs: 8_000,
};

export type PdfLimits = typeof PDF_LIMITS;

export async function pdfToText(bytes: Uint8Array, limits: Partial<PdfLimits> = {}): Promise<PdfText> {
	const { maxPages, maxInflatedBytes, maxMs } = { ...PDF_LIMITS, ...limits };
	const started = performance.now();
	const inflated = inflatedStreamBytes(bytes, maxInflatedBytes);
	if (inflated > maxInflatedBytes) {
		throw new WebAccessError(
			`PDF streams inflate to more than ${Math.round(maxInflatedBytes / 1048576)} MB: not read`,
			{
				kind: "bad-request",
				code: "pdf-too-large",
			},
		);
	}
	const { getDocumentProxy, getMeta } = await import("unpdf");
	let document: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
	try {
		// PDF.js takes ownership of (detaches) the buffer it is given, so it gets a copy; verbosity 0 keeps its
		// warnings off the console.
		document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
		const totalPages = document.numPages;
		const texts: string[] = [];
		let outOfTime = false;
		// One page at a time: all pages at once (unpdf's extractText) holds every page's objects together.
		for (let number = 1; number <= Math.min(totalPages, maxPages); number++) {
			if (number > 1 && performance.now() - started > maxMs) {
				outOfTime = true;
				break;
			}
			const page = await document.getPage(number);
			const content = await page.getTextContent();
			let text = "";
			for (const item of content.items) {
				if ("str" in item) text += item.str + (item.hasEOL ? "\n" : "");
			}
			texts.push(text.trim());
			page.cleanup();
		}
		if (texts.every((text) => text === "")) {
			throw new WebAccessError(`PDF has no text layer (${totalPages} pages, scanned?)`, {
				kind: "bad-request",
				code: "pdf-no-text",
			});
		}
		const pages = texts.map((text, index) => `--- page ${index + 1} ---\n${text}`);
		const info = (await getMeta(document).catch(() => undefined))?.info;
		const title = typeof info?.Title === "string" && info.Title.trim() !== "" ? info.Title.trim() : undefined;
		const read = texts.length;
		const why = outOfTime ? `in the ${Math.round(maxMs / 1000)} s allowed` : "(maxPages)";
		const warnings =
			read < totalPages ? [`PDF has ${totalPages} pages: read the first ${read} only ${why}`] : undefined;
		return { content: pages.join("\n\n"), title, pages: totalPages, ...(warnings ? { warnings } : {}) };
	} catch (error) {
		if (error instanceof WebAccessError) throw error;
		const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
		throw new WebAccessError(`unreadable PDF: ${message}`, {
			kind: "bad-request",
			code: "pdf-unreadable",
			cause: error,
		});
	} finally {
		await document?.loadingTask.destroy().catch(() => {});
	}
}
