// The red-team pages of the keyless fetcher, built on demand: shapes that once ran past the fetch deadline or grew
// pi by gigabytes. test/direct-redteam.test.ts fetches each through the direct provider; bench/fetch-redteam.ts
// converts each in the worker and prints its time and memory.

import { createDeflate } from "node:zlib";
import { makePdf } from "../direct-helpers.ts";

const MB = 1024 * 1024;

export interface RedteamShape {
	name: string;
	make: () => Buffer | Promise<Buffer>;
	type: "text/html" | "application/pdf";
	/** Under the 4 MB HTML cap: converted whole (bounded in time and memory) is a right answer too, without a warning. */
	whole?: boolean;
}

export const redteamHtml = (body: string): Buffer =>
	Buffer.from(`<!DOCTYPE html><html><head><title>T</title></head><body>${body}</body></html>`);

function tenMegabytes(): Buffer {
	const section = `<section><h2>Part</h2><p>${"word ".repeat(200)}</p><ul><li><a href="/x">link</a></li></ul></section>`;
	return redteamHtml(`<main>${section.repeat(Math.ceil((10 * MB) / section.length))}</main>`).subarray(0, 10 * MB);
}

/** A 1 MB PDF whose one content stream inflates to 1 GB of zeros (FlateDecode). */
export async function inflateBombPdf(): Promise<Buffer> {
	const deflate = createDeflate({ level: 9 });
	const parts: Buffer[] = [];
	deflate.on("data", (chunk: Buffer) => parts.push(chunk));
	const ended = new Promise((resolve) => deflate.on("end", resolve));
	const zeros = Buffer.alloc(MB);
	for (let i = 0; i < 1024; i++) {
		if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once("drain", resolve));
	}
	deflate.end();
	await ended;
	const data = Buffer.concat(parts);
	const head =
		"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n" +
		"3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>\nendobj\n" +
		`4 0 obj\n<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`;
	const tail = "\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n";
	return Buffer.concat([Buffer.from(head, "latin1"), data, Buffer.from(tail, "latin1")]);
}

/** 15,000 pages, each with its own text ("Page text N"). */
export function manyPagesPdf(): Buffer {
	return makePdf(
		Array.from({ length: 15_000 }, (_, i) => `Page text ${i + 1}`),
		"Many pages",
	);
}

/** The HTML shapes; the two PDFs are separate (their tests assert more than boundedness). */
export const REDTEAM_HTML_SHAPES: RedteamShape[] = [
	{
		name: "one table row of 20,000 cells",
		make: () => redteamHtml(`<table><tr>${"<td>cell</td>".repeat(20_000)}</tr></table>`),
		type: "text/html",
	},
	{ name: "300,000 <div/>", make: () => redteamHtml(`${"<div/>".repeat(300_000)}<p>end</p>`), type: "text/html" },
	{ name: "300,000 <div></x>", make: () => redteamHtml(`${"<div></x>".repeat(300_000)}<p>end</p>`), type: "text/html" },
	{
		name: "1.6 MB of <b>x</b>",
		make: () => redteamHtml(`<p>${"<b>x</b>".repeat(200_000)}</p>`),
		type: "text/html",
		whole: true,
	},
	{ name: "10 MB of HTML", make: tenMegabytes, type: "text/html" },
	{
		name: "more than 4 MB of HTML in one text node",
		make: () => redteamHtml(`<p>${"lorem ipsum ".repeat(400_000)}</p>`),
		type: "text/html",
	},
];

export const REDTEAM_PDF_SHAPES: RedteamShape[] = [
	{ name: "1 MB PDF inflating to 1 GB", make: inflateBombPdf, type: "application/pdf" },
	{ name: "PDF of 15,000 pages", make: manyPagesPdf, type: "application/pdf" },
];
