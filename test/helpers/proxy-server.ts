// A real HTTP proxy on 127.0.0.1 for proxy tests: plain forwarding of absolute-form requests (`GET http://h/p`)
// and CONNECT tunnels, recording what passes through it. Optionally demands Proxy-Authorization (407) or refuses
// CONNECT (403), the two answers real proxies give most often. It forwards to loopback targets only.

import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";

export interface ProxiedRequest {
	method: string;
	/** CONNECT: `host:port` as asked; forwarding: the absolute URL. */
	target: string;
	/** The Proxy-Authorization header, if any. */
	auth?: string;
}

export interface ProxyServer {
	url: string;
	port: number;
	seen: ProxiedRequest[];
	/** When set, requests without exactly this Proxy-Authorization get 407. */
	requireAuth?: string;
	/** When true, CONNECT gets 403. */
	refuseConnect?: boolean;
	/** When true, CONNECT is answered 200 and then nothing (no tunnel): a TLS handshake through it stalls. */
	silentTunnel?: boolean;
	/** When true, CONNECT is never answered. */
	stallConnect?: boolean;
	/** Client connections accepted since the start (or the last clear). */
	accepted: number;
	/** Client connections open now. */
	open(): number;
	clear(): void;
	close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export async function startProxy(): Promise<ProxyServer> {
	const sockets = new Set<Socket>();
	const clients = new Set<Socket>();
	const proxy: ProxyServer = {
		url: "",
		port: 0,
		seen: [],
		accepted: 0,
		open: () => clients.size,
		clear: () => {
			proxy.seen.length = 0;
			proxy.accepted = 0;
		},
		close: () => {
			for (const socket of sockets) socket.destroy();
			server.closeAllConnections();
			return new Promise((done) => server.close(() => done()));
		},
	};
	const authorised = (req: IncomingMessage) =>
		proxy.requireAuth === undefined || req.headers["proxy-authorization"] === proxy.requireAuth;
	const record = (req: IncomingMessage) =>
		proxy.seen.push({
			method: req.method ?? "",
			target: req.url ?? "",
			...(req.headers["proxy-authorization"] ? { auth: String(req.headers["proxy-authorization"]) } : {}),
		});

	const server = createServer((req, res) => {
		record(req);
		if (!authorised(req)) {
			res.writeHead(407, { "proxy-authenticate": 'Basic realm="test"' }).end();
			return;
		}
		let target: URL;
		try {
			target = new URL(req.url ?? "");
		} catch {
			res.writeHead(400).end("absolute-form URL expected");
			return;
		}
		if (!LOOPBACK.has(target.hostname)) {
			res.writeHead(502).end("this test proxy forwards to loopback only");
			return;
		}
		const headers = { ...req.headers };
		delete headers["proxy-authorization"];
		delete headers["proxy-connection"];
		const upstream = httpRequest(
			{
				host: target.hostname,
				port: target.port,
				path: `${target.pathname}${target.search}`,
				method: req.method,
				headers,
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on("error", () => res.writeHead(502).end("upstream failed"));
		req.pipe(upstream);
	});
	server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
		record(req);
		sockets.add(client);
		client.on("close", () => sockets.delete(client));
		client.on("error", () => {});
		if (!authorised(req)) {
			client.end("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n");
			return;
		}
		if (proxy.refuseConnect) {
			client.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
			return;
		}
		// Reading (and dropping) what comes is how a socket sees the other side end; then it closes its side, as a
		// proxy does (the HTTP server's sockets are half-open otherwise).
		if (proxy.stallConnect) return void client.on("end", () => client.end()).resume();
		if (proxy.silentTunnel) {
			client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
			return;
		}
		const match = (req.url ?? "").match(/^\[?([^\]]+?)\]?:(\d+)$/);
		if (!match || !LOOPBACK.has(match[1]!)) {
			client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
			return;
		}
		const upstream = connect(Number(match[2]), match[1]!, () => {
			client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
			if (head.length > 0) upstream.write(head);
			upstream.pipe(client);
			client.pipe(upstream);
		});
		sockets.add(upstream);
		upstream.on("close", () => sockets.delete(upstream));
		upstream.on("error", () => client.destroy());
	});
	server.on("connection", (socket: Socket) => {
		proxy.accepted++;
		clients.add(socket);
		socket.on("close", () => clients.delete(socket));
	});
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	proxy.port = (server.address() as AddressInfo).port;
	proxy.url = `http://127.0.0.1:${proxy.port}`;
	return proxy;
}

/** A port on 127.0.0.1 where nothing listens (bound, then closed): a dead proxy. */
export async function deadPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	const { port } = server.address() as AddressInfo;
	await new Promise((done) => server.close(done));
	return port;
}
