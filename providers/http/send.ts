// The one HTTP client of the provider layer: a shared keep-alive undici Agent, bounded decompression, a size cap,
// and failures turned into WebAccessError (transport / timeout / cancelled / parse / HTTP status). Providers build
// an HttpRequestSpec, call send / sendJson / sendSse, and parse; they never touch undici themselves. Requests go
// through the provider's proxy (proxy.ts decides which) on one keep-alive ProxyAgent per proxy URL.

import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import type { WebAccessError } from "../../engine/errors.ts";
import type { CancelSignal, HttpRequestSpec, ProxyChoice } from "../contract.ts";
import { decodeBody } from "./decode.ts";
import { HTTP_DEFAULTS, type RouteOptions, route } from "./dispatcher.ts";
import { codingsOf, Exchange, type Exchanged, type ExchangeFailure, type ExchangeOptions } from "./exchange.ts";
import { type HttpResponse, httpStatusError, parseError, readJson } from "./response.ts";
import { abortError, failure } from "./send-errors.ts";
import { createSseParser, type SseEvent } from "./sse.ts";

export interface SendOptions extends RouteOptions {
	/** An AbortSignal, or the executor's lighter attempt signal (CallContext.cancel). */
	signal: CancelSignal;
	/** Cap on the body after decompression; default 10 MB. */
	maxBytes?: number;
}

/** Drops a body we stop reading; destroying it aborts the request, whose error must not go unhandled. */
function discard(body: Readable): void {
	body.on("error", () => {});
	body.destroy();
}

/** Sends with the shared Agent. Resolves for ANY HTTP status; see the contract for the errors it throws. */
export function send(spec: HttpRequestSpec, options: SendOptions): Promise<HttpResponse> {
	return sendThen(spec, options, received);
}

/**
 * `send`, with `then` run on the response as the exchange settles (its throw rejects): one promise for a request
 * and its parse, where an async send awaited by an async caller made three (httpCall in call.ts uses it).
 */
export function sendThen<T>(spec: HttpRequestSpec, options: SendOptions, then: (res: HttpResponse) => T): Promise<T> {
	return open(spec, options, (opened) => {
		if (opened.body !== undefined) return readBody(opened, options).then((body) => then(withText(opened.res, body)));
		return then(withText(opened.res, opened.whole));
	});
}

function received(res: HttpResponse): HttpResponse {
	return res;
}

function withText(res: HttpResponse, body: Buffer): HttpResponse {
	res.text = UTF8.decode(body);
	return res;
}

/** Stateless when not streaming, so one serves every whole body (it drops a BOM, as a fresh one would). */
const UTF8 = new TextDecoder();

interface Streamed {
	res: HttpResponse;
	body: Readable;
}

/** The whole body of a stream, decompressed, within maxBytes. */
async function readBody(opened: Streamed, options: SendOptions): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of decodedBody(opened, options)) chunks.push(chunk);
	return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
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
	const exchanged = await open({ ...spec, stream: true }, options, asExchanged);
	if (exchanged.body === undefined) throw new Error("send: a stream request settled without its stream");
	const opened: Streamed = exchanged;
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

/** A stream request's exchange as it settled (sendSse reads it). */
function asExchanged(exchanged: Exchanged): Exchanged {
	return exchanged;
}

/**
 * Sends the request; settles with `settle` of the whole body, or of the headers and the body's stream (see
 * exchange.ts). A throw anywhere, `settle`'s too, is the promise's rejection: nothing here throws synchronously.
 */
function open<T>(
	spec: HttpRequestSpec,
	options: SendOptions,
	settle: (exchanged: Exchanged) => T | PromiseLike<T>,
): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const { signal, provider } = options;
		if (signal.aborted) {
			reject(abortError(signal.reason, provider, spec.url));
			return;
		}
		const headers: Record<string, string> = {};
		for (const name in spec.headers) {
			if (Object.hasOwn(spec.headers, name)) headers[name.toLowerCase()] = spec.headers[name]!;
		}
		if (spec.body !== undefined) headers["content-type"] ??= "application/json";
		if (spec.stream) headers.accept ??= "text/event-stream";
		headers["accept-encoding"] ??= HTTP_DEFAULTS.acceptEncoding;
		const sending = new Sending(spec, headers, options, settle, resolve, reject);
		const exchange = new Exchange(sending);
		try {
			const routed = route(spec, options);
			sending.proxy = routed.proxy;
			const { origin, path } = originAndPath(spec.url);
			routed.dispatcher.dispatch(
				{
					origin,
					path,
					method: spec.method as Dispatcher.HttpMethod,
					headers,
					body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
				},
				exchange,
			);
		} catch (error) {
			exchange.unsent(error);
		}
	});
}

