// A real node:http server on 127.0.0.1, port 0, standing in for a backend: it records every request and answers
// from a queue of FakeResponses (status, headers, body or fixture text, gzip, SSE, a cut or a hang).

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

export interface FakeResponse {
	/** Default 200. */
	status?: number;
	headers?: Record<string, string>;
	/** Raw body; a string is sent as UTF-8. */
	body?: string | Buffer;
	/** Serialised as the body with content-type application/json. */
	json?: unknown;
	/** SSE text sent with content-type text/event-stream, in `chunkSize`-character pieces. */
	sse?: string;
	/** Gzip the body and say so in content-encoding. */
	gzip?: boolean;
	/** Send the body in pieces of this many bytes (chunked transfer). */
	chunkSize?: number;
	/** Send only this many body bytes (of a declared full content-length), then destroy the socket. */
	cutAfterBytes?: number;
	/** Wait this long before answering (a slow backend; a hedge's first step). */
	delayMs?: number;
	/** Destroy the socket before answering at all. */
	resetBeforeHeaders?: boolean;
	/** Send headers (and `body` if any) and never finish; the client has to abort. */
	hang?: boolean;
}

export interface RecordedRequest {
	method: string;
	/** Path with query string, as received. */
	path: string;
	/** Lower-case names. */
	headers: Record<string, string>;
	body: string;
}

export interface FakeServer {
	/** `http://127.0.0.1:<port>` */
	url: string;
	requests: RecordedRequest[];
	/** Queues responses, answered in order; an empty queue answers 500 "fake-server: nothing queued". */
	respond(...responses: FakeResponse[]): void;
	/** Clears the queue and the recorded requests. */
	reset(): void;
	close(): Promise<void>;
}

function flat(headers: IncomingMessage["headers"]): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
	}
	return out;
}

function bodyOf(response: FakeResponse): { bytes: Buffer; type?: string } {
	if (response.sse !== undefined) return { bytes: Buffer.from(response.sse), type: "text/event-stream" };
	if (response.json !== undefined)
		return { bytes: Buffer.from(JSON.stringify(response.json)), type: "application/json" };
	if (response.body === undefined) return { bytes: Buffer.alloc(0) };
	const bytes = typeof response.body === "string" ? Buffer.from(response.body) : response.body;
	const looksJson = typeof response.body === "string" && /^\s*[[{]/.test(response.body);
	return { bytes, type: looksJson ? "application/json" : undefined };
}

async function answer(res: ServerResponse, response: FakeResponse): Promise<void> {
	if (response.delayMs !== undefined) await new Promise((done) => setTimeout(done, response.delayMs));
	if (res.destroyed) return;
	if (response.resetBeforeHeaders) {
		res.socket?.destroy();
		return;
	}
	const { bytes: plain, type } = bodyOf(response);
	const bytes = response.gzip ? gzipSync(plain) : plain;
	const headers: Record<string, string> = {};
	if (type) headers["content-type"] = type;
	if (response.gzip) headers["content-encoding"] = "gzip";
	const chunked = response.chunkSize !== undefined || response.sse !== undefined || response.hang;
	if (!chunked) headers["content-length"] = String(bytes.length);
	Object.assign(headers, response.headers);
	res.writeHead(response.status ?? 200, headers);
	if (response.cutAfterBytes !== undefined) {
		res.write(bytes.subarray(0, response.cutAfterBytes));
		setTimeout(() => res.socket?.destroy(), 20);
		return;
	}
	const size = response.chunkSize ?? (response.sse !== undefined ? 64 : bytes.length || 1);
	for (let start = 0; start < bytes.length; start += size) {
		if (!res.write(bytes.subarray(start, start + size))) await new Promise((done) => res.once("drain", done));
		if (response.sse !== undefined || response.chunkSize !== undefined) await new Promise((done) => setImmediate(done));
	}
	if (response.hang) return;
	res.end();
}

export async function startFakeServer(): Promise<FakeServer> {
	const requests: RecordedRequest[] = [];
	let queue: FakeResponse[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => {
			requests.push({
				method: req.method ?? "",
				path: req.url ?? "",
				headers: flat(req.headers),
				body: Buffer.concat(chunks).toString("utf8"),
			});
			const next = queue.shift() ?? { status: 500, body: "fake-server: nothing queued" };
			answer(res, next).catch(() => res.socket?.destroy());
		});
	});
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		respond(...responses) {
			queue.push(...responses);
		},
		reset() {
			queue = [];
			requests.length = 0;
		},
		close() {
			server.closeAllConnections();
			return new Promise((done) => server.close(() => done()));
		},
	};
}
