// The one HTTP client of the provider layer: a shared keep-alive undici Agent, bounded decompression, a size cap,
// and failures turned into WebAccessError (transport / timeout / cancelled / parse / HTTP status). Providers build
// an HttpRequestSpec, call send / sendJson / sendSse, and parse; they never touch undici themselves. Requests go
// through the provider's proxy (proxy.ts decides which) on one keep-alive ProxyAgent per proxy URL.

import { type Dispatcher, request } from "undici";
import { WebAccessError } from "../../engine/errors.ts";
import type { HttpRequestSpec, ProxyChoice } from "../contract.ts";
import { decodeBody } from "./decode.ts";
import { HTTP_DEFAULTS, type RouteOptions, route } from "./dispatcher.ts";
import { describeProxy } from "./proxy.ts";
import { type HttpResponse, httpStatusError, parseError, readJson, rememberRequest, safeUrl } from "./response.ts";
import { createSseParser, type SseEvent } from "./sse.ts";

export interface SendOptions extends RouteOptions {
	signal: AbortSignal;
	/** Cap on the body after decompression; default 10 MB. */
	maxBytes?: number;
}

interface Opened {
	res: HttpResponse;
	body: Dispatcher.ResponseData["body"];
}

/** Drops a body we stop reading; undici emits an abort error on destroy, which must not go unhandled. */
function discard(body: Opened["body"]): void {
	body.on("error", () => {});
	body.destroy();
}

/** Sends with the shared Agent. Resolves for ANY HTTP status; see the contract for the errors it throws. */
export async function send(spec: HttpRequestSpec, options: SendOptions): Promise<HttpResponse> {
	const opened = await open(spec, options);
	opened.res.text = UTF8.decode(await readBody(opened, options));
	return opened.res;
}

/** Stateless when not streaming, so one serves every whole body (it drops a BOM, as a fresh one would). */
const UTF8 = new TextDecoder();

/** The whole body, decompressed, within maxBytes. */
async function readBody(opened: Opened, options: SendOptions): Promise<Buffer> {
	if (codingsOf(opened.res).length > 0) {
		const chunks: Buffer[] = [];
		for await (const chunk of decodedBody(opened, options)) chunks.push(chunk);
		return Buffer.concat(chunks);
	}
	// An identity body is read by events: async iteration of the stream costs more per response than the rest of
	// the transport (the same limit and the same errors as decodedBody).
	const { res, body } = opened;
	const maxBytes = options.maxBytes ?? HTTP_DEFAULTS.maxBytes;
	const tooLarge = () =>
		parseError(res, options.provider, "too-large", `response body is larger than ${maxBytes} bytes`);
	if (Number(res.headers["content-length"]) > maxBytes) {
		discard(body);
		throw tooLarge();
	}
	try {
		return await new Promise<Buffer>((resolve, reject) => {
			const chunks: Buffer[] = [];
			let total = 0;
			let ended = false;
			body.on("data", (chunk: Buffer) => {
				total += chunk.length;
				if (total > maxBytes) {
					reject(tooLarge());
					body.destroy();
				} else chunks.push(chunk);
			});
			body.once("end", () => {
				ended = true;
				resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
			});
			body.once("error", reject);
			// "close" follows "end" on every good response: the error (and its stack) is built only for a cut one.
			body.once("close", () => {
				if (!ended) reject(Object.assign(new Error("premature close"), { code: PREMATURE_CLOSE }));
			});
		});
	} catch (error) {
		throw failure(error, "body", res.url, options, res);
	} finally {
		// A body read to its end destroys itself (undici's autoDestroy); only one we stop reading needs it.
		if (!body.readableEnded) discard(body);
	}
}

/** What async iteration reports for a stream closed before its end. */
const PREMATURE_CLOSE = "ERR_STREAM_PREMATURE_CLOSE";

/** Content codings to undo, outermost last (`identity` and empty entries left out). */
function codingsOf(res: HttpResponse): string[] {
	const header = res.headers["content-encoding"];
	if (header === undefined) return [];
	return header
		.split(",")
		.map((coding) => coding.trim().toLowerCase())
		.filter((coding) => coding !== "" && coding !== "identity");
}

