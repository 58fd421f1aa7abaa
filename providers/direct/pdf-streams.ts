// How far a PDF's FlateDecode streams inflate, measured before PDF.js sees the file: each stream is inflated with
// zlib under an output cap (memory never exceeds the remaining budget), and the scan stops once past the budget.
// Image streams are skipped: text extraction never decodes them.

import { constants, inflateSync } from "node:zlib";

/** How far back from a `stream` keyword its dictionary is looked for. */
const DICT_LOOKBACK = 2048;

/**
 * Total inflated size of the non-image FlateDecode streams, counted up to `budget` (a result above `budget`
 * means "more than that"). One forward pass over the file; corrupt streams count what inflated before the error.
 */
export function inflatedStreamBytes(bytes: Uint8Array, budget: number): number {
	const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	let total = 0;
	let from = 0;
	for (;;) {
		const keyword = buffer.indexOf("stream", from, "latin1");
		if (keyword < 0) return total;
		from = keyword + 6;
		// "endstream" contains "stream"; only a keyword that ends a dictionary ("... >> stream") opens one.
		if (keyword >= 3 && buffer.toString("latin1", keyword - 3, keyword) === "end") continue;
		const dict = buffer.toString("latin1", Math.max(0, keyword - DICT_LOOKBACK), keyword);
		const open = dict.lastIndexOf("<<");
		if (open < 0 || !/>>\s*$/.test(dict)) continue;
		const entries = dict.slice(open);
		if (!/\/FlateDecode|\/Fl\b/.test(entries) || /\/Subtype\s*\/Image/.test(entries)) continue;
		let start = keyword + 6;
		if (buffer[start] === 0x0d) start++;
		if (buffer[start] === 0x0a) start++;
		let end = buffer.indexOf("endstream", start, "latin1");
		if (end < 0) end = buffer.length;
		total += inflatedSize(buffer.subarray(start, end), budget - total + 1);
		if (total > budget) return total;
		from = end;
	}
}

function inflatedSize(data: Buffer, cap: number): number {
	try {
		return inflateSync(data, { maxOutputLength: cap, finishFlush: constants.Z_SYNC_FLUSH }).length;
	} catch (error) {
		// Past the cap: "more than the budget" is all the caller needs.
		if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return cap;
		return 0;
	}
}
