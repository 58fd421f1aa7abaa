// HTTP/1.x heads for the browser's guard proxy (guard-proxy.ts): parsing what a browser sends a proxy, the
// origin-form head sent upstream, and the answer head rewritten to `Connection: close`. No sockets here.

/** One request's destination, parsed once from its request line. */
export interface Target {
	/** Host name or IP without brackets, as URL normalised it (so `0x7f.1` is already 127.0.0.1). */
	host: string;
	port: number;
	/** Picks the upstream proxy: browsers tunnel https, ws and wss alike, so every CONNECT counts as https. */
	protocol: "http:" | "https:";
	/** `host:port`, for stats. */
	label: string;
	/** Absolute-URI requests: the origin-form path and the Host header to send. */
	path: string;
	hostHeader: string;
}

/** A request line and its headers, in the order sent. */
export interface RequestHead {
	method: string;
	target: string;
	version: string;
	headers: Array<[string, string]>;
}

/** Never forwarded; `upgrade` comes back for a WebSocket handshake. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "te", "trailer", "upgrade", "host"]);
/** Body framing stays as the client sent it: the body is piped raw, so the upstream must frame it the same way. */
const FRAMING = new Set(["content-length", "transfer-encoding"]);

/** Parses a request head (without its final blank line); undefined for anything not plainly HTTP/1.x. */
export function parseHead(text: string): RequestHead | undefined {
	const lines = text.split("\r\n");
	const match = lines[0]?.match(/^([A-Z]+) (\S+) (HTTP\/1\.[01])$/);
	if (!match) return undefined;
	const headers: Array<[string, string]> = [];
	for (const line of lines.slice(1)) {
		const colon = line.indexOf(":");
		// A stray CR, LF or NUL could split a header at the upstream; a leading space is an obsolete folded line.
		if (colon <= 0 || /\s/.test(line.slice(0, colon)) || /[\r\n]/.test(line) || line.includes("\u0000"))
			return undefined;
		headers.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
	}
	return { method: match[1]!, target: match[2]!, version: match[3]!, headers };
}

/** The destination of a CONNECT (`host:port`) or an absolute-URI request (http only), or why it is not proxied. */
export function parseTarget(head: RequestHead): Target | string {
	const connect = head.method === "CONNECT";
	if (connect && !/^(\[[0-9a-fA-F:.]+\]|[^\s/?#@[\]:]+):\d{1,5}$/.test(head.target)) return "CONNECT needs host:port";
	let url: URL;
	try {
		url = new URL(connect ? `https://${head.target}` : head.target);
	} catch {
		return connect ? "CONNECT needs host:port" : "an absolute http:// URL is expected (a proxy request)";
	}
	if (url.protocol !== (connect ? "https:" : "http:"))
		return `scheme ${url.protocol} is not proxied (http:// requests and CONNECT only)`;
	const port = Number(url.port) || (connect ? 443 : 80);
	if (port > 65_535 || url.hostname === "") return `invalid target ${head.target.slice(0, 200)}`;
	return {
		host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
		port,
		protocol: connect ? "https:" : "http:",
		label: `${url.hostname}:${port}`,
		path: `${url.pathname}${url.search}`,
		hostHeader: url.host,
	};
}

/**
 * The head sent upstream: origin-form, hop-by-hop and `Proxy-*` headers dropped, and `Connection: close`, because
 * the rest of the client connection is piped raw to this one host: a keep-alive request meant for another host must
 * end the connection, never reach this one. A WebSocket handshake keeps its `Upgrade`.
 */
export function originHead(head: RequestHead, target: Target): string {
	const named = connectionTokens(head);
	const upgrade = upgradeOf(head);
	const lines = [`${head.method} ${target.path} ${head.version}`, `Host: ${target.hostHeader}`];
	for (const [name, text] of head.headers) {
		const lower = name.toLowerCase();
		if (HOP_BY_HOP.has(lower) || lower.startsWith("proxy-") || (named.has(lower) && !FRAMING.has(lower))) continue;
		lines.push(`${name}: ${text}`);
	}
	lines.push(upgrade ? `Connection: Upgrade\r\nUpgrade: ${upgrade}` : "Connection: close");
	return `${lines.join("\r\n")}\r\n\r\n`;
}

const headerValue = (head: RequestHead, name: string) => head.headers.find(([key]) => key.toLowerCase() === name)?.[1];
const connectionTokens = (head: RequestHead) =>
	new Set((headerValue(head, "connection") ?? "").split(",").map((token) => token.trim().toLowerCase()));
/** The protocol a plain request asks to switch to (a WebSocket handshake), if any. */
const upgradeOf = (head: RequestHead) =>
	connectionTokens(head).has("upgrade") ? headerValue(head, "upgrade") : undefined;

/**
 * Gives the final answer head of a plain request `Connection: close` (1xx heads such as 103 pass as they are): the
 * client connection is piped to this one host, so the browser must not reuse it for a request meant for another,
 * whatever the server says. A 101 (a WebSocket accepted) and all after it pass unchanged. Undefined for an answer
 * that is not HTTP or whose head is too long.
 */
export function closingAnswer(maxHeadBytes: number): (chunk: Buffer) => Buffer | undefined {
	let pending: Buffer | undefined = Buffer.alloc(0);
	return (chunk) => {
		if (pending === undefined) return chunk;
		pending = Buffer.concat([pending, chunk]);
		const out: Buffer[] = [];
		for (let end = pending.indexOf("\r\n\r\n"); end !== -1; end = pending.indexOf("\r\n\r\n")) {
			const lines = pending.subarray(0, end).toString("latin1").split("\r\n");
			const status = Number(lines[0]?.match(/^HTTP\/1\.[01] (\d{3})/)?.[1]);
			if (Number.isNaN(status)) return undefined;
			const rest: Buffer = pending.subarray(end + 4);
			if (status === 101) {
				out.push(pending);
				pending = undefined;
				return Buffer.concat(out);
			}
			if (status >= 200) {
				const kept = lines.filter((line, i) => i === 0 || !/^(connection|keep-alive|proxy-connection)\s*:/i.test(line));
				const head = `${kept.join("\r\n")}\r\nConnection: close\r\nProxy-Connection: close\r\n\r\n`;
				pending = undefined;
				return Buffer.concat([...out, Buffer.from(head, "latin1"), rest]);
			}
			out.push(pending.subarray(0, end + 4));
			pending = rest;
		}
		return pending.length > maxHeadBytes ? undefined : Buffer.concat(out);
	};
}