/** Convenience: send, throw httpStatusError on non-2xx (with the backend's message), return parsed JSON. */
export async function sendJson(
	spec: HttpRequestSpec,
	options: SendOptions,
): Promise<{ res: HttpResponse; json: unknown }> {
	const res = await send(spec, options);
	if (res.status < 200 || res.status > 299) throw httpStatusError(res, options.provider);
	return { res, json: readJson(res, options.provider) };
}

/** How sendSse reads an answer that is not a 2xx event stream (the defaults suit most backends). */
export interface SseReading {
	/** The failure for a non-2xx answer, its body in `res.text` (a vendor's error envelope); default httpStatusError. */
	statusError?: (res: HttpResponse, provider: string) => WebAccessError;
	/** A 2xx JSON answer (a backend that ignored the stream request) is one event with the whole body as data. */
	jsonAsEvent?: boolean;
}

/** Streams SSE events; non-2xx throws httpStatusError, a stream cut mid-event throws parse "sse-truncated". */
export async function* sendSse(
	spec: HttpRequestSpec,
	options: SendOptions,
	reading: SseReading = {},
): AsyncGenerator<SseEvent> {
	const opened = await open({ ...spec, stream: true }, options);
	const { res } = opened;
	if (res.status < 200 || res.status > 299) {
		res.text = UTF8.decode(await readBody(opened, options));
		throw (reading.statusError ?? httpStatusError)(res, options.provider);
	}
	const type = res.headers["content-type"] ?? "";
	if (/html|json/i.test(type) && !/event-stream/i.test(type)) {
		if (reading.jsonAsEvent && /json/i.test(type)) {
			yield { data: UTF8.decode(await readBody(opened, options)) };
			return;
		}
		discard(opened.body);
		throw parseError(res, options.provider, "not-event-stream", `expected an event stream, got ${type.split(";")[0]}`);
	}
	const parser = createSseParser();
	const decoder = new TextDecoder();
	for await (const chunk of decodedBody(opened, options)) {
		yield* parser.push(decoder.decode(chunk, { stream: true }));
	}
	const tail = parser.push(decoder.decode());
	yield* tail;
	const end = parser.end();
	yield* end.events;
	if (end.truncated) throw parseError(res, options.provider, "sse-truncated", "event stream ended inside an event");
}

async function open(spec: HttpRequestSpec, options: SendOptions): Promise<Opened> {
	const { signal, provider } = options;
	if (signal.aborted) throw abortError(signal.reason, provider, spec.url);
	const headers: Record<string, string> = {};
	for (const name of Object.keys(spec.headers)) headers[name.toLowerCase()] = spec.headers[name]!;
	if (spec.body !== undefined) headers["content-type"] ??= "application/json";
	if (spec.stream) headers.accept ??= "text/event-stream";
	headers["accept-encoding"] ??= HTTP_DEFAULTS.acceptEncoding;
	const { dispatcher, proxy } = route(spec, options);
	try {
		const answer = await request(spec.url, {
			method: spec.method,
			headers,
			body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
			signal,
			dispatcher,
		});
		const res: HttpResponse = {
			status: answer.statusCode,
			headers: flatHeaders(answer.headers),
			text: "",
			url: spec.url,
		};
		rememberRequest(res, { headers, url: spec.url });
		return { res, body: answer.body };
	} catch (error) {
		throw failure(error, "request", spec.url, options, undefined, proxy);
	}
}

/** Decompressed body chunks; stops with a parse error once maxBytes is passed (so a gzip bomb stays small). */
async function* decodedBody(opened: Opened, options: SendOptions): AsyncGenerator<Buffer> {
	const { res, body } = opened;
	const maxBytes = options.maxBytes ?? HTTP_DEFAULTS.maxBytes;
	const tooLarge = () =>
		parseError(res, options.provider, "too-large", `response body is larger than ${maxBytes} bytes`);
	const declared = Number(res.headers["content-length"]);
	const codings = codingsOf(res);
	if (codings.length === 0 && declared > maxBytes) {
		discard(body);
		throw tooLarge();
	}
	let total = 0;
	try {
		let stream: AsyncIterable<Buffer> = body;
		for (const coding of codings.reverse()) stream = decodeStage(stream, coding, res, options.provider);
		for await (const chunk of stream) {
			total += chunk.length;
			if (total > maxBytes) throw tooLarge();
			yield chunk;
		}
	} catch (error) {
		throw failure(error, "body", res.url, options, res);
	} finally {
		discard(body);
	}
}

