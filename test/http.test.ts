// The shared HTTP layer against real loopback servers: decompression, size cap and gzip bomb, HTML and truncated
// bodies, status errors with Retry-After, resets before and during the body, cancellation, and SSE streaming.

import { getEventListeners } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { WebAccessError } from "../engine/errors.ts";
import type { HttpRequestSpec } from "../providers/contract.ts";
import { classifyError } from "../providers/http/classify.ts";
import { httpStatusError, readJson, retryAfterMs } from "../providers/http/response.ts";
import { send, sendJson, sendSse } from "../providers/http/send.ts";
import { type FakeServer, startFakeServer } from "./helpers/fake-server.ts";

let server: FakeServer;
beforeAll(async () => {
	server = await startFakeServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const options = () => ({ provider: "test", signal: new AbortController().signal });
const get = (path = "/x", headers: Record<string, string> = {}): HttpRequestSpec => ({
	method: "GET",
	url: `${server.url}${path}`,
	headers,
});

async function failureOf(promise: Promise<unknown>): Promise<WebAccessError> {
	try {
		await promise;
	} catch (error) {
		expect(error).toBeInstanceOf(WebAccessError);
		return error as WebAccessError;
	}
	throw new Error("expected a failure");
}

describe("send", () => {
	it("sends a JSON body with content-type and accept-encoding, and resolves any status", async () => {
		server.respond({ status: 404, body: "nope", headers: { "X-Thing": "1" } });
		const spec: HttpRequestSpec = {
			method: "POST",
			url: `${server.url}/p?q=1`,
			headers: { "X-Api-Key": "k" },
			body: { a: 1 },
		};
		const res = await send(spec, options());
		expect(res).toMatchObject({ status: 404, text: "nope", url: spec.url });
		expect(res.headers["x-thing"]).toBe("1");
		const [req] = server.requests;
		expect(req).toMatchObject({ method: "POST", path: "/p?q=1", body: '{"a":1}' });
		expect(req!.headers).toMatchObject({ "content-type": "application/json", "x-api-key": "k" });
		expect(req!.headers["accept-encoding"]).toContain("gzip");
	});

	it.each([
		["gzip", gzipSync],
		["br", brotliCompressSync],
		["deflate", deflateSync],
		["deflate", deflateRawSync],
	])("decompresses %s bodies", async (encoding, compress) => {
		const text = JSON.stringify({ hello: "wörld".repeat(200) });
		server.respond({ body: compress(Buffer.from(text)), headers: { "content-encoding": encoding } });
		expect((await send(get(), options())).text).toBe(text);
	});

	it("stops a body over maxBytes with a parse error, declared or chunked", async () => {
		server.respond({ body: "x".repeat(5000) }, { body: "y".repeat(5000), chunkSize: 100 });
		const declared = await failureOf(send(get(), { ...options(), maxBytes: 1000 }));
		expect(declared).toMatchObject({ kind: "parse", code: "too-large" });
		const chunked = await failureOf(send(get(), { ...options(), maxBytes: 1000 }));
		expect(chunked).toMatchObject({ kind: "parse", code: "too-large" });
	});

	it("stops a gzip bomb at the cap counted after decompression", async () => {
		const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024));
		expect(bomb.length).toBeLessThan(50_000);
		server.respond({ body: bomb, headers: { "content-encoding": "gzip" } });
		const error = await failureOf(send(get(), { ...options(), maxBytes: 64 * 1024 }));
		expect(error).toMatchObject({ kind: "parse", code: "too-large" });
	});

	it("turns a corrupt gzip body into a parse error", async () => {
		server.respond({ body: Buffer.from("not gzip at all"), headers: { "content-encoding": "gzip" } });
		expect(await failureOf(send(get(), options()))).toMatchObject({ kind: "parse", code: "bad-encoding" });
	});

	it("turns a reset before the answer into a transport error", async () => {
		server.respond({ resetBeforeHeaders: true });
		const error = await failureOf(send(get(), options()));
		expect(error.kind).toBe("transport");
		// No key verdict: a transport failure moves on to the next provider, never a same-key retry.
		expect(classifyError(error)).toEqual({ errorClass: "transport", reason: expect.any(String), code: error.code });
	});

	it("turns a refused connection into a transport error", async () => {
		const closed = createServer();
		await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
		const { port } = closed.address() as AddressInfo;
		await new Promise((done) => closed.close(done));
		const error = await failureOf(send({ method: "GET", url: `http://127.0.0.1:${port}/`, headers: {} }, options()));
		expect(error).toMatchObject({ kind: "transport", code: "econnrefused" });
	});

	it("turns a reset in the middle of the body into a parse error with the status", async () => {
		server.respond({ body: JSON.stringify({ results: "z".repeat(4000) }), cutAfterBytes: 100 });
		const error = await failureOf(send(get(), options()));
		expect(error).toMatchObject({ kind: "parse", code: "body-truncated", status: 200 });
	});

	it("maps the abort reason: plain abort → cancelled, TimeoutError → timeout, WebAccessError → its kind", async () => {
		const reasons = [
			[undefined, "cancelled"],
			[new DOMException("deadline", "TimeoutError"), "timeout"],
			[new WebAccessError("hedge won", { kind: "timeout", code: "x" }), "timeout"],
		] as const;
		for (const [reason, kind] of reasons) {
			server.reset();
			server.respond({ hang: true, body: "{" });
			const controller = new AbortController();
			const pending = failureOf(send(get(), { provider: "test", signal: controller.signal }));
			while (server.requests.length === 0) await new Promise((done) => setTimeout(done, 5));
			controller.abort(reason);
			expect((await pending).kind).toBe(kind);
		}
	});

	it("leaves no listener on the caller's signal once a request is over, answered or failed", async () => {
		const controller = new AbortController();
		const { signal } = controller;
		server.respond({ json: { ok: true } }, { resetBeforeHeaders: true }, { sse: "data: 1\n\n" });
		await send(get(), { provider: "t", signal });
		await failureOf(send(get(), { provider: "t", signal }));
		for await (const _ of sendSse(get(), { provider: "t", signal })) void _;
		expect(getEventListeners(signal, "abort")).toHaveLength(0);
	});

	it("ends a stream aborted between events with the abort's kind", async () => {
		server.respond({ sse: "data: first\n\n", hang: true });
		const controller = new AbortController();
		const events: string[] = [];
		const reading = (async () => {
			for await (const event of sendSse(get(), { provider: "t", signal: controller.signal })) {
				events.push(event.data);
				controller.abort(new DOMException("deadline", "TimeoutError"));
			}
		})();
		expect((await failureOf(reading)).kind).toBe("timeout");
		expect(events).toEqual(["first"]);
	});

	it("sends nothing when the signal is already aborted", async () => {
		const controller = new AbortController();
		controller.abort();
		expect((await failureOf(send(get(), { provider: "t", signal: controller.signal }))).kind).toBe("cancelled");
		expect(server.requests).toHaveLength(0);
	});
});

