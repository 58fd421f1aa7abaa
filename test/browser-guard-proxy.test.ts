// The browser's guard proxy on real loopback sockets: what it forwards (origin-form requests, CONNECT tunnels,
// WebSocket upgrades), what it refuses before connecting (private addresses, metadata, rebinding answers), its caps
// (bytes, head size, connections), upstream proxies asked for the checked address, and close().

import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type GuardProxy, type GuardProxyOptions, startGuardProxy } from "../providers/browser/guard-proxy.ts";
import { compileGuard, type FetchGuardSettings, type HostLookup, resolveGuarded } from "../providers/direct/guard.ts";
import { proxySettings } from "../providers/http/proxy.ts";
import { deadPort, type ProxyServer, startProxy } from "./helpers/proxy-server.ts";

const BIG_BYTES = 200_000;
const NARROW = { allowedRanges: ["127.0.0.1/32"] };

interface Site {
	port: number;
	/** TCP connections accepted: a refused target must stay at 0. */
	connections: number;
	requests: Array<{ url: string; headers: IncomingHttpHeaders }>;
	sockets: Socket[];
	close(): Promise<void>;
}

/** An http server that answers /page, /big (BIG_BYTES) and a WebSocket-style upgrade that echoes what it gets. */
async function startSite(host: string): Promise<Site> {
	const server = createServer((req, res) => {
		site.requests.push({ url: req.url ?? "", headers: req.headers });
		const body = req.url === "/big" ? "x".repeat(BIG_BYTES) : "hello";
		res.writeHead(200, { "content-type": "text/plain", "content-length": body.length }).end(body);
	});
	server.on("connection", (socket: Socket) => {
		site.connections++;
		site.sockets.push(socket);
	});
	server.on("upgrade", (req, socket: Socket) => {
		site.requests.push({ url: req.url ?? "", headers: req.headers });
		socket.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n");
		socket.on("data", (chunk) => socket.write(chunk));
	});
	await new Promise<void>((done) => server.listen(0, host, done));
	const site: Site = {
		port: (server.address() as AddressInfo).port,
		connections: 0,
		requests: [],
		sockets: [],
		close: () => {
			for (const socket of site.sockets) socket.destroy();
			return new Promise((done) => server.close(() => done()));
		},
	};
	return site;
}

/** A raw client of the proxy, sending `first`: what it answered so far, and when it closed. */
function client(proxy: GuardProxy, first?: string) {
	const socket = connect(Number(new URL(proxy.url).port), "127.0.0.1");
	if (first !== undefined) socket.write(first);
	let text = "";
	socket.on("data", (chunk: Buffer) => {
		text += chunk.toString("latin1");
	});
	socket.on("error", () => {});
	const closed = new Promise<string>((done) => socket.on("close", () => done(text)));
	const until = (needle: string) =>
		new Promise<string>((done, fail) => {
			const check = () => text.includes(needle) && done(text);
			socket.on("data", check);
			check();
			closed.then(() => fail(new Error(`closed before "${needle}" arrived: ${text}`)));
		});
	return { socket, closed, until, send: (data: string) => socket.write(data) };
}

const exchange = (proxy: GuardProxy, data: string) => client(proxy, data).closed;

/** DNS of the test world: site.test is the loopback site; the others are what a hostile page would use. */
const lookup: HostLookup = async (host) => {
	if (host === "site.test") return [{ address: "127.0.0.1", family: 4 }];
	if (host === "evil.test") return [{ address: "10.0.0.1", family: 4 }];
	if (host === "mixed.test")
		return [
			{ address: "93.184.216.34", family: 4 },
			{ address: "127.0.0.2", family: 4 },
		];
	throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};

/** The test world's DNS, noting each host it is asked for. */
function countingLookup(): { asked: string[]; counting: HostLookup } {
	const asked: string[] = [];
	return {
		asked,
		counting: (host) => {
			asked.push(host);
			return lookup(host);
		},
	};
}

let site: Site;
let other: Site;
let upstream: ProxyServer;
const started: GuardProxy[] = [];
const start = async (options: Partial<GuardProxyOptions> = {}) => {
	const proxy = await startGuardProxy({ guard: NARROW, lookup, maxBytes: 1_000_000, ...options });
	started.push(proxy);
	return proxy;
};

