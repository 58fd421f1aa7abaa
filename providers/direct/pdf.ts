// PDF → text, one `--- page N ---` heading per page, with unpdf (PDF.js without a worker or canvas), imported on
// first use. A PDF without any text layer (a scan) is a failure, so the chain can try a provider that runs OCR.

import { WebAccessError } from "../../engine/errors.ts";

export interface PdfText {
	content: string;
	title?: string;
	pages: number;
}

export async function pdfToText(bytes: Uint8Array): Promise<PdfText> {
	const { extractText, getDocumentProxy, getMeta } = await import("unpdf");
	let document: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
	try {
		// PDF.js takes ownership of (detaches) the buffer it is given, so it gets a copy; verbosity 0 keeps its
		// warnings off the console (pi's terminal UI).
		document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
		const { totalPages, text } = await extractText(document, { mergePages: false });
		const pages = text.map((page, index) => `--- page ${index + 1} ---\n${page.trim()}`);
		if (text.every((page) => page.trim() === "")) {
			throw new WebAccessError(`PDF has no text layer (${totalPages} pages, scanned?)`, {
				kind: "bad-request",
				code: "pdf-no-text",
			});
		}
		const info = (await getMeta(document).catch(() => undefined))?.info;
		const title = typeof info?.Title === "string" && info.Title.trim() !== "" ? info.Title.trim() : undefined;
		return { content: pages.join("\n\n"), title, pages: totalPages };
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
