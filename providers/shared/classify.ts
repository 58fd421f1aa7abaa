// Default failure classification for HTTP providers: any thrown value → error class, key verdict, retry hint and a
// one-line reason. Providers with backend-specific codes wrap it (classify = (e) => special(e) ?? classifyError(e)).

import { ERROR_CLASSES, isWebAccessError, type WebAccessError } from "../../engine/errors.ts";
import type { Classification, ErrorClass, KeyVerdict } from "../../engine/types.ts";

const CLASSES: ReadonlySet<string> = new Set<string>(ERROR_CLASSES);

/** Key verdict when the error itself does not carry one. */
const DEFAULT_VERDICT: Partial<Record<ErrorClass, KeyVerdict>> = {
	"rate-limit": "rate-limited",
	quota: "exhausted",
	auth: "exhausted",
	server: "retry-same-key",
	transport: "retry-same-key",
	timeout: "retry-same-key",
};

const REASON_CHARS = 200;

function oneLine(text: string): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > REASON_CHARS ? `${flat.slice(0, REASON_CHARS - 1)}…` : flat || "failed";
}

function fromWebAccessError(error: WebAccessError): Classification {
	// Project kinds outside the executor's classes (config, usage, unsupported, guard, chain) are not retryable.
	const errorClass: ErrorClass = CLASSES.has(error.kind) ? (error.kind as ErrorClass) : "bad-request";
	const classification: Classification = { errorClass, reason: oneLine(error.message) };
	const keyVerdict = error.keyVerdict ?? DEFAULT_VERDICT[errorClass];
	if (keyVerdict !== undefined) classification.keyVerdict = keyVerdict;
	if (error.retryAfterMs !== undefined) classification.retryAfterMs = error.retryAfterMs;
	return classification;
}

const TRANSPORT_CODES = /^(ECONN|ENOTFOUND|EAI_|EPIPE|EHOST|ENET|ETIMEDOUT|UND_ERR_SOCKET|UND_ERR_CLOSED)/;

/** Default mapping; see providers-contract.md. Reasons never contain the key (messages we build never do). */
export function classifyError(error: unknown): Classification {
	if (isWebAccessError(error)) return fromWebAccessError(error);
	if (error instanceof Error) {
		if (error.name === "TimeoutError")
			return { errorClass: "timeout", keyVerdict: "retry-same-key", reason: "timed out" };
		if (error.name === "AbortError") return { errorClass: "cancelled", reason: "cancelled" };
		const code = (error as { code?: unknown }).code;
		if (typeof code === "string" && /TIMEOUT/.test(code)) {
			return { errorClass: "timeout", keyVerdict: "retry-same-key", reason: `timed out (${code})` };
		}
		if (typeof code === "string" && TRANSPORT_CODES.test(code)) {
			return { errorClass: "transport", keyVerdict: "retry-same-key", reason: `connection failed (${code})` };
		}
		// A SyntaxError or TypeError here is a response shape the parser did not expect.
		if (error instanceof SyntaxError || error instanceof TypeError) {
			return { errorClass: "parse", reason: oneLine(`unexpected response: ${error.message}`) };
		}
	}
	return { errorClass: "transport", keyVerdict: "retry-same-key", reason: "unexpected failure" };
}