beforeAll(async () => {
	[site, other, upstream] = await Promise.all([startSite("127.0.0.1"), startSite("127.0.0.2"), startProxy()]);
});
afterAll(() => Promise.all([site.close(), other.close(), upstream.close()]));
afterEach(async () => {
	await Promise.all(started.splice(0).map((proxy) => proxy.close()));
	site.requests.length = 0;
	upstream.clear();
});

/** The guard's own message for a host (what the direct fetcher would say), as the reason the proxy must record. */
const refusal = (host: string, guard: FetchGuardSettings = NARROW) =>
	resolveGuarded(host, compileGuard(guard), lookup).then(
		() => expect.fail(`${host} should be refused`),
		(error: Error) => error.message,
	);

describe("the browser's guard proxy", () => {
	it("forwards a plain http request in origin-form without proxy headers, counting what it received", async () => {
		const proxy = await start();
		const answer = await exchange(
			proxy,
			`GET http://127.0.0.1:${site.port}/page?q=1 HTTP/1.1\r\nHost: wrong.test\r\nProxy-Connection: keep-alive\r\n` +
				"Proxy-Authorization: Basic c2VjcmV0\r\nKeep-Alive: 5\r\nConnection: keep-alive\r\n\r\n",
		);
		expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nhello$/);
		expect(site.requests).toEqual([
			{ url: "/page?q=1", headers: { host: `127.0.0.1:${site.port}`, connection: "close" } },
		]);
		// The client got the site's bytes plus the one header the proxy adds to the answer (see the keep-alive test).
		const bytesIn = answer.length - "Proxy-Connection: close\r\n".length;
		expect(proxy.stats()).toEqual({ requests: 1, refused: [], bytesIn, cut: false });
	});

	it("tunnels CONNECT to the checked address, carrying bytes sent before its 200", async () => {
		const proxy = await start();
		const answer = await exchange(
			proxy,
			`CONNECT 127.0.0.1:${site.port} HTTP/1.1\r\nHost: x\r\n\r\nGET /page HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
		);
		expect(answer).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK\r\n[\s\S]*hello$/);
		expect(site.requests.map((r) => r.url)).toEqual(["/page"]);
	});

	it("refuses 127.0.0.2 by CONNECT and by absolute URI with 403 and the guard's reason; nothing connects there", async () => {
		const proxy = await start();
		const reason = await refusal("127.0.0.2");
		expect(reason).toMatch(/^refused 127\.0\.0\.2 \(loopback\) for 127\.0\.0\.2: /);
		const tunnel = await exchange(proxy, `CONNECT 127.0.0.2:${other.port} HTTP/1.1\r\n\r\n`);
		const plain = await exchange(proxy, `GET http://127.0.0.2:${other.port}/ HTTP/1.1\r\n\r\n`);
		for (const answer of [tunnel, plain]) {
			expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
			expect(answer).toContain(`\r\nX-Pi-Web-Access-Refused: ${reason}\r\n`);
			expect(answer.endsWith(`\r\n\r\n${reason}\n`)).toBe(true);
		}
		const target = `127.0.0.2:${other.port}`;
		expect(proxy.stats().refused).toEqual(Array(2).fill({ target, reason }));
		expect(other.connections).toBe(0);
	});

	it("refuses cloud metadata, a name answering 10.0.0.1 and a name mixing public and private answers", async () => {
		const proxy = await start();
		await exchange(proxy, "CONNECT 169.254.169.254:80 HTTP/1.1\r\n\r\n");
		await exchange(proxy, "GET http://evil.test/latest HTTP/1.1\r\n\r\n");
		await exchange(proxy, `CONNECT mixed.test:${other.port} HTTP/1.1\r\n\r\n`);
		expect(proxy.stats().refused).toEqual([
			{ target: "169.254.169.254:80", reason: await refusal("169.254.169.254") },
			{ target: "evil.test:80", reason: await refusal("evil.test") },
			{ target: `mixed.test:${other.port}`, reason: await refusal("mixed.test") },
		]);
		expect(proxy.stats().refused[2]?.reason).toMatch(/^refused 127\.0\.0\.2 \(loopback\) for mixed\.test: /);
		expect(other.connections).toBe(0);
		// An allowed range never re-allows a metadata address: only allowPrivate does.
		const ranged = await start({ guard: { allowedRanges: ["169.254.0.0/16"] } });
		expect(await exchange(ranged, "CONNECT 169.254.169.254:80 HTTP/1.1\r\n\r\n")).toMatch(/^HTTP\/1\.1 403 /);
	});

	it("answers 502 to a name that does not resolve and 400 to what is not a proxy request, recording both", async () => {
		const proxy = await start();
		expect(await exchange(proxy, "GET http://nowhere.test/ HTTP/1.1\r\n\r\n")).toMatch(/^HTTP\/1\.1 502 /);
		expect(await exchange(proxy, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
		expect(await exchange(proxy, "GET https://site.test/ HTTP/1.1\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
		expect(proxy.stats().refused).toEqual([
			{ target: "nowhere.test:80", reason: "DNS lookup failed for nowhere.test (ENOTFOUND)" },
			{ target: "/", reason: "an absolute http:// URL is expected (a proxy request)" },
			{ target: "https://site.test/", reason: "scheme https: is not proxied (http:// requests and CONNECT only)" },
		]);
	});

	it("answers a plain request with Connection: close even when the server keeps the connection alive", async () => {
		const stubborn = createTcpServer((socket) =>
			socket.once("data", () =>
				socket.write(
					"HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 200 OK\r\nConnection: keep-alive\r\n" +
						"Keep-Alive: timeout=60\r\nContent-Length: 2\r\n\r\nok",
				),
			),
		);
		await new Promise<void>((done) => stubborn.listen(0, "127.0.0.1", done));
		const proxy = await start();
		const c = client(proxy, `GET http://127.0.0.1:${(stubborn.address() as AddressInfo).port}/ HTTP/1.1\r\n\r\n`);
		expect(await c.until("ok")).toBe(
			"HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n" +
				"Connection: close\r\nProxy-Connection: close\r\n\r\nok",
		);
		c.socket.destroy();
		await new Promise((done) => stubborn.close(done));
	});

	it("forwards a WebSocket upgrade over plain http and then relays raw bytes both ways", async () => {
		const proxy = await start();
		const c = client(
			proxy,
			`GET http://site.test:${site.port}/ws HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
		);
		await c.until("\r\n\r\n");
		c.send("ping-frame");
		expect(await c.until("ping-frame")).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n[\s\S]*\r\n\r\nping-frame$/);
		expect(site.requests[0]).toMatchObject({ url: "/ws", headers: { connection: "Upgrade", upgrade: "websocket" } });
		c.socket.destroy();
	});

	it("destroys every connection once the bytes received pass maxBytes, and takes no new ones", async () => {
		const proxy = await start({ maxBytes: 10_000 });
		const idle = client(proxy, `CONNECT 127.0.0.1:${site.port} HTTP/1.1\r\n\r\n`);
		await idle.until("\r\n\r\n");
		const answer = await exchange(proxy, `GET http://127.0.0.1:${site.port}/big HTTP/1.1\r\n\r\n`);
		await idle.closed;
		expect(answer.length).toBeLessThan(BIG_BYTES);
		expect(proxy.stats()).toMatchObject({ cut: true });
		expect(proxy.stats().bytesIn).toBeGreaterThan(10_000);
		expect(await exchange(proxy, `GET http://127.0.0.1:${site.port}/page HTTP/1.1\r\n\r\n`)).toBe("");
	});

	it("answers 431 to a request head over 16 KB and closes, forwarding nothing", async () => {
		const proxy = await start();
		const answer = await exchange(proxy, `GET http://127.0.0.1:${site.port}/ HTTP/1.1\r\nX-Big: ${"a".repeat(20_000)}`);
		expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
		expect(proxy.stats().requests).toBe(0);
		expect(site.requests).toHaveLength(0);
	});

	it("drops client connections past 64 at once", async () => {
		const proxy = await start();
		const clients = Array.from({ length: 65 }, () => client(proxy));
		let dropped = 0;
		await Promise.race(clients.map((c) => c.closed));
		await new Promise((done) => setTimeout(done, 20));
		for (const c of clients) if (c.socket.destroyed) dropped++;
		expect(dropped).toBe(1);
		for (const c of clients) c.socket.destroy();
	});

	it("through an upstream proxy, asks it for CONNECT <checked address>, never for a refused target", async () => {
		const proxy = await start({ proxy: proxySettings(undefined, undefined, { HTTP_PROXY: upstream.url }) });
		const plain = await exchange(proxy, `GET http://site.test:${site.port}/page HTTP/1.1\r\n\r\n`);
		expect(plain).toMatch(/\r\n\r\nhello$/);
		const tunnel = await exchange(
			proxy,
			`CONNECT site.test:${site.port} HTTP/1.1\r\n\r\nGET /page HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
		);
		expect(tunnel).toMatch(/\r\n\r\nhello$/);
		await exchange(proxy, "GET http://evil.test/ HTTP/1.1\r\n\r\n");
		const target = `127.0.0.1:${site.port}`;
		expect(upstream.seen).toEqual(Array(2).fill({ method: "CONNECT", target }));
	});

	it("with the guard off, hands the upstream proxy the name without asking local DNS", async () => {
		const noDns: HostLookup = () => Promise.reject(new Error("local DNS must not be asked"));
		const settings = proxySettings(undefined, undefined, { HTTP_PROXY: upstream.url });
		const proxy = await start({ guard: { allowPrivate: true }, lookup: noDns, proxy: settings });
		expect(await exchange(proxy, `GET http://localhost:${site.port}/page HTTP/1.1\r\n\r\n`)).toMatch(/hello$/);
		expect(upstream.seen).toEqual([{ method: "CONNECT", target: `localhost:${site.port}` }]);
	});

	it("answers 502 for an unreachable upstream proxy without its credentials", async () => {
		const port = await deadPort();
		const settings = proxySettings(`http://carol:t0p-secret@127.0.0.1:${port}`, undefined, {});
		const proxy = await start({ proxy: settings });
		const answer = await exchange(proxy, `GET http://site.test:${site.port}/page HTTP/1.1\r\n\r\n`);
		expect(answer).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
		expect(answer).toContain(`proxy http://***@127.0.0.1:${port} (proxy) could not be reached (ECONNREFUSED)`);
		expect(answer).not.toMatch(/carol|t0p-secret/);
	});

	it("looks a host up once for all its requests, at once and after, straight or through a proxy", async () => {
		const { asked, counting } = countingLookup();
		const proxy = await start({ lookup: counting });
		const get = () => exchange(proxy, `GET http://site.test:${site.port}/page HTTP/1.1\r\n\r\n`);
		const answers = await Promise.all([get(), get(), get()]);
		answers.push(await get());
		answers.push(
			await exchange(
				proxy,
				`CONNECT site.test:${site.port} HTTP/1.1\r\n\r\nGET /page HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
			),
		);
		for (const answer of answers) expect(answer).toMatch(/\r\n\r\nhello$/);
		const viaProxy = await start({
			lookup: counting,
			proxy: proxySettings(undefined, undefined, { HTTP_PROXY: upstream.url }),
		});
		const before = asked.length;
		for (let i = 0; i < 3; i++) {
			expect(await exchange(viaProxy, `GET http://site.test:${site.port}/page HTTP/1.1\r\n\r\n`)).toMatch(/hello$/);
		}
		expect(asked).toEqual(["site.test", "site.test"]);
		expect(asked.length - before).toBe(1);
	});

	it("asks DNS again for a host whose look-up failed, and once dnsCacheMs has passed", async () => {
		const { asked, counting } = countingLookup();
		const proxy = await start({ lookup: counting });
		for (let i = 0; i < 2; i++) {
			expect(await exchange(proxy, "GET http://nowhere.test/ HTTP/1.1\r\n\r\n")).toMatch(/^HTTP\/1\.1 502 /);
		}
		const unkept = await start({ lookup: counting, dnsCacheMs: 0 });
		for (let i = 0; i < 2; i++) {
			expect(await exchange(unkept, `GET http://site.test:${site.port}/page HTTP/1.1\r\n\r\n`)).toMatch(/hello$/);
		}
		expect(asked).toEqual(["nowhere.test", "nowhere.test", "site.test", "site.test"]);
	});

	it("close() ends open tunnels on both sides", async () => {
		const proxy = await start();
		const c = client(proxy, `CONNECT 127.0.0.1:${site.port} HTTP/1.1\r\n\r\nGET /page HTTP/1.1\r\nHost: x\r\n\r\n`);
		await c.until("hello");
		const far = site.sockets.at(-1)!;
		expect(far.destroyed).toBe(false);
		await proxy.close();
		await c.closed;
		if (!far.destroyed) await once(far, "close");
		expect(far.destroyed).toBe(true);
	});
});
