// A local HTTP forward proxy for a headless browser: every CONNECT tunnel and absolute-URI request a rendered page
// makes passes the direct fetcher's private-network guard (providers/direct/guard.ts) and goes to exactly the checked
// address, straight or as `CONNECT <address>:<port>` through the user's proxy (providers/direct/proxy-connect.ts).

import { STATUS_CODES } from "node:http";
import { type AddressInfo, createServer, type Socket, connect as tcpConnect } from "node:net";
import { WebAccessError } from "../../engine/errors.ts";
import type { ProxySettings } from "../contract.ts";
import {
	compileGuard,
	defaultLookup,
	type FetchGuardSettings,
	type HostLookup,
	type LookupAddress,
	parseIp,
	pinnedLookup,
	resolveGuarded,
} from "../direct/guard.ts";
import { openTunnel, resolveBeforeProxy } from "../direct/proxy-connect.ts";
import { proxyForHost } from "../http/proxy.ts";
import { closingAnswer, originHead, parseHead, parseTarget, type RequestHead, type Target } from "./proxy-heads.ts";

export const GUARD_PROXY_DEFAULTS = {
	connectTimeoutMs: 10_000,
	/** A request head (request line and headers) longer than this gets 431. */
	maxHeadBytes: 16 * 1024,
	/** An answer head longer than this ends the connection (browsers allow heads of up to 256 KB; few need 64). */
	maxAnswerHeadBytes: 64 * 1024,
	/** Simultaneous client connections; more are dropped (net.Server maxConnections). */
	maxConnections: 64,
	/** A client must have sent its whole request head by then (a slow head holds a connection for nothing). */
	headTimeoutMs: 10_000,
	/** A connection with no traffic either way for this long is closed. */
	idleTimeoutMs: 60_000,
	/** Refusals kept in stats, the first ones: a hostile page can make them by the thousand. */
	maxRefusedKept: 100,
	/** A host's DNS answer serves its later requests this long (a proxy lives one render); checked on each use. */
	dnsCacheMs: 30_000,
	/** Hosts whose answers are kept at once; past it the one asked longest ago is dropped. */
	maxHostsKept: 256,
};

export interface GuardProxyOptions {
	/** Config `fetchGuard`. */
	guard?: FetchGuardSettings;
	/** Upstream proxies (CallContext.proxy). */
	proxy?: ProxySettings;
	/** DNS resolution; tests inject answers. */
	lookup?: HostLookup;
	/** Bytes received from the network across all connections (one render); past it every connection is destroyed. */
	maxBytes: number;
	connectTimeoutMs?: number;
	/** GUARD_PROXY_DEFAULTS.dnsCacheMs; 0 asks DNS for every request. */
	dnsCacheMs?: number;
}

export interface GuardProxyStats {
	/** Request heads parsed (one per client connection: after it, the connection is a tunnel or is closed). */
	requests: number;
	/** Targets refused by the guard, unresolvable or not proxied (the first maxRefusedKept); `target` is host:port. */
	refused: Array<{ target: string; reason: string }>;
	/** Bytes received from upstream sockets. */
	bytesIn: number;
	/** maxBytes was passed and every connection destroyed. */
	cut: boolean;
}

export interface GuardProxy {
	/** `http://127.0.0.1:<port>`, for Chromium's `--proxy-server`. */
	url: string;
	stats(): GuardProxyStats;
	/** Destroys every socket and stops listening. */
	close(): Promise<void>;
}

