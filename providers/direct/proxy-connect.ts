// The direct fetcher's connector: every socket goes to an address the guard checked — straight there (a lookup
// pinned to the checked answers), or through the proxy providers/http/proxy.ts picks for the target, as
// `CONNECT <checked address>:<port>`, so the proxy never resolves the name itself and cannot be sent to an address
// the guard refused. TLS to the site runs inside the tunnel, verified against the site's name.

import { type Socket, connect as tcpConnect } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { buildConnector } from "undici";
import { WebAccessError } from "../../engine/errors.ts";
import type { ProxyChoice, ProxySettings } from "../contract.ts";
import { describeProxy, proxyForHost, proxyUrlProblem } from "../http/proxy.ts";
import {
	type CompiledGuard,
	type HostLookup,
	type LookupAddress,
	parseIp,
	pinnedLookup,
	resolveGuarded,
} from "./guard.ts";

export const TUNNEL_DEFAULTS = {
	/** A proxy's answer to CONNECT is a status line and a few headers. */
	maxAnswerBytes: 16 * 1024,
};

export interface ConnectorOptions {
	/** Checked addresses by lower-case host name (filled per hop by fetch-page.ts). */
	pins: ReadonlyMap<string, LookupAddress[]>;
	proxy?: ProxySettings;
	timeoutMs: number;
	/** The guard is off (`fetchGuard.allowPrivate`): the proxy may resolve names itself. */
	guardOff: boolean;
	/** The fetch's signal: a cancelled call closes a tunnel still waiting for the proxy's answer. */
	signal?: AbortSignal;
}

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

/** Whether a fetch of `url` goes through a proxy (fetch-page.ts skips local DNS then when the guard is off). */
export function tunnelledProxy(url: URL, proxy: ProxySettings | undefined): ProxyChoice | undefined {
	const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
	const decided = proxyForHost(url.protocol, url.hostname.replace(/^\[(.*)\]$/, "$1"), port, proxy);
	return decided.via === "proxy" ? decided.proxy : undefined;
}

/**
 * The guard's check of a host whose fetch goes through `proxy`: a name that does not resolve here cannot be
 * checked, and is refused rather than handed to the proxy to resolve.
 */
export async function resolveBeforeProxy(
	hostname: string,
	guard: CompiledGuard,
	lookup: HostLookup | undefined,
	proxy: ProxyChoice,
): Promise<LookupAddress[]> {
	try {
		return await resolveGuarded(hostname, guard, lookup);
	} catch (error) {
		if (!(error instanceof WebAccessError) || error.code !== "dns") throw error;
		const fix =
			"set fetchGuard.allowPrivate to let the proxy resolve names (the guard is then off), or use another provider";
		return Promise.reject(
			new WebAccessError(
				`refused ${hostname}: the fetch goes through proxy ${describeProxy(proxy)}, and the guard cannot check a host that does not resolve here (${error.message}): ${fix}`,
				{ kind: "guard", code: "guard-unresolvable", cause: error },
			),
		);
	}
}

export function guardedConnector(options: ConnectorOptions): buildConnector.connector {
	const direct = buildConnector({ lookup: pinnedLookup(options.pins), timeout: options.timeoutMs });
	const tlsOverTunnel = buildConnector({ timeout: options.timeoutMs });
	return (opts, callback) => {
		const port = Number(opts.port) || DEFAULT_PORTS[opts.protocol] || 0;
		const decided = proxyForHost(opts.protocol, opts.hostname, port, options.proxy);
		if (decided.via === "direct") return direct(opts, callback);
		if (decided.via === "invalid") {
			const message = `the proxy in ${decided.source} cannot be used: ${decided.problem}`;
			return callback(new WebAccessError(message, { kind: "transport", code: "invalid-proxy" }), null);
		}
		const host = opts.hostname.toLowerCase();
		const checked = options.pins.get(host)?.[0]?.address;
		if (checked === undefined && !options.guardOff) {
			const message = `fetch guard: no checked address for ${opts.hostname}; nothing is sent to the proxy`;
			return callback(new WebAccessError(message, { kind: "guard", code: "guard-unchecked" }), null);
		}
		const address = checked ?? opts.hostname;
		const authority = `${parseIp(address)?.family === 6 ? `[${address}]` : address}:${port}`;
		openTunnel(decided.proxy, authority, options.timeoutMs, options.signal).then(
			(socket) => {
				if (opts.protocol !== "https:") return callback(null, socket);
				// undici closes the TLS socket it made on a failed handshake, not the tunnel under it.
				tlsOverTunnel({ ...opts, httpSocket: socket }, (error, tls) => {
					if (error === null) return callback(null, tls);
					socket.destroy();
					callback(error, null);
				});
			},
			(error: unknown) => callback(error as Error, null),
		);
	};
}