function decodeStage(source: AsyncIterable<Buffer>, coding: string, res: HttpResponse, provider: string) {
	const decoded = decodeBody(source, coding);
	if (decoded === undefined) throw parseError(res, provider, "bad-encoding", `unsupported content-encoding ${coding}`);
	return decoded;
}

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** Maps anything thrown while sending or reading to a WebAccessError. */
function failure(
	error: unknown,
	phase: "request" | "body",
	url: string,
	options: SendOptions,
	res?: HttpResponse,
	proxy?: ProxyChoice,
): WebAccessError {
	const { provider, signal } = options;
	if (signal.aborted) return abortError(signal.reason, provider, url);
	if (error instanceof WebAccessError) return error;
	const code = codeOf(error);
	const target = safeUrl(url);
	// Through a proxy, a connection failure is the proxy's (refused, down, or it could not reach the target).
	const where = proxy ? `${target} via proxy ${describeProxy(proxy)}` : target;
	if (code !== undefined && TIMEOUT_CODES.has(code)) {
		return new WebAccessError(`timed out (${code}) at ${where}`, {
			kind: "timeout",
			code: code.replace(/^UND_ERR_/, "").toLowerCase(),
			provider,
			url: target,
			status: res?.status,
			cause: error,
		});
	}
	if (code?.startsWith("Z_") || code === "ERR_BUFFER_TOO_LARGE") {
		return new WebAccessError(`HTTP ${res?.status}: corrupt compressed body (${code})`, {
			kind: "parse",
			code: "bad-encoding",
			provider,
			url: target,
			status: res?.status,
			cause: error,
		});
	}
	if (phase === "body" && res) {
		return new WebAccessError(`HTTP ${res.status}: response body cut off (${code ?? "closed"})`, {
			kind: "parse",
			code: "body-truncated",
			provider,
			url: target,
			status: res.status,
			cause: error,
		});
	}
	const refusal = proxy ? proxyAnswer(error) : undefined;
	return new WebAccessError(`connection failed (${refusal?.label ?? code ?? messageOf(error)}) to ${where}`, {
		kind: "transport",
		code: refusal?.code ?? (code ?? "transport").toLowerCase(),
		provider,
		url: target,
		cause: error,
	});
}

/** Cancellation: a WebAccessError reason keeps its kind, a TimeoutError means timeout, anything else cancelled. */
export function abortError(reason: unknown, provider: string, url?: string): WebAccessError {
	const where = url === undefined ? undefined : safeUrl(url);
	if (reason instanceof WebAccessError) return reason;
	if (reason instanceof Error && reason.name === "TimeoutError") {
		return new WebAccessError("timed out", { kind: "timeout", code: "timeout", provider, url: where, cause: reason });
	}
	return new WebAccessError("cancelled", { kind: "cancelled", code: "cancelled", provider, url: where, cause: reason });
}

/** undici reports a proxy's refusal of CONNECT only in its message: the status is what a person can act on. */
function proxyAnswer(error: unknown): { label: string; code: string } | undefined {
	const status = (error instanceof Error ? error.message : "").match(/Proxy .*?\((\d{3})\)/)?.[1];
	if (status === undefined) return undefined;
	if (status === "407") {
		return { label: "the proxy wants credentials (407): check user:password@ in the proxy URL", code: "proxy-auth" };
	}
	return { label: `the proxy answered ${status} to CONNECT`, code: "proxy-refused" };
}

function codeOf(error: unknown): string | undefined {
	if (typeof error !== "object" || error === null) return undefined;
	const code = (error as { code?: unknown }).code;
	if (typeof code === "string") return code;
	return codeOf((error as { cause?: unknown }).cause);
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message.split("\n")[0]!.slice(0, 120) : String(error).slice(0, 120);
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const name of Object.keys(headers)) {
		const value = headers[name];
		if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
	}
	return out;
}
