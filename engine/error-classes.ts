// The closed vocabularies of failure: the error classes a provider failure is classified into and what a failure
// means for the key that was used. A leaf module, so the config, result and error seams can all name them.

/**
 * The closed set of error classes a provider failure is classified into, in one list: the config schema's
 * `fallbackOn` enum, the classifiers, the tool schemas and the fault matrix all read it.
 */
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
] as const;

/** One of ERROR_CLASSES. */
export type ErrorClass = (typeof ERROR_CLASSES)[number];

export function isErrorClass(value: string): value is ErrorClass {
	return (ERROR_CLASSES as readonly string[]).includes(value);
}

/** What a failure means for the key that was used (key pools). */
export type KeyVerdict = "rate-limited" | "exhausted" | "retry-same-key" | "fatal";