describe("readJson / httpStatusError / sendJson", () => {
	const response = (status: number, text: string, headers: Record<string, string> = {}) => ({
		status,
		text,
		headers,
		url: "https://api.example.org/search?key=abc",
	});

	it("names an HTML page and a truncated body as parse errors with the status", () => {
		const html = () => readJson(response(200, "<!DOCTYPE html><html><body>Login</body></html>"), "p");
		expect(html).toThrow("HTTP 200: HTML page instead of JSON");
		expect(() => readJson(response(200, '{"a": [1, 2'), "p")).toThrow("HTTP 200: truncated or invalid JSON");
		expect(() => readJson(response(204, ""), "p")).toThrow(/HTTP 204/);
		expect(readJson(response(200, '{"a":1}'), "p")).toEqual({ a: 1 });
	});

	it.each([
		[429, "rate-limit", "rate-limited"],
		[401, "auth", "exhausted"],
		[403, "auth", "exhausted"],
		[402, "quota", "exhausted"],
		[500, "server", undefined],
		[503, "server", undefined],
		[400, "bad-request", undefined],
		[404, "bad-request", undefined],
		[422, "bad-request", undefined],
	])("classifies status %i as %s", (status, kind, keyVerdict) => {
		const error = httpStatusError(response(status, ""), "p");
		expect(error).toMatchObject({ kind, status, code: `http-${status}`, url: "https://api.example.org/search" });
		expect(classifyError(error).errorClass).toBe(kind);
		expect(classifyError(error).keyVerdict).toBe(keyVerdict);
	});

	it("reads Retry-After as seconds, as an HTTP date, and retry-after-ms", () => {
		expect(retryAfterMs({ "retry-after": "12" })).toBe(12_000);
		expect(retryAfterMs({ "retry-after-ms": "250" })).toBe(250);
		const inAMinute = new Date(Date.now() + 60_000).toUTCString();
		expect(retryAfterMs({ "retry-after": inAMinute })).toBeGreaterThan(50_000);
		expect(retryAfterMs({ "retry-after": "soon" })).toBeUndefined();
		expect(httpStatusError(response(429, "", { "retry-after": "3" }), "p").retryAfterMs).toBe(3000);
	});

	it("puts the backend's message from a JSON envelope in one line", () => {
		const body = JSON.stringify({ error: { message: "Invalid\nrequest:  bad field" } });
		expect(httpStatusError(response(400, body), "p").message).toBe("HTTP 400 bad request: Invalid request: bad field");
		expect(httpStatusError(response(502, "<html><body>x</body></html>"), "p").message).toBe(
			"HTTP 502 server error: HTML error page",
		);
	});

	it("masks the key when a backend echoes it in an error message", async () => {
		const secret = "sk-live-0123456789abcdef";
		server.respond({ status: 401, json: { error: `Invalid API key ${secret}` } });
		const error = await failureOf(sendJson({ ...get(), headers: { authorization: `Bearer ${secret}` } }, options()));
		expect(error.message).toBe("HTTP 401 unauthorized: Invalid API key [key]");
		expect(classifyError(error).reason).not.toContain(secret);
	});

	it("returns parsed JSON for a 2xx answer, gzip included", async () => {
		server.respond({ json: { ok: true }, gzip: true });
		const { res, json } = await sendJson(get(), options());
		expect(json).toEqual({ ok: true });
		expect(res.status).toBe(200);
	});
});

