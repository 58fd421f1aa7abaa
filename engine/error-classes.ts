// The closed vocabularies of failure: the error classes a provider failure is classified into and what a failure
// means for the key that was used. A leaf module, so the config, result and error seams can all name them.

/** The closed set of error classes a provider failure is classified into. */
export type ErrorClass =
	| "transport"
	| "timeout"
	| "rate-limit"
	| "quota"
	| "auth"
	| "server"
	| "bad-request"
	| "parse"
	| "cancelled";

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

/** What a failure means for the key that was used (key pools). */
export type KeyVerdict = "rate-limited" | "exhausted" | "retry-same-key" | "fatal";
