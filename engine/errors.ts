// The one error type of the project: a closed set of kinds, a stable code and data fields.
// Messages are for people and never contain a key; `cause` keeps the original error for debugging.

import { ERROR_CLASSES, type KeyVerdict } from "./error-classes.ts";
import type { Attempt } from "./result-types.ts";

/** Error kinds, in one list: the error classes plus the project's own failures. */
export const ERROR_KINDS = [...ERROR_CLASSES, "config", "usage", "unsupported", "guard", "chain"] as const;

/** One of ERROR_KINDS. */
export type ErrorKind = (typeof ERROR_KINDS)[number];

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
