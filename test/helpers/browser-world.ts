// Shared by the browser provider's tests: the installed Chromium (missing, the suite fails with the fix; it is never
// skipped), call contexts and requests for a `browser` provider, a server that counts the TCP connections it
// accepts (a refused target must stay at 0), bounded polling, and a search for files a download would leave.

import { readdirSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import { isWebAccessError, type WebAccessError } from "../../engine/errors.ts";
import type { FetchRequest } from "../../engine/request-types.ts";
import { findBrowser } from "../../providers/browser/find.ts";
import type { CallContext } from "../../providers/contract.ts";
import type { FetchGuardSettings } from "../../providers/direct/guard.ts";

/** The fetch guard opened for 127.0.0.1 only: 127.0.0.2 stands for every other private address. */
export const ONLY_LOOPBACK_ONE: FetchGuardSettings = { allowRanges: ["127.0.0.1/32"] };

/** The browser the tests drive; throws (failing the suite, as CI must) when none is installed. */
export function requireBrowser(): string {
	const found = findBrowser(undefined);
	if (!found.path) {
		throw new Error(
			`the browser tests need Chromium (${found.missing ?? "not found"}): apt-get install -y chromium, or set $PI_WEB_ACCESS_BROWSER`,
		);
	}
	return found.path;
}

export interface BrowserCallOptions {
	guard?: FetchGuardSettings;
	timeoutMs?: number;
	signal?: AbortSignal;
}

export function browserCall(options: Record<string, unknown> = {}, call: BrowserCallOptions = {}): CallContext {
	return {
		config: { name: "browser", type: "browser", options },
		signal: call.signal ?? new AbortController().signal,
		timeoutMs: call.timeoutMs ?? 20_000,
		onProgress: () => {},
		fetchGuard: call.guard ?? ONLY_LOOPBACK_ONE,
	};
}

export const fetchRequest = (url: string, extra: Partial<FetchRequest> = {}): FetchRequest => ({
	kind: "fetch",
	url,
	offset: 0,
	maxChars: 20_000,
	...extra,
});

export async function failureOf(promise: Promise<unknown>): Promise<WebAccessError> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	if (!isWebAccessError(error)) throw new Error(`expected a WebAccessError, got ${String(error)}`);
	return error;
}

export interface CountingServer {
	host: string;
	port: number;
	/** TCP connections accepted, whatever was sent on them. */
	connections: number;
	/** Request paths and WebSocket upgrades seen. */
	requests: string[];
	close(): Promise<void>;
}

/** An http server answering everything with a small page (and accepting upgrades), counting its connections. */
export async function startCountingServer(host: string): Promise<CountingServer> {
	const sockets = new Set<Socket>();
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		counter.requests.push(req.url ?? "");
		res.writeHead(200, { "content-type": "text/html" }).end("<p>private answer</p>");
	});
	server.on("connection", (socket: Socket) => {
		counter.connections++;
		sockets.add(socket);
		socket.once("close", () => sockets.delete(socket));
	});
	server.on("upgrade", (req: IncomingMessage, socket: Socket) => {
		counter.requests.push(`upgrade ${req.url ?? ""}`);
		socket.destroy();
	});
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	const counter: CountingServer = {
		host,
		port: (server.address() as AddressInfo).port,
		connections: 0,
		requests: [],
		close: () => {
			for (const socket of sockets) socket.destroy();
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
	return counter;
}

/** Polls `check` every `everyMs` until it holds or `tries` run out; returns whether it held. */
export async function eventually(check: () => boolean, tries = 100, everyMs = 50): Promise<boolean> {
	for (let i = 0; i < tries; i++) {
		if (check()) return true;
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
	return check();
}

/** Files under `dir` (5 levels) written since `since` that look like a download: its name, its size or a partial. */
export function downloadsIn(dir: string, since: number, name: string, bytes: number, depth = 5): string[] {
	const found: string[] = [];
	let entries: string[];
	try {
		entries = readdirSync(dir);
	} catch {
		return found;
	}
	for (const entry of entries) {
		const path = join(dir, entry);
		try {
			const stat = statSync(path);
			if (stat.isDirectory()) {
				if (depth > 0) found.push(...downloadsIn(path, since, name, bytes, depth - 1));
			} else if (stat.mtimeMs >= since && (entry === name || entry.endsWith(".crdownload") || stat.size === bytes)) {
				found.push(path);
			}
		} catch {
			// removed meanwhile
		}
	}
	return found;
}
