// Anything thrown while sending or reading a response, turned into a WebAccessError a person can act on: timeouts,
// corrupt or cut-off bodies, a proxy's refusal, cancellation. send.ts is the only sender; others import abortError.

import { WebAccessError } from "../../engine/errors.ts";
import type { CancelSignal, ProxyChoice } from "../contract.ts";
import { describeProxy } from "./proxy.ts";
import { type HttpResponse, safeUrl } from "./response.ts";

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** Maps anything thrown while sending or reading to a WebAccessError. */
export function failure(
	error: unknown,
	phase: "request" | "body",
	url: string,
	options: { provider: string; signal: CancelSignal },
	res?: HttpResponse,
	proxy?: ProxyChoice,
): WebAccessError {
	const { provider, signal } = options;
	if (signal.aborted) return abortError(signal.reason, provider, url);
	if (error instanceof WebAccessError) return error;
	const code = codeOf(error);
	const target = safeUrl(url);
	// Through a proxy, a connection failure is the proxy's (refused, down, or it could not reach the target).
	const where = proxy ? `${target} via proxy ${describeProxy(proxy)}` : target;
	if (code !== undefined && TIMEOUT_CODES.has(code)) {
		return new WebAccessError(`timed out (${code}) at ${where}`, {
			kind: "timeout",
			code: code.replace(/^UND_ERR_/, "").toLowerCase(),
			provider,
			url: target,
			status: res?.status,
			cause: error,
		});
	}
	if (code?.startsWith("Z_") || code === "ERR_BUFFER_TOO_LARGE") {
		return new WebAccessError(`HTTP ${res?.status}: corrupt compressed body (${code})`, {
			kind: "parse",
			code: "bad-encoding",
			provider,
			url: target,
			status: res?.status,
			cause: error,
		});
	}
	if (phase === "body" && res) {
		return new WebAccessError(`HTTP ${res.status}: response body cut off (${code ?? "closed"})`, {
			kind: "parse",
			code: "body-truncated",
			provider,
			url: target,
			status: res.status,
			cause: error,
		});
	}
	const refusal = proxy ? proxyAnswer(error) : undefined;
	return new WebAccessError(`connection failed (${refusal?.label ?? code ?? messageOf(error)}) to ${where}`, {
		kind: "transport",
		code: refusal?.code ?? (code ?? "transport").toLowerCase(),
		provider,
		url: target,
		cause: error,
	});
}

/** Cancellation: a WebAccessError reason keeps its kind, a TimeoutError means timeout, anything else cancelled. */
export function abortError(reason: unknown, provider: string, url?: string): WebAccessError {
	const where = url === undefined ? undefined : safeUrl(url);
	if (reason instanceof WebAccessError) return reason;
	if (reason instanceof Error && reason.name === "TimeoutError") {
		return new WebAccessError("timed out", { kind: "timeout", code: "timeout", provider, url: where, cause: reason });
	}
	return new WebAccessError("cancelled", { kind: "cancelled", code: "cancelled", provider, url: where, cause: reason });
}

/** undici reports a proxy's refusal of CONNECT only in its message: the status is what a person can act on. */
function proxyAnswer(error: unknown): { label: string; code: string } | undefined {
	const status = (error instanceof Error ? error.message : "").match(/Proxy .*?\((\d{3})\)/)?.[1];
	if (status === undefined) return undefined;
	if (status === "407") {
		return { label: "the proxy wants credentials (407): check user:password@ in the proxy URL", code: "proxy-auth" };
	}
	return { label: `the proxy answered ${status} to CONNECT`, code: "proxy-refused" };
}

function codeOf(error: unknown): string | undefined {
	if (typeof error !== "object" || error === null) return undefined;
	const code = (error as { code?: unknown }).code;
	if (typeof code === "string") return code;
	return codeOf((error as { cause?: unknown }).cause);
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message.split("\n")[0]!.slice(0, 120) : String(error).slice(0, 120);
}
