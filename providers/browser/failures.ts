// How a render fails: a document the guard proxy answered itself (refused, or its connection failed) fails as
// direct's fetch would, and the driver's errors (crash, timeout, connection, download) become typed failures.

import { WebAccessError } from "../../engine/errors.ts";

/** A document our guard proxy answered itself (refused, or the connection failed) fails as direct's fetch would. */
export function proxyAnswer(headers: Record<string, string>, provider: string): void {
	const verdict = headers["x-pi-web-access-proxy"];
	if (verdict === undefined) return;
	const reason = headers["x-pi-web-access-reason"] ?? "the connection failed";
	throw verdict === "refused"
		? new WebAccessError(reason, { kind: "guard", code: "guard-refused", provider })
		: new WebAccessError(reason, { kind: "transport", code: "transport", provider });
}

export function renderFailure(
	error: unknown,
	options: { provider: string; signal: AbortSignal },
	target: URL,
): WebAccessError {
	if (error instanceof WebAccessError) return error;
	if (options.signal.aborted) {
		return new WebAccessError("cancelled", { kind: "cancelled", code: "cancelled", provider: options.provider });
	}
	const text = error instanceof Error ? error.message : String(error);
	const line = text.split("\n")[0]!.slice(0, 160);
	const where = `${target.origin}${target.pathname}`;
	if (/Target.*closed|Browser.*closed|browser has disconnected|crash/i.test(text)) {
		return new WebAccessError(`the browser stopped during the render of ${where} (${line})`, {
			kind: "server",
			code: "browser-crashed",
			provider: options.provider,
			cause: error,
		});
	}
	if (/Timeout/i.test(text)) {
		return new WebAccessError(`the page did not load in time at ${where}`, {
			kind: "timeout",
			code: "timeout",
			provider: options.provider,
			cause: error,
		});
	}
	if (/ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY|ERR_NAME_NOT_RESOLVED|ERR_CONNECTION/i.test(text)) {
		return new WebAccessError(`connection failed (${line}) at ${where}`, {
			kind: "transport",
			code: "transport",
			provider: options.provider,
			cause: error,
		});
	}
	if (/Download is starting/i.test(text)) {
		return new WebAccessError(`${where} is a download, not a page (downloads are refused)`, {
			kind: "bad-request",
			code: "unsupported-content-type",
			provider: options.provider,
		});
	}
	return new WebAccessError(`could not render ${where}: ${line}`, {
		kind: "bad-request",
		code: "render-failed",
		provider: options.provider,
		cause: error,
	});
}
