// One HTTP call of a provider: base URL and header precedence, URL joining, the build → send → parse composition,
// and turning a non-2xx JSON answer into an error. A similar backend is then ~30 lines.

import { WebAccessError, type WebAccessErrorData } from "../../engine/errors.ts";
import type { CallContext, HttpRequestSpec } from "../contract.ts";
import { errorMessageOf, type HttpResponse, httpStatusError, readJson } from "./response.ts";
import { type SendOptions, sendThen } from "./send.ts";
import { abortError } from "./send-errors.ts";

/** `call.config.baseUrl` → `call.piAuth.baseUrl` → the type's default; without a trailing slash. */
export function resolveBaseUrl(call: CallContext, fallback: string | undefined): string {
	return trimSlashes(call.config.baseUrl ?? call.piAuth?.baseUrl ?? fallback ?? "");
}

/** Without trailing slashes; the usual base URL has none, and is returned as it is without a regex run. */
function trimSlashes(url: string): string {
	return url.endsWith("/") ? url.replace(/\/+$/, "") : url;
}

/**
 * Joined URLs without a query, by base and path: a provider asks the same few endpoints again and again, and the same
 * string each time is one whose hash is kept (send.ts looks its origin and path up by it). Emptied when it grows.
 */
const joined = new Map<string, Map<string, string>>();
const JOINED_ENTRIES = 64;

/** `base` + `path` (exactly one slash between) + query (undefined values skipped, order kept). */
export function joinUrl(
	base: string,
	path: string,
	query?: Record<string, string | number | boolean | undefined>,
): string {
	if (query === undefined) {
		let paths = joined.get(base);
		const known = paths?.get(path);
		if (known !== undefined) return known;
		if (paths === undefined || paths.size >= JOINED_ENTRIES) {
			if (joined.size >= JOINED_ENTRIES) joined.clear();
			paths = new Map();
			joined.set(base, paths);
		}
		const url = endpoint(base, path);
		paths.set(path, url);
		return url;
	}
	const url = endpoint(base, path);
	const params = new URLSearchParams();
	for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value));
	const text = params.toString();
	return text ? `${url}${url.includes("?") ? "&" : "?"}${text}` : url;
}

function endpoint(base: string, path: string): string {
	if (path === "") return base;
	return `${trimSlashes(base)}/${path.startsWith("/") ? path.replace(/^\/+/, "") : path}`;
}

/** The provider's own headers, then pi's headers, then the config's headers (config wins). Names lower-cased. */
export function requestHeaders(call: CallContext, own: Record<string, string | undefined>): Record<string, string> {
	const out: Record<string, string> = {};
	addHeaders(out, own);
	addHeaders(out, call.piAuth?.headers);
	addHeaders(out, call.config.headers);
	return out;
}

function addHeaders(out: Record<string, string>, layer?: Readonly<Record<string, string | undefined>>): void {
	if (layer === undefined) return;
	// for…in, not Object.keys: no array of names per layer and call.
	for (const name in layer) {
		if (!Object.hasOwn(layer, name)) continue;
		const value = layer[name];
		if (value !== undefined) out[name.toLowerCase()] = value;
	}
}

/** `{ authorization: "Bearer <key>" }`, or nothing when the call has no key. */
export function bearer(call: CallContext): Record<string, string> {
	return call.key ? { authorization: `Bearer ${call.key.secret}` } : {};
}

/** Send options for a call: errors name the configured provider; requests use its proxy. */
export function sendOptionsOf(call: CallContext): SendOptions {
	// One literal of one shape (no spread of an optional part): a call without a proxy has `proxy` undefined.
	return { provider: call.config.name, signal: call.cancel ?? call.signal, proxy: call.proxy };
}

/**
 * Composes build → send → parse; the HTTP status is handled by `parse` (see jsonOrThrow). One promise per call: the
 * parse runs as the exchange settles (sendThen), and a throw of `build` or `parse` is the promise's rejection.
 */
export function httpCall<Req, Out>(
	build: (request: Req, call: CallContext) => HttpRequestSpec,
	parse: (res: HttpResponse, request: Req, call: CallContext) => Out,
): (request: Req, call: CallContext) => Promise<Out> {
	return (request, call) => {
		try {
			const options = sendOptionsOf(call);
			if (options.signal.aborted) throw abortError(options.signal.reason, call.config.name);
			return sendThen(build(request, call), options, (res) => parse(res, request, call));
		} catch (error) {
			return Promise.reject(error);
		}
	};
}

/**
 * Parsed JSON of a 2xx response; otherwise throws: `special(res, json)` first (a backend's own codes), then the
 * default status error with the envelope's message.
 */
export function jsonOrThrow(
	res: HttpResponse,
	provider: string,
	special?: (res: HttpResponse, json: unknown) => WebAccessError | undefined,
): unknown {
	if (res.status >= 200 && res.status <= 299) return readJson(res, provider);
	let json: unknown;
	try {
		json = JSON.parse(res.text);
	} catch {
		json = undefined;
	}
	const custom = special?.(res, json);
	if (custom) throw custom;
	throw httpStatusError(res, provider, json === undefined ? undefined : (errorMessageOf(json) ?? ""));
}

/** A copy of `error` with some data replaced (a backend code that means more than its HTTP status). */
export function reclassify(
	error: WebAccessError,
	changes: Partial<WebAccessErrorData>,
	message?: string,
): WebAccessError {
	return new WebAccessError(message ?? error.message, {
		kind: error.kind,
		code: error.code,
		provider: error.provider,
		status: error.status,
		url: error.url,
		retryAfterMs: error.retryAfterMs,
		keyVerdict: error.keyVerdict,
		cause: error.cause,
		...changes,
	});
}
