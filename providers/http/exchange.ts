// One request on undici's dispatch API: the handler send.ts hands to `dispatcher.dispatch`. A whole identity body
// (every JSON answer) is collected straight into Buffers; only a stream (SSE) or a compressed body gets a Readable.
// undici's `request()` wraps every response in a Readable, an AsyncResource and an abort listener of its own: send on
// request() cost about 40 µs of CPU per call more than a bare request() + JSON.parse, on dispatch about the same
// (the bench/overhead.ts set-up: loopback, 64 in flight).

import { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import type { CancelSignal } from "../contract.ts";
import { type HttpResponse, ReceivedResponse, type SentRequest } from "./response.ts";

/** What a dispatch opened: a body read whole, or the response's stream (SSE, or a body still to decompress). */
export type Exchanged = { res: HttpResponse; whole: Buffer; body?: undefined } | { res: HttpResponse; body: Readable };

/** Why an exchange failed, for send.ts to word: before the headers ("request") or while reading the body. */
export interface ExchangeFailure {
	error: unknown;
	phase: "request" | "body";
	res?: HttpResponse;
}

/**
 * One exchange's request as sent, which its response keeps for masking credentials in messages (response.ts), and
 * where it reports.
 */
export interface ExchangeOptions extends SentRequest {
	signal: CancelSignal;
	/** A Readable even for an identity body (sendSse). */
	stream: boolean;
	maxBytes: number;
	/** The failure for a body over maxBytes (a parse error naming the status). */
	tooLarge: (res: HttpResponse) => unknown;
	resolve: (opened: Exchanged) => void;
	reject: (failed: ExchangeFailure) => void;
}

/** Content codings to undo, outermost last (`identity` and empty entries left out). */
export function codingsOf(res: HttpResponse): string[] {
	const header = res.headers["content-encoding"];
	if (header === undefined) return [];
	return header
		.split(",")
		.map((coding) => coding.trim().toLowerCase())
		.filter((coding) => coding !== "" && coding !== "identity");
}

/**
 * Header names lower-case, repeated headers joined with ", " (undici hands a list for those). undici's own object, made
 * for this response alone, is kept when it is so already (its names come lower-case): no copy of every response's
 * headers.
 */
function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
	if (isFlat(headers)) return headers as Record<string, string>;
	const out: Record<string, string> = {};
	for (const name in headers) {
		if (!Object.hasOwn(headers, name)) continue;
		const value = headers[name];
		if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
	}
	return out;
}

/** Every header an own one with a lower-case name and one string value. */
function isFlat(headers: Record<string, string | string[] | undefined>): boolean {
	for (const name in headers) {
		if (typeof headers[name] !== "string" || !Object.hasOwn(headers, name) || name.toLowerCase() !== name) return false;
	}
	return true;
}

/** A response body as a stream: reading resumes the socket, destroying it before its end aborts the request. */
class BodyStream extends Readable {
	private readonly controller: Dispatcher.DispatchController;
	ended = false;

	constructor(controller: Dispatcher.DispatchController) {
		super();
		this.controller = controller;
	}

	override _read(): void {
		this.controller.resume();
	}

	override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
		if (!this.ended && !this.controller.aborted) this.controller.abort(error ?? new Error("body not read to its end"));
		callback(error);
	}
}

/**
 * The handler of one dispatch. It listens to the signal as an object (handleEvent) and only while the request
 * runs; a collected body settles the exchange at its end, a stream at the headers.
 */
export class Exchange implements Dispatcher.DispatchHandler {
	private readonly options: ExchangeOptions;
	private controller: Dispatcher.DispatchController | undefined;
	private res: HttpResponse | undefined;
	private chunks: Buffer[] | undefined;
	private total = 0;
	private stream: BodyStream | undefined;
	private settled = false;
	private listening = false;

	constructor(options: ExchangeOptions) {
		this.options = options;
		if (!options.signal.aborted) {
			options.signal.addEventListener("abort", this);
			this.listening = true;
		}
	}

	/** The signal aborted: the request stops where it is (undici then calls onResponseError with the reason). */
	handleEvent(): void {
		this.unlisten();
		this.controller?.abort(this.reason());
	}

	onRequestStart(controller: Dispatcher.DispatchController): void {
		this.controller = controller;
		if (this.options.signal.aborted) controller.abort(this.reason());
	}

	/** The abort's reason as undici's types name it; undici hands any reason on as it is, as AbortSignal's was. */
	private reason(): Error {
		return this.options.signal.reason as Error;
	}

	onResponseStart(
		controller: Dispatcher.DispatchController,
		statusCode: number,
		headers: Record<string, string | string[] | undefined>,
	): void {
		if (statusCode < 200) return; // 1xx: the answer is still to come
		const res = new ReceivedResponse(statusCode, flatHeaders(headers), this.options.url, this.options);
		this.res = res;
		if (this.options.stream || codingsOf(res).length > 0) {
			this.stream = new BodyStream(controller);
			this.succeed({ res, body: this.stream });
			return;
		}
		if (Number(res.headers["content-length"]) > this.options.maxBytes) {
			this.tooLarge(controller, res);
			return;
		}
		this.chunks = [];
	}

	onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
		if (this.stream !== undefined) {
			if (!this.stream.push(chunk)) controller.pause();
			return;
		}
		if (this.chunks === undefined) return;
		this.total += chunk.length;
		if (this.total > this.options.maxBytes) this.tooLarge(controller, this.res!);
		else this.chunks.push(chunk);
	}

	onResponseEnd(): void {
		this.unlisten();
		if (this.stream !== undefined) {
			this.stream.ended = true;
			this.stream.push(null);
			return;
		}
		const { chunks, res } = this;
		if (chunks === undefined || res === undefined) return;
		this.chunks = undefined;
		this.succeed({ res, whole: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.total) });
	}

	onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
		this.unlisten();
		this.chunks = undefined;
		if (this.stream !== undefined) {
			// The reader sees the error where it reads; one nobody reads any more must not throw it unhandled.
			if (this.stream.listenerCount("error") === 0) this.stream.on("error", () => {});
			this.stream.destroy(error);
			return;
		}
		this.fail({ error, phase: this.res === undefined ? "request" : "body", res: this.res });
	}

	/** Nothing went out: routing or the URL failed before the dispatch. */
	unsent(error: unknown): void {
		this.fail({ error, phase: "request" });
	}

	private tooLarge(controller: Dispatcher.DispatchController, res: HttpResponse): void {
		this.chunks = undefined;
		this.fail({ error: this.options.tooLarge(res), phase: "body", res });
		controller.abort(new Error("response body over the size cap"));
	}

	private succeed(opened: Exchanged): void {
		if (this.settled) return;
		this.settled = true;
		this.options.resolve(opened);
	}

	private fail(failed: ExchangeFailure): void {
		if (this.settled) return;
		this.settled = true;
		this.unlisten();
		this.options.reject(failed);
	}

	private unlisten(): void {
		if (!this.listening) return;
		this.listening = false;
		this.options.signal.removeEventListener("abort", this);
	}
}
