// A model API's answer read from a whole body: an SSE transcript folded by the family's accumulator, or one JSON
// object. Shared by the Responses (OpenAI, xAI) and Messages (Anthropic) families.

import { WebAccessError } from "../../engine/errors.ts";
import { asRecord } from "../http/json.ts";
import type { HttpResponse } from "../http/response.ts";
import type { SseEvent } from "../http/sse.ts";
import { createSseParser } from "../http/sse.ts";

type Json = Record<string, unknown>;

export interface Accumulator {
	push(event: SseEvent): void;
	finish(): Json;
}

/** `streamed`: the folded stream; `json`: the plain object, for the family to check for in-band errors. */
export function readModelBody(
	res: HttpResponse,
	provider: string,
	accumulator: () => Accumulator,
	truncated: () => Error,
): { streamed: Json } | { json: Json } {
	const type = res.headers["content-type"] ?? "";
	if (/event-stream/i.test(type) || /^\s*(event|data):/.test(res.text)) {
		const parser = createSseParser();
		const folded = accumulator();
		const events = parser.push(res.text);
		const end = parser.end();
		for (const event of [...events, ...end.events]) folded.push(event);
		if (end.truncated) throw truncated();
		return { streamed: folded.finish() };
	}
	let json: Json | undefined;
	try {
		json = asRecord(JSON.parse(res.text));
	} catch (cause) {
		throw new WebAccessError(`HTTP ${res.status}: truncated or invalid JSON`, {
			kind: "parse",
			code: "invalid-json",
			provider,
			cause,
		});
	}
	if (json === undefined)
		throw new WebAccessError("response is not an object", { kind: "parse", code: "bad-shape", provider });
	return { json };
}
