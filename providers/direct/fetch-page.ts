// The direct fetcher's I/O: a GET with undici that follows up to 5 redirects itself, putting every hop through the
// private-network guard and connecting to exactly the addresses the guard checked (a per-fetch Agent whose
// `lookup` is pinned; through a proxy, a CONNECT to the checked address, see proxy-connect.ts). Answers of any
// status are returned; interpreting them is convert.ts's job.

import { Agent, type Dispatcher, request } from "undici";
import { WebAccessError } from "../../engine/errors.ts";
import { REQUEST_LIMITS } from "../../engine/requests.ts";
import type { ProxySettings } from "../contract.ts";
import { abortError } from "../http/send-errors.ts";
import {
	bareHost,
	compileGuard,
	type FetchGuardSettings,
	type HostLookup,
	type LookupAddress,
	resolveGuarded,
} from "./guard.ts";
import { guardedConnector, resolveBeforeProxy, tunnelledProxy } from "./proxy-connect.ts";
import { readBody } from "./read-body.ts";

export const FETCH_DEFAULTS = {
	maxBytes: 10 * 1024 * 1024,
	maxRedirects: 5,
	/** Error pages are read only far enough to recognise a challenge page. */
	errorBodyBytes: 256 * 1024,
	connectTimeoutMs: 10_000,
	// Markdown beside HTML: a server that negotiates (markdown for agents) answers with the page's markdown.
	accept: "text/html,text/markdown,application/xhtml+xml;q=0.9,application/pdf;q=0.8,text/plain;q=0.7,*/*;q=0.5",
	acceptEncoding: "gzip, deflate, br",
};

export interface FetchPageOptions {
	/** Configured provider name, for error data. */
	provider: string;
	signal: AbortSignal;
	userAgent: string;
	maxBytes?: number;
	maxRedirects?: number;
	/** Extra request headers (config `headers`); only CROSS_ORIGIN_HEADERS are carried to another origin. */
	headers?: Record<string, string>;
	guard?: FetchGuardSettings;
	/** DNS resolution; tests inject answers. */
	lookup?: HostLookup;
	/** The provider's proxies (CallContext.proxy). */
	proxy?: ProxySettings;
	/** The Accept header (default FETCH_DEFAULTS.accept); a configured `accept` header still wins. */
	accept?: string;
}

/** One fetched answer after redirects. */
export interface RawPage {
	url: string;
	finalUrl: string;
	status: number;
	/** Lower-case names. */
	headers: Record<string, string>;
	body: Buffer;
	/** The body went past the byte cap and was cut there. */
	truncated: boolean;
	maxBytes: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/**
 * Configured headers that may follow a redirect to another origin. Anything else may be a credential (X-Api-Key,
 * X-Auth-Token, a vendor's own name), and credentials stay on the origin they were configured for.
 */
const CROSS_ORIGIN_HEADERS = new Set(["user-agent", "accept-language"]);

export async function fetchPage(url: string, options: FetchPageOptions): Promise<RawPage> {
	const maxBytes = options.maxBytes ?? FETCH_DEFAULTS.maxBytes;
	const maxRedirects = options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects;
	const guard = compileGuard(options.guard);
	const first = parseUrl(url);
	let current = first;
	const pins = new Map<string, LookupAddress[]>();
	const connect = guardedConnector({
		pins,
		proxy: options.proxy,
		timeoutMs: FETCH_DEFAULTS.connectTimeoutMs,
		guardOff: guard.off,
		signal: options.signal,
	});
	const agent = new Agent({ connect });
	try {
		for (let hop = 0; ; hop++) {
			if (options.signal.aborted) throw abortError(options.signal.reason, options.provider, current.href);
			const host = bareHost(current);
			const proxy = tunnelledProxy(current, options.proxy);
			// With the guard off, a proxy resolves the name itself (local DNS may not even see it).
			if (proxy === undefined) pins.set(host.toLowerCase(), await resolveGuarded(host, guard, options.lookup));
			else if (!guard.off) pins.set(host.toLowerCase(), await resolveBeforeProxy(host, guard, options.lookup, proxy));
			const headers = requestHeaders(options, current.origin === first.origin);
			const answer = await send(agent, current, headers, options);
			const location = answer.headers.location;
			if (REDIRECTS.has(answer.statusCode) && typeof location === "string") {
				discard(answer.body);
				if (hop >= maxRedirects) {
					throw new WebAccessError(`too many redirects (more than ${maxRedirects})`, {
						kind: "bad-request",
						code: "too-many-redirects",
						provider: options.provider,
					});
				}
				current = parseUrl(location, current);
				// Every hop gets the cap a requested URL gets: a huge target would fill the output with its name.
				if (current.href.length > REQUEST_LIMITS.maxUrlChars) {
					throw new WebAccessError(
						`redirect to a URL of ${current.href.length} characters; at most ${REQUEST_LIMITS.maxUrlChars} are followed`,
						{ kind: "bad-request", code: "url-too-long", provider: options.provider },
					);
				}
				continue;
			}
			const ok = answer.statusCode >= 200 && answer.statusCode < 300;
			const headersOut = flatHeaders(answer.headers);
			const cap = ok ? maxBytes : Math.min(maxBytes, FETCH_DEFAULTS.errorBodyBytes);
			try {
				const body = await readBody(answer.body, headersOut["content-encoding"], cap);
				return {
					url: first.href,
					finalUrl: current.href,
					status: answer.statusCode,
					headers: headersOut,
					body: body.bytes,
					truncated: body.truncated,
					maxBytes,
				};
			} catch (error) {
				throw failure(error, options, current, "body");
			} finally {
				discard(answer.body);
			}
		}
	} finally {
		agent.destroy().catch(() => {});
	}
}

function parseUrl(text: string, base?: URL): URL {
	let parsed: URL;
	try {
		parsed = new URL(text, base);
	} catch {
		throw new WebAccessError(`invalid URL: ${text.slice(0, 200)}`, { kind: "bad-request", code: "invalid-url" });
	}
	if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
		throw new WebAccessError(`unsupported URL scheme ${parsed.protocol} (http and https only)`, {
			kind: "bad-request",
			code: "unsupported-scheme",
		});
	}
	return parsed;
}