export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
	const guard = compileGuard(options.guard); // a bad CIDR fails here, before anything listens
	const lookup = keptLookup(options.lookup ?? defaultLookup, options.dnsCacheMs ?? GUARD_PROXY_DEFAULTS.dnsCacheMs);
	const connectTimeoutMs = options.connectTimeoutMs ?? GUARD_PROXY_DEFAULTS.connectTimeoutMs;
	const stats: GuardProxyStats = { requests: 0, refused: [], bytesIn: 0, cut: false };
	const sockets = new Set<Socket>();
	let closed = false;

	const track = (socket: Socket) => {
		if (sockets.has(socket)) return;
		sockets.add(socket);
		socket.on("error", () => {}); // a reset is an end like any other; `close` follows and tears down the pair
		socket.once("close", () => sockets.delete(socket));
	};
	const refuse = (target: string, reason: string) => {
		if (stats.refused.length < GUARD_PROXY_DEFAULTS.maxRefusedKept) stats.refused.push({ target, reason });
	};
	const destroyAll = () => {
		for (const socket of sockets) socket.destroy();
	};
	/** Counts upstream bytes; false once the render's byte budget is spent (everything is destroyed then). */
	const received = (bytes: number): boolean => {
		stats.bytesIn += bytes;
		if (stats.bytesIn <= options.maxBytes) return true;
		stats.cut = true;
		destroyAll();
		return false;
	};

	async function upstreamFor(target: Target): Promise<Socket> {
		const route = proxyForHost(target.protocol, target.host, target.port, options.proxy);
		if (route.via === "invalid") {
			const message = `the proxy in ${route.source} cannot be used: ${route.problem}`;
			throw new WebAccessError(message, { kind: "transport", code: "invalid-proxy" });
		}
		if (route.via === "direct") {
			const addresses = await resolveGuarded(target.host, guard, lookup);
			return connectPinned(target, addresses, connectTimeoutMs, track);
		}
		// With the guard off, the proxy resolves the name itself (local DNS may not even see it), as direct does.
		const address = guard.off
			? target.host
			: (await resolveBeforeProxy(target.host, guard, lookup, route.proxy))[0]!.address;
		const authority = `${parseIp(address)?.family === 6 ? `[${address}]` : address}:${target.port}`;
		return openTunnel(route.proxy, authority, connectTimeoutMs);
	}

	async function handle(client: Socket, head: RequestHead, rest: Buffer): Promise<void> {
		stats.requests++;
		const target = parseTarget(head);
		if (typeof target === "string") {
			refuse(head.target.slice(0, 200), target);
			return reply(client, 400, target);
		}
		let upstream: Socket;
		try {
			upstream = await upstreamFor(target);
		} catch (error) {
			// WebAccessError messages mask proxy credentials (describeProxy); anything else is reduced to its code.
			const message = error instanceof WebAccessError ? error.message : `connection to ${target.label} failed`;
			const refused = error instanceof WebAccessError && error.kind === "guard";
			if (refused || (error instanceof WebAccessError && error.code === "dns")) refuse(target.label, message);
			return reply(client, refused ? 403 : 502, message, refused);
		}
		track(upstream);
		if (client.destroyed || closed || stats.cut) {
			upstream.destroy();
			return;
		}
		if (head.method === "CONNECT") client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
		else upstream.write(originHead(head, target));
		if (rest.length > 0) upstream.write(rest);
		const answer =
			head.method === "CONNECT" ? (chunk: Buffer) => chunk : closingAnswer(GUARD_PROXY_DEFAULTS.maxAnswerHeadBytes);
		relay(upstream, client, (chunk) => (received(chunk.length) ? answer(chunk) : undefined));
		relay(client, upstream, (chunk) => chunk);
		client.resume();
	}

	const server = createServer((client) => {
		if (closed || stats.cut) return client.destroy();
		track(client);
		client.setTimeout(GUARD_PROXY_DEFAULTS.idleTimeoutMs, () => client.destroy());
		const headTimer = setTimeout(() => client.destroy(), GUARD_PROXY_DEFAULTS.headTimeoutMs);
		client.once("close", () => clearTimeout(headTimer));
		let buffered = Buffer.alloc(0);
		const onData = (chunk: Buffer) => {
			buffered = Buffer.concat([buffered, chunk]);
			const end = buffered.indexOf("\r\n\r\n");
			const tooLarge = (end === -1 ? buffered.length : end + 4) > GUARD_PROXY_DEFAULTS.maxHeadBytes;
			if (end === -1 && !tooLarge) return;
			client.removeListener("data", onData);
			clearTimeout(headTimer);
			if (tooLarge) return reply(client, 431, "request head too large");
			client.pause(); // the rest waits in the socket until the upstream is connected
			const head = parseHead(buffered.subarray(0, end).toString("latin1"));
			if (!head) return reply(client, 400, "malformed request head");
			handle(client, head, buffered.subarray(end + 4)).catch(() => client.destroy());
		};
		client.on("data", onData);
	});
	server.maxConnections = GUARD_PROXY_DEFAULTS.maxConnections;
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		stats: () => ({ ...stats, refused: stats.refused.map((entry) => ({ ...entry })) }),
		close: () => {
			closed = true;
			destroyAll();
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
}

