// What to make of a received HTTP response: JSON or a parse error naming the status, a status error with the
// backend's own message and Retry-After, and masking of credentials a backend echoes back.

import type { ErrorClass, KeyVerdict } from "../../engine/error-classes.ts";
import { WebAccessError } from "../../engine/errors.ts";
import { redactSecrets } from "../../engine/redact.ts";

/** A fully read response. Header names are lower-case; repeated headers are joined with ", ". */
export interface HttpResponse {
	status: number;
	headers: Record<string, string>;
	text: string;
	url: string;
}

const DETAIL_CHARS = 200;

/**
 * What a response answered, as sent: its credentials are picked out only when a message is built (secretsOf). It is
 * send.ts's own sending (one object a call), so a response kept past its call keeps that sending's closures alive;
 * nothing keeps one.
 */
export interface SentRequest {
	/** The headers as sent (send's own copy, never changed afterwards). */
	headers: Readonly<Record<string, string>>;
	url: string;
}

/**
 * A response as send.ts received it. The request it answers sits in a private field: no enumeration, spread, JSON
 * or util.inspect reaches it, only the message builders here (a WeakMap entry per response cost about 1 µs a call).
 */
export class ReceivedResponse implements HttpResponse {
	status: number;
	headers: Record<string, string>;
	text = "";
	url: string;
	readonly #sent: SentRequest;

	constructor(status: number, headers: Record<string, string>, url: string, sent: SentRequest) {
		this.status = status;
		this.headers = headers;
		this.url = url;
		this.#sent = sent;
	}

	/** The request `res` answers; undefined for a response built elsewhere (a test's, a provider's own). */
	static sentOf(res: HttpResponse): SentRequest | undefined {
		return #sent in res ? res.#sent : undefined;
	}
}

/** A copy of `res` with another status (an error code found inside a 2xx body) that still masks the same secrets. */
export function withStatus(res: HttpResponse, status: number): HttpResponse {
	const sent = ReceivedResponse.sentOf(res);
	if (sent === undefined) return { ...res, status };
	const copy = new ReceivedResponse(status, res.headers, res.url, sent);
	copy.text = res.text;
	return copy;
}

/** Credentials carried by a request (auth-like headers, with and without their scheme; key-like query values). */
function secretsOf(sent: SentRequest | undefined): string[] {
	if (sent === undefined) return [];
	const secrets: string[] = [];
	for (const name of Object.keys(sent.headers)) {
		if (!/auth|key|token|secret|cookie/i.test(name)) continue;
		const value = sent.headers[name]!;
		secrets.push(value);
		const bare = value.replace(/^(bearer|basic|token)\s+/i, "");
		if (bare !== value) secrets.push(bare);
	}
	if (sent.url.includes("?")) {
		try {
			for (const [name, value] of new URL(sent.url).searchParams) {
				if (/key|token|secret|auth/i.test(name)) secrets.push(value);
			}
		} catch {
			// An invalid URL fails in request() with a transport error; nothing to collect here.
		}
	}
	return secrets.filter((secret) => secret.length >= 4);
}

/** Masks the given secrets (any piece of 8+ characters, URL-encoded and base64 forms) with SECRET_MASK. */
export const redact = redactSecrets;

/** Origin and path only: query strings may carry keys. */
export function safeUrl(url: string): string {
	try {
		const parsed = new URL(url);
		return `${parsed.origin}${parsed.pathname}`;
	} catch {
		return "(invalid url)";
	}
}

