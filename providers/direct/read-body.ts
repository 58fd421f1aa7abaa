// Reads a response body with its Content-Encoding undone and a cap counted AFTER decompression: reading stops at
// `maxBytes` (a gzip bomb inflates no further than the cap) and the caller learns the body was cut.

import { WebAccessError } from "../../engine/errors.ts";
import { decodeBody } from "../http/decode.ts";

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
	const decoded = decodeBody(source, coding);
	if (decoded === undefined)
		throw new WebAccessError(`unsupported content-encoding "${coding}"`, { kind: "parse", code: "bad-encoding" });
	return decoded;
}
