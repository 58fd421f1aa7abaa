// A loopback backend (node:http on 127.0.0.1, port 0) that answers each request with a Reply chosen by the test:
// a normal answer, a delayed one, or a fault (reset mid-body, stalled headers or body, an endless or gzip-bomb body).
// It counts the requests still open, so a test can tell whether a client left a connection hanging.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

/** What the server does with one request. */
export type Reply =
	/** A complete answer; `body` as given (a string is UTF-8), content-length set. */
	| { kind: "answer"; status?: number; headers?: Record<string, string>; body?: string | Buffer }
	/** Headers and `sendBytes` of the body (of a larger declared content-length), then the socket is destroyed. */
	| { kind: "reset-mid-body"; contentType: string; body: string; sendBytes: number }
	/** Reads the request and never answers; only the client can end it. */
	| { kind: "stall-headers" }
	/** Headers and the start of a body, then nothing more; only the client can end it. */
	| { kind: "stall-body"; contentType: string; head: string }
	/** A 200 body of `bytes` bytes, chunked or with its length declared up front (stops when the client goes away). */
	| { kind: "endless"; contentType: string; bytes: number; prefix?: string; declared?: boolean }
	/** A small gzip body that inflates to a huge one. */
	| { kind: "gzip"; contentType: string; compressed: Buffer }
	/** A 200 body sent piece by piece, `everyMs` apart (a slow stream; abandoned when the client goes away). */
	| { kind: "trickle"; contentType: string; pieces: string[]; everyMs: number }
	/** `reply` after `ms` (abandoned when the client goes away first). */
	| { kind: "delay"; ms: number; reply: Reply };

export interface SeenRequest {
	method: string;
	path: string;
	/** Lower-case names. */
	headers: Record<string, string>;
	body: string;
	/** True once the response closed before it was finished: the client (or a fault) cut the connection. */
	cut: boolean;
	/** True once the response is closed, finished or not. */
	closed: boolean;
}

export type ReplyFor = (request: SeenRequest, index: number) => Reply;

export interface FaultServer {
	/** `http://127.0.0.1:<port>` */
	url: string;
	requests: SeenRequest[];
	/** Sets how requests from now on are answered. */
	reply(replyFor: ReplyFor | Reply): void;
	/** Requests whose response has not closed yet. */
	open(): number;
	/** Resolves true once no request is open, false when `withinMs` passed first. */
	settled(withinMs?: number): Promise<boolean>;
	/** Closes keep-alive connections that carry no request (the client's pooled sockets close from this end). */
	dropIdle(): void;
	/** Forgets recorded requests. */
	clear(): void;
	close(): Promise<void>;
}

/** A `size`-byte gzip bomb: `inflatedBytes` of repeated HTML compressed (about 1000:1). */
export function gzipBomb(inflatedBytes: number): Buffer {
	const unit = Buffer.from("<p>bomb bomb bomb bomb bomb bomb bomb bomb bomb bomb bomb bomb bomb bomb</p>\n");
	return gzipSync(Buffer.alloc(inflatedBytes, unit), { level: 9 });
}

/** A port nothing listens on (bound and released at once), for "connection refused". */
export async function closedPort(): Promise<string> {
	const server = createServer();
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((done) => server.close(() => done()));
	return `http://127.0.0.1:${port}`;
}

function flat(headers: IncomingMessage["headers"]): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
	}
	return out;
}

const CHUNK = Buffer.alloc(64 * 1024, "a");

/** Writes `bytes` bytes in chunks, respecting backpressure, until done or the response is gone. */
async function pour(res: ServerResponse, bytes: number): Promise<void> {
	let sent = 0;
	while (sent < bytes && !res.closed) {
		const piece = CHUNK.subarray(0, Math.min(CHUNK.length, bytes - sent));
		sent += piece.length;
		if (!res.write(piece)) {
			await new Promise<void>((done) => {
				const go = () => {
					res.off("drain", go);
					res.off("close", go);
					done();
				};
				res.on("drain", go);
				res.on("close", go);
			});
		}
	}
	if (!res.closed) res.end();
}

/** Waits `ms`; false when the response closed meanwhile (the client went away). */
async function pause(res: ServerResponse, ms: number): Promise<boolean> {
	if (res.closed) return false;
	return new Promise<boolean>((done) => {
		const finish = (open: boolean) => {
			clearTimeout(timer);
			res.off("close", closed);
			done(open && !res.writableEnded);
		};
		const closed = () => finish(false);
		const timer = setTimeout(() => finish(true), ms);
		res.on("close", closed);
	});
}