/**
 * `lookup` answering a host from one look-up for `keepMs`, shared by the requests that ask at once (a page starts
 * most of its sub-resources together, each on a connection of its own). Only the answer is kept: the guard checks it
 * on every use, and every connection goes to an address it checked. A failed look-up is not kept.
 */
function keptLookup(lookup: HostLookup, keepMs: number): HostLookup {
	if (keepMs <= 0) return lookup;
	const kept = new Map<string, { at: number; answer: Promise<LookupAddress[]> }>();
	return (host) => {
		const key = host.toLowerCase();
		const entry = kept.get(key);
		if (entry && Date.now() - entry.at < keepMs) return entry.answer;
		const answer = lookup(host);
		// Set again, an expired host moves to the end: the first key is the one asked longest ago.
		kept.delete(key);
		if (kept.size >= GUARD_PROXY_DEFAULTS.maxHostsKept) kept.delete(kept.keys().next().value!);
		kept.set(key, { at: Date.now(), answer });
		answer.catch(() => {
			if (kept.get(key)?.answer === answer) kept.delete(key);
		});
		return answer;
	};
}

/** Pipes `from` into `to` with backpressure; `pass` maps each chunk, or ends both sockets with undefined. */
function relay(from: Socket, to: Socket, pass: (chunk: Buffer) => Buffer | undefined): void {
	from.on("data", (chunk: Buffer) => {
		const out = pass(chunk);
		if (out === undefined) return void from.destroy();
		if (out.length > 0 && !to.write(out)) from.pause();
	});
	to.on("drain", () => from.resume());
	from.once("end", () => to.end());
	// A reset passes on as a reset: the browser must see a body cut off, not a clean end (render.ts reports it).
	from.once("close", (hadError) => (hadError && !to.destroyed ? to.resetAndDestroy() : to.destroy()));
	from.setTimeout(GUARD_PROXY_DEFAULTS.idleTimeoutMs, () => from.destroy());
}

/** Answers the client itself and closes; what else the client sends is read and dropped, never forwarded. */
function reply(client: Socket, status: number, reason: string, refused = false): void {
	const body = `${reason}\n`;
	const head = [
		`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`,
		"Content-Type: text/plain; charset=utf-8",
		`Content-Length: ${Buffer.byteLength(body)}`,
		"Connection: close",
		// The render reads these off a document answered here, and fails as direct would (render.ts proxyAnswer).
		`X-Pi-Web-Access-Proxy: ${refused ? "refused" : "failed"}`,
		`X-Pi-Web-Access-Reason: ${reason.replace(/[^\x20-\x7e]/g, "?").slice(0, 500)}`,
		...(refused ? [`X-Pi-Web-Access-Refused: ${reason.replace(/[^\x20-\x7e]/g, "?")}`] : []),
	];
	client.resume();
	client.end(`${head.join("\r\n")}\r\n\r\n${body}`);
}

/** A TCP connection to the checked addresses only (a pinned lookup, no second DNS query), bounded in time. */
function connectPinned(target: Target, addresses: LookupAddress[], timeoutMs: number, track: (s: Socket) => void) {
	const pins = new Map([[target.host.toLowerCase(), addresses]]);
	const socket = tcpConnect({ host: target.host, port: target.port, lookup: pinnedLookup(pins), timeout: timeoutMs });
	track(socket); // close() reaches a socket still connecting
	return new Promise<Socket>((resolve, reject) => {
		let settled = false;
		const fail = (what: string, code: string) => {
			if (settled) return;
			settled = true;
			socket.destroy();
			const kind = code === "connect-timeout" ? "timeout" : "transport";
			reject(new WebAccessError(`connection to ${target.label} ${what}`, { kind, code }));
		};
		socket.once("timeout", () => fail(`timed out after ${timeoutMs} ms`, "connect-timeout"));
		socket.once("error", (error: NodeJS.ErrnoException) =>
			fail(`failed (${error.code ?? "error"})`, (error.code ?? "transport").toLowerCase()),
		);
		socket.once("close", () => fail("closed", "closed"));
		socket.once("connect", () => {
			settled = true;
			resolve(socket);
		});
	});
}
