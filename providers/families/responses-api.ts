// The Responses API (`POST <base>/responses`) as OpenAI and xAI speak it: folding an SSE stream into the final
// response object (with progress lines), failures in the stream, and the output items (answer text, url_citation
// annotations, web_search_call sources, X search calls) both families interpret.

import type { ErrorClass } from "../../engine/error-classes.ts";
import { WebAccessError } from "../../engine/errors.ts";
import type { SearchResultItem } from "../../engine/result-types.ts";
import type { CallContext, HttpRequestSpec } from "../contract.ts";
import { sendOptionsOf } from "../http/call.ts";
import { DEFAULT_VERDICTS } from "../http/classify.ts";
import { asArray, asRecord, asString } from "../http/json.ts";
import { sendSse } from "../http/send.ts";
import { eventJson, type SseEvent } from "../http/sse.ts";
import { hostOf, ResultList, sentenceBefore } from "./citations.ts";

export type Json = Record<string, unknown>;

/** Error class of a Responses error code (`error` events, `status: "failed"` bodies). */
export function responsesErrorClass(code: string | undefined, status?: number): ErrorClass {
	if (status === 429 || code === "rate_limit_exceeded" || code === "too_many_requests") return "rate-limit";
	if (code === "insufficient_quota" || code === "billing_hard_limit_reached") return "quota";
	if (code === "invalid_api_key" || code === "unauthorized") return "auth";
	if (code !== undefined && /^invalid|not_found|unsupported|too_long|context_length/.test(code)) return "bad-request";
	return "server";
}

/** A failure the backend reported inside a 200 (stream `error` event or `status: "failed"`). */
export function bodyError(provider: string, error: unknown, where: string): WebAccessError {
	const record = asRecord(error) ?? {};
	const code = asString(record.code) ?? asString(record.type);
	const status = typeof record.status === "number" ? record.status : undefined;
	const kind = responsesErrorClass(code, status);
	const message = (asString(record.message) ?? "failed").replace(/\s+/g, " ").slice(0, 200);
	return new WebAccessError(`${where}: ${code ?? "error"}: ${message}`, {
		kind,
		code: code ?? "response-error",
		provider,
		keyVerdict: DEFAULT_VERDICTS[kind],
	});
}

function streamIncomplete(provider: string, what: string): WebAccessError {
	return new WebAccessError(`event stream ended ${what}`, { kind: "parse", code: "stream-incomplete", provider });
}

/** Folds Responses stream events into the final response; calls `onProgress` as tool calls complete. */
export function createResponsesAccumulator(provider: string, onProgress: (line: string) => void) {
	const items: Json[] = [];
	const deltas = new Map<number, string>();
	let final: Json | undefined;
	return {
		push(event: SseEvent): void {
			if (event.data === "[DONE]") return;
			const payload = eventJson(event, provider);
			if (payload === undefined) return;
			const type = asString(payload.type) ?? event.event ?? "";
			if (type === "error") throw bodyError(provider, asRecord(payload.error) ?? payload, "stream error");
			if (type === "response.failed") {
				throw bodyError(provider, asRecord(asRecord(payload.response)?.error), "response failed");
			}
			if (type === "response.completed" || type === "response.incomplete") {
				final = asRecord(payload.response);
				return;
			}
			const index = typeof payload.output_index === "number" ? payload.output_index : items.length;
			if (type === "response.output_text.delta") {
				deltas.set(index, (deltas.get(index) ?? "") + (asString(payload.delta) ?? ""));
			} else if (type === "response.output_item.done") {
				const item = asRecord(payload.item);
				if (item === undefined) return;
				items[index] = item;
				const line = progressLine(item);
				if (line !== undefined) onProgress(line);
			}
		},
		/** The final response; throws when the stream ended before `response.completed`. */
		finish(): Json {
			if (final === undefined) throw streamIncomplete(provider, "before response.completed");
			// Some gateways send a completed event without its output: rebuild it from the item events.
			if (asArray(final.output).length > 0) return final;
			const output = items.filter((item) => item !== undefined);
			for (const [index, text] of deltas) {
				if (items[index] === undefined) output.push(messageItem(text));
			}
			return { ...final, output };
		},
	};
}

function messageItem(text: string): Json {
	return { type: "message", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] };
}

/** One progress line for a finished tool call, or undefined. */
export function progressLine(item: Json): string | undefined {
	const type = asString(item.type);
	if (type === "web_search_call") {
		const action = asRecord(item.action) ?? {};
		const actionType = asString(action.type);
		if (actionType === "open_page") return `opening: ${asString(action.url) ?? "page"}`;
		if (actionType === "find_in_page") return `finding in page: ${asString(action.pattern) ?? ""}`;
		const queries = asArray(action.queries).filter((q): q is string => typeof q === "string");
		const query = queries.length > 0 ? queries.join(" | ") : asString(action.query);
		return query === undefined ? "searching" : `searching: ${query}`;
	}
	if (type === "custom_tool_call" && /^x_/.test(asString(item.name) ?? "")) {
		const query = asString(xCallInput(item).query);
		return query === undefined ? "searching X" : `searching X: ${query}`;
	}
	return undefined;
}

