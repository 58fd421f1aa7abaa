// The one error type of the project: a closed set of kinds, a stable code and data fields.
// Messages are for people and never contain a key; `cause` keeps the original error for debugging.

import type { Attempt, ErrorClass, KeyVerdict } from "./types.ts";

/** The closed set of error classes, in one list (schema enum, classifiers, `fallbackOn`). */
export const ERROR_CLASSES = [
	"transport",
	"timeout",
	"rate-limit",
	"quota",
	"auth",
	"server",
	"bad-request",
	"parse",
	"cancelled",
] as const satisfies readonly ErrorClass[];

// Fails to compile when ErrorClass gains a member the list lacks.
const everyClassListed: Exclude<ErrorClass, (typeof ERROR_CLASSES)[number]> extends never ? true : never = true;
void everyClassListed;

export function isErrorClass(value: string): value is ErrorClass {
	return (ERROR_CLASSES as readonly string[]).includes(value);
}

/** Error kinds: the executor's error classes plus the project's own failures. */
export type ErrorKind = ErrorClass | "config" | "usage" | "unsupported" | "guard" | "chain";

export interface WebAccessErrorData {
	kind: ErrorKind;
	/** Stable machine-readable code, e.g. "http-429", "doubao-700429", "all-failed". */
	code: string;
	provider?: string;
	status?: number;
	url?: string;
	retryAfterMs?: number;
	keyVerdict?: KeyVerdict;
	/** For kind "chain": every attempt made. */
	attempts?: Attempt[];
	cause?: unknown;
}

export class WebAccessError extends Error {
	readonly kind: ErrorKind;
	readonly code: string;
	readonly provider?: string;
	readonly status?: number;
	readonly url?: string;
	readonly retryAfterMs?: number;
	readonly keyVerdict?: KeyVerdict;
	readonly attempts?: Attempt[];

	constructor(message: string, data: WebAccessErrorData) {
		super(message, data.cause === undefined ? undefined : { cause: data.cause });
		this.name = "WebAccessError";
		this.kind = data.kind;
		this.code = data.code;
		this.provider = data.provider;
		this.status = data.status;
		this.url = data.url;
		this.retryAfterMs = data.retryAfterMs;
		this.keyVerdict = data.keyVerdict;
		this.attempts = data.attempts;
	}
}

export function isWebAccessError(value: unknown): value is WebAccessError {
	return value instanceof WebAccessError;
}
