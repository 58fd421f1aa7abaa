// Reads a response body with its Content-Encoding undone and a cap counted AFTER decompression: reading stops at
// `maxBytes` (a gzip bomb inflates no further than the cap) and the caller learns the body was cut.

import { pipeline, type Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from "node:zlib";
import { WebAccessError } from "../../engine/errors.ts";

export interface BodyBytes {
	bytes: Buffer;
	/** True when the body went on past `maxBytes` and was cut there. */
	truncated: boolean;
}

/** Decoded body, at most `maxBytes`. Throws "parse" for an unknown coding or corrupt compressed data. */
export async function readBody(
	body: AsyncIterable<Buffer>,
	contentEncoding: string | undefined,
	maxBytes: number,
): Promise<BodyBytes> {
	const codings = (contentEncoding ?? "")
		.toLowerCase()
		.split(",")
		.map((coding) => coding.trim())
		.filter((coding) => coding !== "" && coding !== "identity");
	let stream: AsyncIterable<Buffer> = body;
	// Codings are listed in the order they were applied, so they are undone from the last.
	for (const coding of codings.reverse()) stream = decodeStage(stream, coding);
	const chunks: Buffer[] = [];
	let total = 0;
	try {
		for await (const chunk of stream) {
			if (total + chunk.length > maxBytes) {
				chunks.push(chunk.subarray(0, maxBytes - total));
				return { bytes: Buffer.concat(chunks), truncated: true };
			}
			chunks.push(chunk);
			total += chunk.length;
		}
	} catch (error) {
		const code = (error as { code?: unknown }).code;
		if (typeof code === "string" && code.startsWith("Z_")) {
			throw new WebAccessError(`corrupt compressed body (${code})`, {
				kind: "parse",
				code: "bad-encoding",
				cause: error,
			});
		}
		throw error;
	}
	return { bytes: Buffer.concat(chunks), truncated: false };
}

function decodeStage(source: AsyncIterable<Buffer>, coding: string): AsyncIterable<Buffer> {
	if (coding === "gzip" || coding === "x-gzip") return through(source, createGunzip());
	if (coding === "br") return through(source, createBrotliDecompress());
	if (coding === "deflate") return inflateAuto(source);
	throw new WebAccessError(`unsupported content-encoding "${coding}"`, { kind: "parse", code: "bad-encoding" });
}

async function* through(source: AsyncIterable<Buffer>, transform: Transform): AsyncGenerator<Buffer> {
	const out = pipeline(source, transform, () => {});
	for await (const chunk of out) yield chunk as Buffer;
}

/** "deflate" should be zlib-wrapped, but some servers send raw deflate: the first byte tells which. */
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