/** Parsed `input` of an X search call (a JSON string on the wire). */
export function xCallInput(item: Json): Json {
	const raw = item.input;
	if (typeof raw !== "string") return asRecord(raw) ?? {};
	try {
		return asRecord(JSON.parse(raw)) ?? {};
	} catch {
		return {};
	}
}

/** Sends a streamed Responses request and folds it; `remap` lets a family reclassify HTTP errors. */
export async function streamResponses(
	spec: HttpRequestSpec,
	call: CallContext,
	remap: (error: unknown) => unknown = (error) => error,
): Promise<Json> {
	const accumulator = createResponsesAccumulator(call.config.name, call.onProgress);
	try {
		for await (const event of sendSse(spec, sendOptionsOf(call))) accumulator.push(event);
	} catch (error) {
		throw remap(error);
	}
	return accumulator.finish();
}

/** A url_citation annotation with the sentence it supports. */
export interface Citation {
	url: string;
	title?: string;
	/** Offset of the citation in `answer`, or -1 when the backend gave none (xAI sometimes sends 0..0). */
	start: number;
}

/** What the families take from a response's output items. */
export interface ResponsesOutput {
	answer: string;
	citations: Citation[];
	/** `web_search_call.action.sources` URLs, in order. */
	sources: string[];
	/** Queries of the searches the model ran. */
	queries: string[];
	/** Number of X search calls (`custom_tool_call` named x_*). */
	xSearches: number;
	/** `incomplete_details.reason` when the answer was cut short. */
	incomplete?: string;
	usage?: Json;
}

/** Reads answer, citations and sources from the final response. Answer parts of several messages join with "\n\n". */
export function readResponsesOutput(response: Json): ResponsesOutput {
	const out: ResponsesOutput = { answer: "", citations: [], sources: [], queries: [], xSearches: 0 };
	const texts: string[] = [];
	for (const item of asArray(response.output).map(asRecord)) {
		if (item === undefined) continue;
		const type = asString(item.type);
		if (type === "web_search_call") {
			const action = asRecord(item.action) ?? {};
			for (const source of asArray(action.sources).map(asRecord)) {
				const url = asString(source?.url);
				if (url !== undefined && !out.sources.includes(url)) out.sources.push(url);
			}
			const queries = asArray(action.queries).filter((q): q is string => typeof q === "string");
			const query = asString(action.query);
			out.queries.push(...(queries.length > 0 ? queries : query !== undefined ? [query] : []));
		} else if (type === "custom_tool_call" && /^x_/.test(asString(item.name) ?? "")) {
			out.xSearches++;
		} else if (type === "message") {
			for (const part of asArray(item.content).map(asRecord)) {
				if (part === undefined || asString(part.type) !== "output_text") continue;
				const text = asString(part.text) ?? "";
				const offset = texts.reduce((sum, t) => sum + t.length + 2, 0);
				for (const annotation of asArray(part.annotations).map(asRecord)) {
					if (annotation === undefined || asString(annotation.type) !== "url_citation") continue;
					const url = asString(annotation.url);
					if (url === undefined) continue;
					const start = typeof annotation.start_index === "number" ? annotation.start_index : 0;
					const end = typeof annotation.end_index === "number" ? annotation.end_index : 0;
					out.citations.push({
						url,
						title: asString(annotation.title),
						start: end > start ? offset + start : -1,
					});
				}
				texts.push(text);
			}
		}
	}
	out.answer = texts.join("\n\n").trimEnd();
	const incomplete = asString(asRecord(response.incomplete_details)?.reason);
	if (asString(response.status) === "incomplete") out.incomplete = incomplete ?? "incomplete";
	const usage = asRecord(response.usage);
	if (usage !== undefined) out.usage = usage;
	return out;
}

/**
 * Results of a Responses answer: cited pages first (snippet = the sentence they support), then the other pages the
 * searches returned (no snippet). A numeric annotation title (xAI's "1") is replaced by the host.
 */
export function responsesResults(output: ResponsesOutput): SearchResultItem[] {
	const list = new ResultList();
	for (const citation of output.citations) {
		const at = citation.start >= 0 ? citation.start : output.answer.indexOf(`(${citation.url})`);
		const title = citation.title && !/^\d+$/.test(citation.title) ? citation.title : hostOf(citation.url);
		const snippet = at > 0 ? sentenceBefore(output.answer, at).replace(/\s*\[+$/, "") : "";
		list.add({ title, url: citation.url, snippet });
	}
	for (const url of output.sources) list.add({ title: hostOf(url), url, snippet: "" });
	return list.items();
}