describe("sendSse", () => {
	async function collect(spec: HttpRequestSpec) {
		const events = [];
		for await (const event of sendSse(spec, options())) events.push(event);
		return events;
	}

	it("streams events in order, asking for text/event-stream", async () => {
		server.respond({ sse: ": hi\r\nevent: a\r\ndata: 1\r\n\r\ndata: 2\r\ndata: 3\r\n\r\n" });
		expect(await collect(get())).toEqual([{ event: "a", data: "1" }, { data: "2\n3" }]);
		expect(server.requests[0]!.headers.accept).toBe("text/event-stream");
	});

	it("throws the status error for a non-2xx answer", async () => {
		server.respond({ status: 429, json: { error: { message: "slow down" } }, headers: { "retry-after": "2" } });
		const error = await failureOf(collect(get()));
		expect(error).toMatchObject({
			kind: "rate-limit",
			retryAfterMs: 2000,
			message: "HTTP 429 rate limited: slow down",
		});
	});

	it("throws sse-truncated when the stream is cut mid-event", async () => {
		server.respond({ sse: 'data: {"a":1}\n\ndata: {"b"' });
		const events: unknown[] = [];
		const error = await failureOf(
			(async () => {
				for await (const event of sendSse(get(), options())) events.push(event);
			})(),
		);
		expect(events).toEqual([{ data: '{"a":1}' }]);
		expect(error).toMatchObject({ kind: "parse", code: "sse-truncated" });
	});

	it("rejects an HTML page served instead of a stream", async () => {
		server.respond({ body: "<html><body>maintenance</body></html>", headers: { "content-type": "text/html" } });
		expect(await failureOf(collect(get()))).toMatchObject({ kind: "parse", code: "not-event-stream" });
	});
});

describe("classifyError", () => {
	it("maps foreign errors by name and code", () => {
		expect(classifyError(new DOMException("t", "TimeoutError")).errorClass).toBe("timeout");
		expect(classifyError(new DOMException("a", "AbortError")).errorClass).toBe("cancelled");
		expect(classifyError(Object.assign(new Error("x"), { code: "ECONNRESET" })).errorClass).toBe("transport");
		expect(classifyError(new SyntaxError("Unexpected token")).errorClass).toBe("parse");
		expect(classifyError(new WebAccessError("bad", { kind: "config", code: "c" })).errorClass).toBe("bad-request");
	});
});