async function answer(res: ServerResponse, reply: Reply): Promise<void> {
	switch (reply.kind) {
		case "answer": {
			const body = typeof reply.body === "string" ? Buffer.from(reply.body) : (reply.body ?? Buffer.alloc(0));
			res.writeHead(reply.status ?? 200, { "content-length": String(body.length), ...reply.headers });
			res.end(body);
			return;
		}
		case "reset-mid-body": {
			const body = Buffer.from(reply.body);
			res.writeHead(200, { "content-type": reply.contentType, "content-length": String(body.length) });
			res.write(body.subarray(0, reply.sendBytes));
			// After the bytes are on the wire, so the client has headers and a partial body when the reset comes.
			setTimeout(() => res.socket?.destroy(), 20);
			return;
		}
		case "stall-headers":
			return;
		case "stall-body":
			res.writeHead(200, { "content-type": reply.contentType });
			res.write(reply.head);
			return;
		case "endless": {
			const prefix = reply.prefix ?? "";
			const length = reply.declared ? { "content-length": String(Buffer.byteLength(prefix) + reply.bytes) } : {};
			res.writeHead(200, { "content-type": reply.contentType, ...length });
			if (prefix) res.write(prefix);
			await pour(res, reply.bytes);
			return;
		}
		case "gzip":
			res.writeHead(200, {
				"content-type": reply.contentType,
				"content-encoding": "gzip",
				"content-length": String(reply.compressed.length),
			});
			res.end(reply.compressed);
			return;
		case "trickle":
			res.writeHead(200, { "content-type": reply.contentType });
			for (const piece of reply.pieces) {
				if (!(await pause(res, reply.everyMs))) return;
				res.write(piece);
			}
			res.end();
			return;
		case "delay":
			if (await pause(res, reply.ms)) await answer(res, reply.reply);
			return;
	}
}

export async function startFaultServer(): Promise<FaultServer> {
	const requests: SeenRequest[] = [];
	let replyFor: ReplyFor = () => ({ kind: "answer", status: 500, body: "fault-server: no reply set" });
	let open = 0;
	const server: Server = createServer((req, res) => {
		open++;
		const chunks: Buffer[] = [];
		const seen: SeenRequest = {
			method: req.method ?? "",
			path: req.url ?? "",
			headers: flat(req.headers),
			body: "",
			cut: false,
			closed: false,
		};
		res.on("close", () => {
			open--;
			seen.closed = true;
			seen.cut = !res.writableFinished;
		});
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("error", () => {});
		req.on("end", () => {
			seen.body = Buffer.concat(chunks).toString("utf8");
			const index = requests.push(seen) - 1;
			if (res.destroyed) return;
			answer(res, replyFor(seen, index)).catch(() => res.socket?.destroy());
		});
	});
	// A client that resets its side mid-request must not crash the test process.
	server.on("clientError", (_error, socket) => socket.destroy());
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		reply(next) {
			replyFor = typeof next === "function" ? next : () => next;
		},
		open: () => open,
		async settled(withinMs = 5000) {
			const until = Date.now() + withinMs;
			while (open > 0 && Date.now() < until) await new Promise((done) => setTimeout(done, 10));
			return open === 0;
		},
		dropIdle() {
			server.closeIdleConnections();
		},
		clear() {
			requests.length = 0;
		},
		close() {
			server.closeAllConnections();
			return new Promise((done) => server.close(() => done()));
		},
	};
}

/** Counts of `process.getActiveResourcesInfo()` by kind. */
export function activeResources(): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
	return counts;
}

/**
 * Waits (up to `withinMs`) for the active resources to come back to `baseline`; returns what is left over. Short
 * Immediates and the timers of the current tick settle within a few turns, so only a real leak remains.
 */
export async function leftoverResources(
	baseline: Record<string, number>,
	withinMs = 5000,
): Promise<Record<string, number>> {
	const until = Date.now() + withinMs;
	for (;;) {
		const now = activeResources();
		const extra: Record<string, number> = {};
		for (const [kind, count] of Object.entries(now)) {
			const over = count - (baseline[kind] ?? 0);
			if (over > 0) extra[kind] = over;
		}
		if (Object.keys(extra).length === 0 || Date.now() >= until) return extra;
		await new Promise((done) => setTimeout(done, 20));
	}
}