function requestHeaders(options: FetchPageOptions, sameOrigin: boolean): Record<string, string> {
	const headers: Record<string, string> = {
		"user-agent": options.userAgent,
		accept: options.accept ?? FETCH_DEFAULTS.accept,
	};
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		const lower = name.toLowerCase();
		if (sameOrigin || CROSS_ORIGIN_HEADERS.has(lower)) headers[lower] = value;
	}
	// We decode exactly these codings, so a configured Accept-Encoding cannot ask for one we cannot read.
	headers["accept-encoding"] = FETCH_DEFAULTS.acceptEncoding;
	return headers;
}

async function send(
	agent: Dispatcher,
	url: URL,
	headers: Record<string, string>,
	options: FetchPageOptions,
): Promise<Dispatcher.ResponseData> {
	try {
		return await request(url, { method: "GET", headers, signal: options.signal, dispatcher: agent });
	} catch (error) {
		throw failure(error, options, url, "request");
	}
}

/** Drops a body we stop reading; undici emits an abort error on destroy, which must not go unhandled. */
function discard(body: Dispatcher.ResponseData["body"]): void {
	body.on("error", () => {});
	body.destroy();
}

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

function failure(error: unknown, options: FetchPageOptions, url: URL, phase: "request" | "body"): WebAccessError {
	if (options.signal.aborted) return abortError(options.signal.reason, options.provider, url.href);
	if (error instanceof WebAccessError) return error;
	const code = codeOf(error);
	const where = `${url.origin}${url.pathname}`;
	if (code !== undefined && TIMEOUT_CODES.has(code)) {
		return new WebAccessError(`timed out (${code}) at ${where}`, {
			kind: "timeout",
			code: "timeout",
			provider: options.provider,
			url: where,
			cause: error,
		});
	}
	const label = code ?? (error instanceof Error ? error.message.split("\n")[0]!.slice(0, 120) : "error");
	const [kind, what] =
		phase === "body" ? (["parse", "response body cut off"] as const) : (["transport", "connection failed"] as const);
	return new WebAccessError(`${what} (${label}) at ${where}`, {
		kind,
		code: phase === "body" ? "body-truncated" : (code ?? "transport").toLowerCase(),
		provider: options.provider,
		url: where,
		cause: error,
	});
}

function codeOf(error: unknown): string | undefined {
	if (typeof error !== "object" || error === null) return undefined;
	const code = (error as { code?: unknown }).code;
	if (typeof code === "string") return code;
	return codeOf((error as { cause?: unknown }).cause);
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
	}
	return out;
}