/**
 * What the exchange of one request reports to: its request, and the settling of send's promise as methods of one
 * object (where an options object with three closures was made per request).
 */
class Sending<T> implements ExchangeOptions {
	readonly url: string;
	/** The headers as sent: this object is also the request a response keeps, not a record made for it. */
	readonly headers: Readonly<Record<string, string>>;
	readonly signal: CancelSignal;
	readonly stream: boolean;
	readonly maxBytes: number;
	/** The proxy the request goes through, once routed (for error messages). */
	proxy: ProxyChoice | undefined;
	private readonly options: SendOptions;
	private readonly settle: (exchanged: Exchanged) => T | PromiseLike<T>;
	private readonly done: (value: T | PromiseLike<T>) => void;
	private readonly fail: (error: unknown) => void;

	constructor(
		spec: HttpRequestSpec,
		headers: Record<string, string>,
		options: SendOptions,
		settle: (exchanged: Exchanged) => T | PromiseLike<T>,
		done: (value: T | PromiseLike<T>) => void,
		fail: (error: unknown) => void,
	) {
		this.url = spec.url;
		this.headers = headers;
		this.signal = options.signal;
		this.stream = spec.stream === true;
		this.maxBytes = maxBytesOf(options);
		this.proxy = undefined;
		this.options = options;
		this.settle = settle;
		this.done = done;
		this.fail = fail;
	}

	tooLarge(res: HttpResponse): WebAccessError {
		return tooLarge(res, this.options);
	}

	resolve(exchanged: Exchanged): void {
		try {
			this.done(this.settle(exchanged));
		} catch (error) {
			this.fail(error);
		}
	}

	reject({ error, phase, res }: ExchangeFailure): void {
		this.fail(failure(error, phase, this.url, this.options, res, this.proxy));
	}
}

/** A request URL's origin and path with query, as dispatch takes them; a provider asks the same few URLs again and again. */
const targets = new Map<string, { origin: string; path: string }>();
const TARGET_ENTRIES = 256;

function originAndPath(href: string): { origin: string; path: string } {
	let target = targets.get(href);
	if (target === undefined) {
		const url = new URL(href);
		target = { origin: url.origin, path: `${url.pathname}${url.search}` };
		if (targets.size >= TARGET_ENTRIES) targets.clear();
		targets.set(href, target);
	}
	return target;
}

function maxBytesOf(options: SendOptions): number {
	return options.maxBytes ?? HTTP_DEFAULTS.maxBytes;
}

/** The parse error for a body over the cap, counted as received (identity) or after decompression. */
function tooLarge(res: HttpResponse, options: SendOptions): WebAccessError {
	return parseError(res, options.provider, "too-large", `response body is larger than ${maxBytesOf(options)} bytes`);
}

/** Decompressed body chunks; stops with a parse error once maxBytes is passed (so a gzip bomb stays small). */
async function* decodedBody(opened: Streamed, options: SendOptions): AsyncGenerator<Buffer> {
	const { res, body } = opened;
	const maxBytes = maxBytesOf(options);
	const declared = Number(res.headers["content-length"]);
	const codings = codingsOf(res);
	if (codings.length === 0 && declared > maxBytes) {
		discard(body);
		throw tooLarge(res, options);
	}
	let total = 0;
	try {
		let stream: AsyncIterable<Buffer> = body;
		for (const coding of codings.reverse()) stream = decodeStage(stream, coding, res, options.provider);
		for await (const chunk of stream) {
			total += chunk.length;
			if (total > maxBytes) throw tooLarge(res, options);
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
