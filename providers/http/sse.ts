// Incremental Server-Sent Events parser (WHATWG event-stream rules): CRLF / CR / LF line ends, multi-line
// `data:`, `:` comments, `event:` / `id:` fields. It only parses text; sendSse in send.ts feeds it from the wire
// and turns a stream that ends inside an event into a parse error.

import { WebAccessError } from "../../engine/errors.ts";
import { asRecord } from "./json.ts";

/** One dispatched event. `data` lines are joined with "\n". */
export interface SseEvent {
	event?: string;
	data: string;
	id?: string;
}

export interface SseParser {
	/** Feeds decoded text; returns the events completed by it. */
	push(chunk: string): SseEvent[];
	/** Ends the stream. `truncated` is true when it stopped inside an event (fields seen, no blank line yet). */
	end(): { events: SseEvent[]; truncated: boolean };
}

export function createSseParser(): SseParser {
	let buffer = "";
	let started = false;
	let dataLines: string[] = [];
	let eventName: string | undefined;
	let lastId: string | undefined;
	/** True once a field of the current event was read; a blank line clears it. */
	let pending = false;
	/** Chunks of a line still waiting for its end, joined once it arrives: appending every chunk to `buffer` and
	 * rescanning it made a long line quadratic (a 10 MB line in 64 KB chunks cost seconds of CPU). */
	let parts: string[] = [];

	function dispatch(out: SseEvent[]): void {
		if (dataLines.length > 0) {
			const event: SseEvent = { data: dataLines.join("\n") };
			if (eventName !== undefined) event.event = eventName;
			if (lastId !== undefined) event.id = lastId;
			out.push(event);
		}
		dataLines = [];
		eventName = undefined;
		pending = false;
	}

	function line(text: string, out: SseEvent[]): void {
		if (text === "") {
			dispatch(out);
			return;
		}
		if (text.startsWith(":")) return;
		const colon = text.indexOf(":");
		const field = colon === -1 ? text : text.slice(0, colon);
		let value = colon === -1 ? "" : text.slice(colon + 1);
		if (value.startsWith(" ")) value = value.slice(1);
		if (field === "data") {
			dataLines.push(value);
			pending = true;
		} else if (field === "event") {
			eventName = value;
			pending = true;
		} else if (field === "id") {
			if (!value.includes("\0")) lastId = value;
			pending = true;
		}
		// `retry` and unknown fields are ignored, as the spec says.
	}

	/** Consumes complete lines; a trailing "\r" waits for the next chunk since it may be half of "\r\n". */
	function drain(final: boolean): SseEvent[] {
		const out: SseEvent[] = [];
		let start = 0;
		for (let i = 0; i < buffer.length; i++) {
			const ch = buffer[i];
			if (ch !== "\n" && ch !== "\r") continue;
			if (ch === "\r" && i === buffer.length - 1 && !final) break;
			line(buffer.slice(start, i), out);
			if (ch === "\r" && buffer[i + 1] === "\n") i++;
			start = i + 1;
		}
		buffer = buffer.slice(start);
		return out;
	}

	return {
		push(chunk) {
			if (!started && chunk.length > 0) {
				started = true;
				if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
			}
			if (!/[\r\n]/.test(chunk) && !buffer.endsWith("\r")) {
				parts.push(chunk);
				return [];
			}
			buffer += parts.join("") + chunk;
			parts = [];
			return drain(false);
		},
		end() {
			buffer += parts.join("");
			parts = [];
			const events = drain(true);
			const truncated = pending || (buffer.length > 0 && !buffer.startsWith(":"));
			buffer = "";
			dataLines = [];
			pending = false;
			return { events, truncated };
		},
	};
}

/**
 * An event's `data` as a JSON object (undefined when it is JSON but not an object). Invalid JSON is a parse
 * failure of the provider's answer, as a cut stream is.
 */
export function eventJson(event: SseEvent, provider: string): Record<string, unknown> | undefined {
	try {
		return asRecord(JSON.parse(event.data));
	} catch (cause) {
		throw new WebAccessError("event stream carried invalid JSON", {
			kind: "parse",
			code: "invalid-json",
			provider,
			cause,
		});
	}
}