function proxyError(proxy: ProxyChoice, what: string, code: string, kind: "transport" | "timeout" = "transport") {
	return new WebAccessError(`proxy ${describeProxy(proxy)} ${what}`, { kind, code });
}

/**
 * Opens a CONNECT tunnel to `authority` (address:port) through the proxy; resolves once it answered 200. Whatever
 * can be checked is checked before the socket opens, and every failure, a cancelled call included, closes it.
 */
export function openTunnel(
	proxy: ProxyChoice,
	authority: string,
	timeoutMs: number,
	signal?: AbortSignal,
): Promise<Socket> {
	const problem = proxyUrlProblem(proxy.url);
	if (problem !== undefined) {
		const message = `the proxy in ${proxy.source} cannot be used: ${problem}`;
		return Promise.reject(new WebAccessError(message, { kind: "transport", code: "invalid-proxy" }));
	}
	if (signal?.aborted) return Promise.reject(proxyError(proxy, "was not asked: the call was cancelled", "aborted"));
	const url = new URL(proxy.url);
	const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 80;
	const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
	const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
	const auth =
		url.username || url.password ? `Proxy-Authorization: Basic ${Buffer.from(credentials).toString("base64")}\r\n` : "";
	const socket =
		url.protocol === "https:"
			? tlsConnect({ host, port, ...(parseIp(host) ? {} : { servername: host }), ALPNProtocols: ["http/1.1"] })
			: tcpConnect({ host, port });
	return new Promise((resolve, reject) => {
		let answer = Buffer.alloc(0);
		const onAbort = () => fail(proxyError(proxy, "tunnel closed: the call was cancelled", "aborted"));
		const fail = (error: WebAccessError) => {
			clearTimeout(timer);
			signal?.removeEventListener("abort", onAbort);
			socket.removeAllListeners("data");
			socket.on("error", () => {});
			socket.destroy();
			reject(error);
		};
		const timer = setTimeout(
			() => fail(proxyError(proxy, `did not answer CONNECT within ${timeoutMs} ms`, "proxy-timeout", "timeout")),
			timeoutMs,
		);
		signal?.addEventListener("abort", onAbort, { once: true });
		socket.once(url.protocol === "https:" ? "secureConnect" : "connect", () => {
			socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`);
		});
		socket.on("error", (error: NodeJS.ErrnoException) => {
			fail(
				proxyError(proxy, `could not be reached (${error.code ?? "error"})`, (error.code ?? "transport").toLowerCase()),
			);
		});
		socket.on("close", () => fail(proxyError(proxy, "closed the connection before answering CONNECT", "proxy-closed")));
		socket.on("data", (chunk: Buffer) => {
			answer = Buffer.concat([answer, chunk]);
			const end = answer.indexOf("\r\n\r\n");
			if (end === -1) {
				if (answer.length > TUNNEL_DEFAULTS.maxAnswerBytes)
					fail(proxyError(proxy, "sent an endless answer", "proxy-answer"));
				return;
			}
			const status = Number(
				answer
					.subarray(0, end)
					.toString("latin1")
					.match(/^HTTP\/1\.[01] (\d{3})/)?.[1],
			);
			if (status === 407) {
				return fail(proxyError(proxy, "wants credentials (407): check user:password@ in the proxy URL", "proxy-auth"));
			}
			if (status !== 200) {
				const said = Number.isNaN(status) ? "gave no HTTP answer" : `answered ${status}`;
				return fail(proxyError(proxy, `${said} to CONNECT ${authority}`, "proxy-refused"));
			}
			clearTimeout(timer);
			signal?.removeEventListener("abort", onAbort);
			socket.removeAllListeners("data");
			socket.removeAllListeners("close");
			socket.removeAllListeners("error");
			socket.on("error", () => {}); // undici adds its own handler once it has the socket
			const rest = answer.subarray(end + 4);
			if (rest.length > 0) socket.unshift(rest);
			resolve(socket);
		});
	});
}