/** Error class and key verdict for an HTTP status. */
export function statusKind(status: number): { kind: ErrorClass; keyVerdict?: KeyVerdict; label: string } {
	if (status === 429) return { kind: "rate-limit", keyVerdict: "rate-limited", label: "rate limited" };
	if (status === 401) return { kind: "auth", keyVerdict: "exhausted", label: "unauthorized" };
	if (status === 403) return { kind: "auth", keyVerdict: "exhausted", label: "forbidden" };
	if (status === 402) return { kind: "quota", keyVerdict: "exhausted", label: "payment required" };
	if (status === 408) return { kind: "timeout", label: "request timeout" };
	if (status >= 500) return { kind: "server", label: "server error" };
	if (status >= 300 && status < 400) return { kind: "server", label: "unexpected redirect" };
	if (status === 404) return { kind: "bad-request", label: "not found" };
	if (status === 422) return { kind: "bad-request", label: "unprocessable" };
	return { kind: "bad-request", label: "bad request" };
}

/** Milliseconds from `retry-after-ms`, or `retry-after` (seconds or an HTTP date); undefined when absent. */
export function retryAfterMs(headers: Record<string, string>): number | undefined {
	const ms = Number.parseFloat(headers["retry-after-ms"] ?? "");
	if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
	const value = headers["retry-after"]?.trim();
	if (!value) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The message of the usual JSON error envelopes (`error`, `error.message`, `message`, `detail`, `errors[0]`…). */
export function errorMessageOf(json: unknown): string | undefined {
	if (typeof json === "string") return json || undefined;
	if (typeof json !== "object" || json === null) return undefined;
	if (Array.isArray(json)) return errorMessageOf(json[0]);
	const record = json as Record<string, unknown>;
	for (const field of ["message", "readableMessage", "detail", "error_description", "msg"]) {
		const value = record[field];
		if (typeof value === "string" && value !== "") return value;
	}
	for (const field of ["error", "detail", "errors", "data"]) {
		const found = errorMessageOf(record[field]);
		if (found !== undefined) return found;
	}
	if (typeof record.code === "string") return record.code;
	return undefined;
}

function oneLine(text: string): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > DETAIL_CHARS ? `${flat.slice(0, DETAIL_CHARS - 1)}…` : flat;
}

function looksLikeHtml(text: string): boolean {
	return /^\s*</.test(text) && /<(!doctype|html|head|body|title|h1|p|div)\b/i.test(text);
}

/** A parse failure tied to a response. */
export function parseError(
	res: HttpResponse,
	provider: string,
	code: string,
	what: string,
	cause?: unknown,
): WebAccessError {
	return new WebAccessError(`HTTP ${res.status}: ${what}`, {
		kind: "parse",
		code,
		provider,
		status: res.status,
		url: safeUrl(res.url),
		cause,
	});
}

/** JSON body or a parse error naming the HTTP status (HTML error pages → "HTML page instead of JSON"). */
export function readJson(res: HttpResponse, provider: string): unknown {
	if (!/\S/.test(res.text)) throw parseError(res, provider, "empty-body", "empty body instead of JSON");
	if (looksLikeHtml(res.text)) throw parseError(res, provider, "html", "HTML page instead of JSON");
	try {
		return JSON.parse(res.text);
	} catch (error) {
		throw parseError(res, provider, "invalid-json", "truncated or invalid JSON", error);
	}
}

/** Non-2xx → WebAccessError with kind from status, retryAfterMs from Retry-After; `detail` = backend message. */
export function httpStatusError(res: HttpResponse, provider: string, detail?: string): WebAccessError {
	const { kind, keyVerdict, label } = statusKind(res.status);
	let message = detail;
	if (message === undefined) {
		if (looksLikeHtml(res.text)) message = "HTML error page";
		else {
			let json: unknown;
			try {
				json = JSON.parse(res.text);
			} catch {
				json = undefined;
			}
			message = json === undefined ? res.text : (errorMessageOf(json) ?? "");
		}
	}
	message = oneLine(redact(message, secretsOf(ReceivedResponse.sentOf(res))));
	return new WebAccessError(`HTTP ${res.status} ${label}${message ? `: ${message}` : ""}`, {
		kind,
		code: `http-${res.status}`,
		provider,
		status: res.status,
		url: safeUrl(res.url),
		retryAfterMs: retryAfterMs(res.headers),
		keyVerdict,
	});
}
