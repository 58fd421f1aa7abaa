// The Anthropic Messages API as the web tools use it: folding an SSE stream into the final message (with progress
// lines as server tools run), error events, and the error codes of tool-result blocks
// mapped to error classes.

import type { ErrorClass } from "../../engine/error-classes.ts";
import { WebAccessError } from "../../engine/errors.ts";
import type { CallContext, HttpRequestSpec } from "../contract.ts";
import { sendOptionsOf } from "../http/call.ts";
import { DEFAULT_VERDICTS } from "../http/classify.ts";
import { asArray, asRecord, asString } from "../http/json.ts";
import { sendSse } from "../http/send.ts";
import { eventJson, type SseEvent } from "../http/sse.ts";

export type Json = Record<string, unknown>;

/** Class of an `error.type` of the Messages API (HTTP bodies and stream `error` events). */
export function messagesErrorClass(type: string | undefined): ErrorClass {
	switch (type) {
		case "rate_limit_error":
			return "rate-limit";
		case "authentication_error":
		case "permission_error":
			return "auth";
		case "billing_error":
			return "quota";
		case "invalid_request_error":
		case "not_found_error":
		case "request_too_large":
			return "bad-request";
		case "timeout_error":
			return "timeout";
		default:
			return "server";
	}
}

/** Class of a web_search / web_fetch tool-result `error_code`. */
export function toolErrorClass(code: string): ErrorClass {
	if (code === "too_many_requests") return "rate-limit";
	if (code === "unavailable" || code === "max_uses_exceeded") return "server";
	return "bad-request";
}

/** A failed tool-result block as an error ("web_fetch failed: url_not_accessible"). */
export function toolError(provider: string, tool: string, code: string): WebAccessError {
	const kind = toolErrorClass(code);
	return new WebAccessError(`${tool} failed: ${code}`, { kind, code, provider, keyVerdict: DEFAULT_VERDICTS[kind] });
}

function streamError(provider: string, error: Json): WebAccessError {
	const type = asString(error.type);
	const kind = messagesErrorClass(type);
	const message = (asString(error.message) ?? "").replace(/\s+/g, " ").slice(0, 200);
	return new WebAccessError(`stream error: ${type ?? "error"}${message ? `: ${message}` : ""}`, {
		kind,
		code: type ?? "stream-error",
		provider,
		keyVerdict: DEFAULT_VERDICTS[kind],
	});
}

function incomplete(provider: string, what: string): WebAccessError {
	return new WebAccessError(`event stream ended ${what}`, { kind: "parse", code: "stream-incomplete", provider });
}

/** One progress line for a finished server tool call. */
function progressLine(block: Json): string | undefined {
	if (asString(block.type) !== "server_tool_use") return undefined;
	const input = asRecord(block.input) ?? {};
	const name = asString(block.name);
	if (name === "web_search") return `searching: ${asString(input.query) ?? ""}`.trimEnd();
	if (name === "web_fetch") return `fetching: ${asString(input.url) ?? ""}`.trimEnd();
	return undefined;
}

/** Folds Messages stream events into `{ content, stop_reason, usage, model }`. */
export function createMessagesAccumulator(provider: string, onProgress: (line: string) => void) {
	const blocks: Json[] = [];
	const partialJson = new Map<number, string>();
	let message: Json = {};
	let stopped = false;
	return {
		push(event: SseEvent): void {
			const payload = eventJson(event, provider);
			if (payload === undefined) return;
			const type = asString(payload.type) ?? event.event;
			const index = typeof payload.index === "number" ? payload.index : -1;
			if (type === "error") throw streamError(provider, asRecord(payload.error) ?? {});
			if (type === "message_start") message = { ...asRecord(payload.message) };
			else if (type === "content_block_start") blocks[index] = { ...asRecord(payload.content_block) };
			else if (type === "content_block_delta") applyDelta(blocks[index], asRecord(payload.delta), index, partialJson);
			else if (type === "content_block_stop") {
				const block = blocks[index];
				const json = partialJson.get(index);
				if (block !== undefined && json !== undefined && json.trim() !== "") {
					try {
						block.input = JSON.parse(json);
					} catch {
						// A tool input that does not parse only costs us the progress line.
					}
				}
				const line = block === undefined ? undefined : progressLine(block);
				if (line !== undefined) onProgress(line);
			} else if (type === "message_delta") {
				const delta = asRecord(payload.delta) ?? {};
				if (delta.stop_reason !== undefined) message.stop_reason = delta.stop_reason;
				if (payload.usage !== undefined) message.usage = payload.usage;
			} else if (type === "message_stop") stopped = true;
		},
		/** The final message; throws when the stream ended before `message_stop`. */
		finish(): Json {
			if (!stopped) throw incomplete(provider, "before message_stop");
			return { ...message, content: blocks.filter((block) => block !== undefined) };
		},
	};
}

function applyDelta(block: Json | undefined, delta: Json | undefined, index: number, partialJson: Map<number, string>) {
	if (block === undefined || delta === undefined) return;
	const type = asString(delta.type);
	if (type === "text_delta") block.text = (asString(block.text) ?? "") + (asString(delta.text) ?? "");
	else if (type === "input_json_delta")
		partialJson.set(index, (partialJson.get(index) ?? "") + (asString(delta.partial_json) ?? ""));
	else if (type === "citations_delta") block.citations = [...asArray(block.citations), delta.citation];
}

/** Sends a streamed Messages request and folds it. */
export async function streamMessages(spec: HttpRequestSpec, call: CallContext): Promise<Json> {
	const accumulator = createMessagesAccumulator(call.config.name, call.onProgress);
	for await (const event of sendSse(spec, sendOptionsOf(call))) accumulator.push(event);
	return accumulator.finish();
}

/** The content blocks of a message, as records. */
export function contentBlocks(message: Json): Json[] {
	return asArray(message.content)
		.map(asRecord)
		.filter((block): block is Json => block !== undefined);
}
