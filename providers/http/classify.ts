// Default failure classification for HTTP providers: any thrown value → error class, key verdict, retry hint and a
// one-line reason. Providers with backend-specific codes wrap it (classify = (e) => special(e) ?? classifyError(e)).

import type { ErrorClass, KeyVerdict } from "../../engine/error-classes.ts";
import { isErrorClass } from "../../engine/error-classes.ts";
import { isWebAccessError, type WebAccessError } from "../../engine/errors.ts";
import type { Classification } from "../contract.ts";

/**
 * Key verdict when the error itself does not carry one, for every backend. A server, transport or timeout failure
 * has none: it is the provider's failure, so the walk moves on to the next provider. A same-key retry
 * ("retry-same-key") is set only by a backend whose documented error table asks for one (docs/providers/doubao.md).
 */
export const DEFAULT_VERDICTS: Readonly<Partial<Record<ErrorClass, KeyVerdict>>> = {
	"rate-limit": "rate-limited",
	quota: "exhausted",
	auth: "exhausted",
};

const REASON_CHARS = 200;

function oneLine(text: string): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > REASON_CHARS ? `${flat.slice(0, REASON_CHARS - 1)}…` : flat || "failed";
}

function fromWebAccessError(error: WebAccessError): Classification {
	// Project kinds outside the executor's classes (config, usage, unsupported, guard, chain) are not retryable.
	const errorClass: ErrorClass = isErrorClass(error.kind) ? error.kind : "bad-request";
	const classification: Classification = { errorClass, reason: oneLine(error.message) };
	if (error.code) classification.code = error.code;
	const keyVerdict = error.keyVerdict ?? DEFAULT_VERDICTS[errorClass];
	if (keyVerdict !== undefined) classification.keyVerdict = keyVerdict;
	if (error.retryAfterMs !== undefined) classification.retryAfterMs = error.retryAfterMs;
	return classification;
}

const TRANSPORT_CODES = /^(ECONN|ENOTFOUND|EAI_|EPIPE|EHOST|ENET|ETIMEDOUT|UND_ERR_SOCKET|UND_ERR_CLOSED)/;

/** Default mapping; see providers-contract.md. Reasons never contain the key (messages we build never do). */
export function classifyError(error: unknown): Classification {
	if (isWebAccessError(error)) return fromWebAccessError(error);
	if (error instanceof Error) {
		if (error.name === "TimeoutError") return { errorClass: "timeout", reason: "timed out" };
		if (error.name === "AbortError") return { errorClass: "cancelled", reason: "cancelled" };
		const code = (error as { code?: unknown }).code;
		if (typeof code === "string" && /TIMEOUT/.test(code)) {
			return { errorClass: "timeout", reason: `timed out (${code})` };
		}
		if (typeof code === "string" && TRANSPORT_CODES.test(code)) {
			return { errorClass: "transport", reason: `connection failed (${code})` };
		}
		// A SyntaxError or TypeError here is a response shape the parser did not expect.
		if (error instanceof SyntaxError || error instanceof TypeError) {
			return { errorClass: "parse", reason: oneLine(`unexpected response: ${error.message}`) };
		}
	}
	return { errorClass: "transport", reason: "unexpected failure" };
}
