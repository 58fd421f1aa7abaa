// A loopback Exa stand-in for the overhead and hedge benchmarks: node:http on 127.0.0.1, port 0, answering every
// request with the fixed search fixture after an optional per-request delay; it counts requests and aborts.

import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/** The Exa search fixture the provider contract suite replays (test/fixtures/providers/exa/). */
const FIXTURE = join(import.meta.dirname, "..", "test", "fixtures", "providers", "exa", "search_success.json");

export function exaSearchBody(): string {
	return readFileSync(FIXTURE, "utf8");
}

export interface Backend {
	/** `http://127.0.0.1:<port>` */
	url: string;
	/** Requests whose body was read (answered or not). */
	readonly requests: number;
	/** Requests the client gave up on before the answer went out (hedge losers). */
	readonly aborted: number;
	resetCounts(): void;
	close(): Promise<void>;
}

export interface BackendOptions {
	/** Delay before answering request number `n` (0-based, in arrival order); none by default. */
	delayMs?: (n: number) => number;
	body?: string;
}

export async function startBackend(options: BackendOptions = {}): Promise<Backend> {
	const body = Buffer.from(options.body ?? exaSearchBody());
	let requests = 0;
	let aborted = 0;
	const server: Server = createServer((req, res) => {
		req.on("data", () => {});
		req.on("end", () => {
			const n = requests++;
			const delay = options.delayMs?.(n) ?? 0;
			const answer = () => {
				if (res.destroyed) return;
				res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
				res.end(body);
			};
			if (delay <= 0) {
				answer();
				return;
			}
			const timer = setTimeout(answer, delay);
			res.on("close", () => {
				if (!res.writableEnded) {
					aborted++;
					clearTimeout(timer);
				}
			});
		});
	});
	server.keepAliveTimeout = 30_000;
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		get requests() {
			return requests;
		},
		get aborted() {
			return aborted;
		},
		resetCounts() {
			requests = 0;
			aborted = 0;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
