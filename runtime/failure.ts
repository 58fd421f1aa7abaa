// What a failed call gives the model and scripts: one structure for every failure — overall and per attempt
// { kind, retryable, retryAfterMs?, provider?, hint } — and a text that ends with one line of next action (wait and
// retry, call again naming another provider, or tell the user what to configure). Shared by the tools and the CLI.

import type { ErrorClass } from "../engine/error-classes.ts";
import { ERROR_CLASSES } from "../engine/error-classes.ts";
import { isWebAccessError } from "../engine/errors.ts";
import type { Capability, Plan } from "../engine/request-types.ts";
import { RequestError } from "../engine/requests.ts";
import type { Attempt } from "../engine/result-types.ts";
import type { Setup } from "./setup.ts";

/** Why a call failed: an attempt's error class, or a reason no provider was tried. */
export type FailureKind = ErrorClass | "unavailable" | "internal";

/** The structured failure (tool `structuredContent` with `isError: true`, and CLI `--json`). */
export interface CallFailure {
	/** The whole message, as the text says it. */
	error: string;
	kind: FailureKind;
	/** Whether the same call could succeed later. */
	retryable: boolean;
	/** The shortest wait a backend asked for, when one did. */
	retryAfterMs?: number;
	/** A configured provider that can serve this call and was not tried: call again naming it. */
	provider?: string;
	/** The next action, one line. */
	hint: string;
	attempts: Attempt[];
}

/** How the next action names things: the model's tool call or the CLI's flags. */
export interface FailureWording {
	/** `call web_search again with provider: "brave"` or `run again with --provider brave`. */
	withProvider(name: string): string;
	/** `call web_search again`, `run it again`. */
	again: string;
}

export function toolWording(toolName: string): FailureWording {
	return { withProvider: (name) => `call ${toolName} again with provider: "${name}"`, again: `call ${toolName} again` };
}

export const CLI_WORDING: FailureWording = {
	withProvider: (name) => `run it again with --provider ${name}`,
	again: "run it again",
};

const RETRYABLE: ReadonlySet<string> = new Set<ErrorClass>(["transport", "timeout", "server", "rate-limit"]);
const CLASSES: ReadonlySet<string> = new Set<string>(ERROR_CLASSES);

const seconds = (ms: number) => `${Math.max(1, Math.ceil(ms / 1000))} s`;

/** Kind of a recorded attempt: the walk sets it on errors; reasons of walk-made ends start with the class. */
function kindOf(attempt: Attempt): NonNullable<Attempt["kind"]> {
	if (attempt.outcome === "skipped") return "unavailable";
	if (attempt.kind !== undefined) return attempt.kind;
	const prefix = attempt.reason?.match(/^([a-z-]+):/)?.[1];
	return prefix !== undefined && CLASSES.has(prefix) ? (prefix as ErrorClass) : "transport";
}

function attemptHint(kind: FailureKind, attempt: Attempt): string {
	const reason = attempt.reason ?? "";
	switch (kind) {
		case "unavailable":
			if (/^no credentials/.test(reason)) return `needs a key (${reason.replace(/^no credentials: /, "")})`;
			return `not usable for this call (${reason || "skipped"})`;
		case "rate-limit":
			return attempt.retryAfterMs !== undefined
				? `rate limited: wait ${seconds(attempt.retryAfterMs)}`
				: "rate limited: wait";
		case "quota":
			return "its quota or credit is used up: top it up or add a key";
		case "auth":
			return "its key was refused: fix or replace the key";
		case "timeout":
			return "it did not answer in time: retry later";
		case "server":
			return "the backend failed: retry later";
		case "transport":
			return /proxy/.test(reason)
				? "the proxy failed: retry later or check the proxy"
				: "could not connect: retry later";
		case "bad-request":
			if (/fetchGuard/.test(reason)) return "the private-network guard refused the address: only the user can allow it";
			return "it refused this request as asked: change the arguments or the provider";
		case "parse":
			return "it answered in an unexpected form: try another provider";
		case "cancelled":
			return "cancelled";
		default:
			return "failed";
	}
}

/** Adds kind, retryable, retryAfterMs and hint to failed and skipped attempts; successful ones stay as they are. */
export function explainAttempts(attempts: readonly Attempt[]): Attempt[] {
	return attempts.map((attempt) => {
		if (attempt.outcome === "ok" || attempt.outcome === "empty") return attempt;
		const kind = kindOf(attempt);
		const retryable =
			RETRYABLE.has(kind) ||
			(kind === "quota" && attempt.retryAfterMs !== undefined) ||
			(attempt.outcome === "error" && /overall deadline/.test(attempt.reason ?? ""));
		return { ...attempt, kind, retryable, hint: attemptHint(kind, attempt) };
	});
}

