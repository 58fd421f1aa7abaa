// Streaming decompression of a response body by its Content-Encoding (gzip, br, deflate zlib-wrapped or raw).
// Callers count bytes after this stage, so a size cap also stops a decompression bomb.

import { pipeline, type Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from "node:zlib";

/** The decoded body, or undefined for an encoding we do not know (the caller says which error that is). */
export function decodeBody(source: AsyncIterable<Buffer>, coding: string): AsyncIterable<Buffer> | undefined {
	if (coding === "gzip" || coding === "x-gzip") return through(source, createGunzip());
	if (coding === "br") return through(source, createBrotliDecompress());
	if (coding === "deflate") return inflateAuto(source);
	return undefined;
}

async function* through(source: AsyncIterable<Buffer>, transform: Transform): AsyncGenerator<Buffer> {
	const out = pipeline(source, transform, () => {});
	for await (const chunk of out) yield chunk as Buffer;
}

/** "deflate" is meant to be zlib-wrapped, but some servers send raw deflate: the first byte tells which. */
async function* inflateAuto(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
	const iterator = source[Symbol.asyncIterator]();
	const first = await iterator.next();
	if (first.done) return;
	const head: Buffer = first.value;
	const wrapped = ((head[0] ?? 0) & 0x0f) === 0x08;
	async function* rest(): AsyncGenerator<Buffer> {
		yield head;
		for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
	}
	yield* through(rest(), wrapped ? createInflate() : createInflateRaw());
}
