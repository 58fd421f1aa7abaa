// Pieces every HTTP provider shares: base URL and header precedence, URL joining, the build → send → parse
// composition, and turning a non-2xx JSON answer into an error. A similar backend is then ~30 lines.

import { WebAccessError, type WebAccessErrorData } from "../../engine/errors.ts";
import type { CallContext, HttpRequestSpec, NativeFilters } from "../contract.ts";
import { abortError, type HttpResponse, httpStatusError, readJson, type SendOptions, send } from "./http.ts";
import { errorMessageOf } from "./response.ts";

/** `call.config.baseUrl` → `call.piAuth.baseUrl` → the type's default; without a trailing slash. */
export function resolveBaseUrl(call: CallContext, fallback: string | undefined): string {
	const base = call.config.baseUrl ?? call.piAuth?.baseUrl ?? fallback ?? "";
	return base.replace(/\/+$/, "");
}

/** `base` + `path` (exactly one slash between) + query (undefined values skipped, order kept). */
export function joinUrl(
	base: string,
	path: string,
	query?: Record<string, string | number | boolean | undefined>,
): string {
	let url = `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
	if (path === "") url = base;
	if (query) {
		const params = new URLSearchParams();
		for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value));
		const text = params.toString();
		if (text) url += `${url.includes("?") ? "&" : "?"}${text}`;
	}
	return url;
}

/** The provider's own headers, then pi's headers, then the config's headers (config wins). Names lower-cased. */
export function requestHeaders(call: CallContext, own: Record<string, string | undefined>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const layer of [own, call.piAuth?.headers, call.config.headers]) {
		for (const [name, value] of Object.entries(layer ?? {})) if (value !== undefined) out[name.toLowerCase()] = value;
	}
	return out;
}

/** `{ authorization: "Bearer <key>" }`, or nothing when the call has no key. */
export function bearer(call: CallContext): Record<string, string> {
	return call.key ? { authorization: `Bearer ${call.key.secret}` } : {};
}

/** Send options for a call: errors name the configured provider; requests use its proxy. */
export function sendOptionsOf(call: CallContext): SendOptions {
	return { provider: call.config.name, signal: call.signal, ...(call.proxy ? { proxy: call.proxy } : {}) };
}

/** Composes build → send → parse; the HTTP status is handled by `parse` (see jsonOrThrow). */
export function httpCall<Req, Out>(
	build: (request: Req, call: CallContext) => HttpRequestSpec,
	parse: (res: HttpResponse, request: Req, call: CallContext) => Out,
): (request: Req, call: CallContext) => Promise<Out> {
	return async (request, call) => {
		if (call.signal.aborted) throw abortError(call.signal.reason, call.config.name);
		const res = await send(build(request, call), sendOptionsOf(call));
		return parse(res, request, call);
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

/** Narrowing helpers for parsers: a wrong type reads as absent. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
	return typeof value === "object" && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: undefined;
}

export function asArray(value: unknown): unknown[] {
	return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
	return typeof value === "string" ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** YYYY-MM-DD from an ISO date / datetime / common date text; undefined when not a date. */
export function isoDate(value: unknown): string | undefined {
	if (typeof value !== "string" || value.trim() === "") return undefined;
	const direct = /^(\d{4}-\d{2}-\d{2})/.exec(value.trim());
	if (direct) return direct[1];
	const parsed = Date.parse(value);
	if (Number.isNaN(parsed)) return undefined;
	// The day as written: with a zone, shift by its offset; without one ("Dec 1, 2025") Date.parse read local time.
	const offset = /([+-])(\d{2}):?(\d{2})\s*$/.exec(value);
	if (offset) {
		const minutes = (offset[1] === "-" ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
		return new Date(parsed + minutes * 60_000).toISOString().slice(0, 10);
	}
	if (/\b(GMT|UTC|Z)\b/i.test(value)) return new Date(parsed).toISOString().slice(0, 10);
	const local = new Date(parsed);
	const pad = (n: number) => String(n).padStart(2, "0");
	return `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
}

/** The parse error for a 2xx body whose shape is wrong (e.g. no results array). */
export { parseError } from "./response.ts";

/** A backend that applies no filter itself: the executor filters its results by domain and date, with a warning. */
export function noNativeFilters(maxResults: number): NativeFilters {
	return {
		hosts: false,
		paths: false,
		excludeHosts: false,
		excludePaths: false,
		recency: false,
		dateRange: false,
		maxResults,
	};
}

/** A backend that filters whole hosts (include and exclude) and dates itself, but no paths. */
export function hostAndDateFilters(maxResults: number): NativeFilters {
	return { ...noNativeFilters(maxResults), hosts: true, excludeHosts: true, recency: true, dateRange: true };
}