/** Configured providers able to serve the request that this call did not try, in declaration order. */
function untried(
	setup: Setup | undefined,
	plan: Plan | undefined,
	capability: Capability,
	attempts: readonly Attempt[],
): string[] {
	if (setup === undefined || plan === undefined) return [];
	const tried = new Set(attempts.map((a) => a.provider));
	return setup.table.config.providers
		.filter((p) => !tried.has(p.name) && setup.context.canServe(p, capability))
		.filter((p) => setup.context.readiness(p, capability, plan.request).status === "ready")
		.map((p) => p.name);
}

/** Kind, retryable and wait of the call as a whole, from its attempts. */
function overall(attempts: readonly Attempt[], fallback: FailureKind) {
	const real = attempts.filter((a) => a.outcome === "error" && a.kind !== "cancelled");
	const retryable = real.filter((a) => a.retryable);
	const waits = retryable.map((a) => a.retryAfterMs).filter((ms): ms is number => ms !== undefined);
	const kind: FailureKind =
		(retryable[0]?.kind as FailureKind) ?? (real[0]?.kind as FailureKind) ?? (attempts[0] ? "unavailable" : fallback);
	return { kind, retryable: retryable.length > 0, ...(waits.length > 0 ? { retryAfterMs: Math.min(...waits) } : {}) };
}

function nextAction(
	whole: { kind: FailureKind; retryable: boolean; retryAfterMs?: number },
	attempts: readonly Attempt[],
	alternative: string | undefined,
	wording: FailureWording,
): string {
	const wait =
		whole.retryAfterMs !== undefined ? `wait ${seconds(whole.retryAfterMs)}, then ${wording.again}` : undefined;
	if (alternative !== undefined) {
		const also = whole.retryable ? `; or ${wait ?? `${wording.again} later`}` : "";
		return `${wording.withProvider(alternative)} (configured, not tried in this call)${also}`;
	}
	if (whole.retryable) return wait ?? `${wording.again} in a little while; do not retry at once`;
	if (whole.kind === "unavailable" || whole.kind === "auth" || whole.kind === "quota") {
		const first = attempts.find((a) => a.kind === whole.kind);
		const what = first ? `${first.provider}: ${first.hint}` : "no provider is set up for this call";
		return `the user must set this up (${what}); tell them, retrying will not help until then`;
	}
	if (attempts.some((a) => /fetchGuard/.test(a.reason ?? ""))) {
		return "tell the user the address is on a private network and refused (fetchGuard in pi-web-access.json allows it); do not retry";
	}
	if (whole.kind === "bad-request") return `change the arguments as the message says before you ${wording.again}`;
	if (whole.kind === "cancelled") return "the call was cancelled; do not retry unless asked";
	return `do not retry this call unchanged; tell the user web access failed (${whole.kind})`;
}

function firstLine(text: string): string {
	return (text.split("\n")[0] ?? "").slice(0, 500);
}

/**
 * The structure and the text of a failed call. `error` is what was thrown: a WebAccessError (its attempts are
 * used), a RequestError (bad arguments), or anything else (reported as an internal failure, message only).
 */
export function describeFailure(
	error: unknown,
	context: { setup?: Setup; plan?: Plan; capability: Capability; wording: FailureWording },
): { failure: CallFailure; text: string } {
	const { setup, plan, capability, wording } = context;
	let message: string;
	let fallback: FailureKind;
	let attempts: Attempt[] = [];
	if (isWebAccessError(error)) {
		message = error.message;
		attempts = explainAttempts(error.attempts ?? []);
		fallback = error.kind === "usage" || error.kind === "unsupported" ? "bad-request" : "unavailable";
		if (CLASSES.has(error.kind)) fallback = error.kind as ErrorClass;
	} else if (error instanceof RequestError) {
		message = error.message;
		fallback = "bad-request";
	} else {
		message = `internal error in pi-web-access: ${firstLine(error instanceof Error ? error.message : String(error))}`;
		fallback = "internal";
	}
	const whole = error instanceof RequestError ? { kind: fallback, retryable: false } : overall(attempts, fallback);
	const alternative = untried(setup, plan, capability, attempts)[0];
	const hint = nextAction(whole, attempts, alternative, wording);
	const failure: CallFailure = {
		error: message,
		...whole,
		...(alternative !== undefined ? { provider: alternative } : {}),
		hint,
		attempts,
	};
	return { failure, text: `${message}\nNext: ${hint}.` };
}
