// What a failed call gives the model and scripts: one structure for every failure — overall and per attempt
// { kind, retryable, retryAfterMs?, provider?, hint } — and a text that ends with one line of next action (wait and
// retry, call again naming another provider, fix a key, what to configure). Shared by the tools and the CLI: the
// model is told what to relay to the user, the person at the CLI what to change.

import type { ErrorClass } from "../engine/error-classes.ts";
import { ERROR_CLASSES } from "../engine/error-classes.ts";
import { isWebAccessError } from "../engine/errors.ts";
import type { Capability, Plan } from "../engine/request-types.ts";
import { RequestError } from "../engine/requests.ts";
import type { Attempt } from "../engine/result-types.ts";
import { keySource } from "./credentials.ts";
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
	/** Who reads the advice: the model relays what only the user can do; a person at the CLI does it. */
	reader: "model" | "person";
}

export function toolWording(toolName: string): FailureWording {
	return {
		withProvider: (name) => `call ${toolName} again with provider: "${name}"`,
		again: `call ${toolName} again`,
		reader: "model",
	};
}

export const CLI_WORDING: FailureWording = {
	withProvider: (name) => `run it again with --provider ${name}`,
	again: "run it again",
	reader: "person",
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

/** The keys of an attempt a backend refused, each with where it came from: `key1 (from $EXA_API_KEY)`. */
type RefusedKeys = (attempt: Attempt) => string[];

/** Labels marked refused in the pool's state (executor/keys.ts describe), else the attempt's own key. */
function refusedLabels(attempt: Attempt): string[] {
	const marked = [...(attempt.reason ?? "").matchAll(/(?:^|[ ,:])([^\s,=]+)=refused/g)].map((m) => m[1]!);
	return marked.length > 0 ? marked : attempt.key !== undefined ? [attempt.key] : [];
}

function refusedKeysIn(setup: Setup | undefined): RefusedKeys {
	return (attempt) => {
		const provider = setup?.table.config.providers.find((p) => p.name === attempt.provider);
		return refusedLabels(attempt).map((label) => {
			const source = provider && setup ? keySource(provider, label, setup.deps) : undefined;
			return source ? `${label} (${source})` : label;
		});
	};
}

const joined = (items: string[]) =>
	items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

function refusedHint(keys: string[]): string {
	if (keys.length === 0) return "its key was refused: check or replace it";
	if (keys.length === 1) return `its key ${keys[0]} was refused: check or replace it`;
	return `its keys ${joined(keys)} were refused: check or replace them`;
}

function attemptHint(kind: FailureKind, attempt: Attempt, refused: RefusedKeys): string {
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
			return refusedHint(refused(attempt));
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

/**
 * Adds kind, retryable, retryAfterMs and hint to failed and skipped attempts; successful ones stay as they are.
 * `refused` names a refused key's source (the set-up knows it); without it the label alone is named.
 */
export function explainAttempts(attempts: readonly Attempt[], refused: RefusedKeys = refusedLabels): Attempt[] {
	return attempts.map((attempt) => {
		if (attempt.outcome === "ok" || attempt.outcome === "empty") return attempt;
		const kind = kindOf(attempt);
		const retryable =
			RETRYABLE.has(kind) ||
			(kind === "quota" && attempt.retryAfterMs !== undefined) ||
			(attempt.outcome === "error" && /overall deadline/.test(attempt.reason ?? ""));
		return { ...attempt, kind, retryable, hint: attemptHint(kind, attempt, refused) };
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
	// A cancelled call whose attempts were all cut short is cancelled, not "unavailable".
	const kind: FailureKind =
		(retryable[0]?.kind as FailureKind) ??
		(real[0]?.kind as FailureKind) ??
		(attempts[0] && fallback !== "cancelled" ? "unavailable" : fallback);
	return { kind, retryable: retryable.length > 0, ...(waits.length > 0 ? { retryAfterMs: Math.min(...waits) } : {}) };
}

/** What the next action needs beyond the attempts: who reads it, what was asked, the set-up's names. */
interface ActionContext {
	wording: FailureWording;
	capability: Capability;
	setup: Setup | undefined;
	refused: RefusedKeys;
}

/** A backend's 4xx that is not about keys: what to change, by status and capability. */
function badRequestAction(attempt: Attempt, context: ActionContext): string {
	const { wording, capability, setup } = context;
	const status = /\bHTTP (\d{3})\b/.exec(attempt.reason ?? "")?.[1];
	const file = setup?.loaded.file ?? "pi-web-access.json";
	const before = wording.reader === "model" ? ` before you ${wording.again}` : "";
	if (status === "404" && capability === "fetch") return "the page was not found (HTTP 404): check the URL";
	if (status === "404") {
		const baseUrl = setup?.table.config.providers.find((p) => p.name === attempt.provider)?.baseUrl;
		return baseUrl
			? `${attempt.provider} answered HTTP 404 (not found): check its baseUrl (${baseUrl}) in ${file}`
			: `${attempt.provider} answered HTTP 404 (not found): its endpoint may have moved; set its baseUrl in ${file}`;
	}
	const what = capability === "fetch" ? "the URL" : "the query or its filters (domains, recency)";
	return `${attempt.provider} refused the request${status ? ` (HTTP ${status})` : ""}: change ${what}${before}`;
}

function nextAction(
	whole: { kind: FailureKind; retryable: boolean; retryAfterMs?: number },
	attempts: readonly Attempt[],
	alternative: string | undefined,
	context: ActionContext,
): string {
	const { wording } = context;
	const person = wording.reader === "person";
	const untried = alternative ? `${wording.withProvider(alternative)} (configured, not tried in this call)` : "";
	const refusal = attempts.find((a) => a.kind === "auth");
	// A person fixes the key first; the untried provider is the way around it.
	if (person && whole.kind === "auth" && refusal) {
		// Each key of a pool may be its own attempt: all of the provider's refused keys, once each.
		const same = attempts.filter((a) => a.kind === "auth" && a.provider === refusal.provider);
		const keys = [...new Set(same.flatMap((a) => context.refused(a)))];
		const fix = keys.length > 1 ? "check or replace them" : "check or replace it";
		return `${refusal.provider} refused ${keys.length > 0 ? joined(keys) : "its key"}: ${fix}${untried ? `; or ${untried}` : ""}`;
	}
	const wait =
		whole.retryAfterMs !== undefined ? `wait ${seconds(whole.retryAfterMs)}, then ${wording.again}` : undefined;
	if (untried) return `${untried}${whole.retryable ? `; or ${wait ?? `${wording.again} later`}` : ""}`;
	if (whole.retryable) return wait ?? `${wording.again} in a little while${person ? "" : "; do not retry at once"}`;
	if (whole.kind === "unavailable" || whole.kind === "auth" || whole.kind === "quota") {
		const first = attempts.find((a) => a.kind === whole.kind);
		const what = first ? `${first.provider}: ${first.hint}` : "no provider is set up for this call";
		if (person) return `${what}; running it again will not help until then`;
		return `the user must set this up (${what}); tell them, retrying will not help until then`;
	}
	if (attempts.some((a) => /fetchGuard/.test(a.reason ?? ""))) {
		if (!person) {
			return "tell the user the address is on a private network and refused (fetchGuard in pi-web-access.json allows it); do not retry";
		}
		const file = context.setup?.loaded.file ?? "pi-web-access.json";
		return `the address is on a private network, which fetchGuard refuses; to allow it, add its range to fetchGuard.allowRanges in ${file}`;
	}
	const refused = attempts.find((a) => a.kind === "bad-request");
	if (whole.kind === "bad-request" && refused) return badRequestAction(refused, context);
	if (whole.kind === "bad-request") return `change the arguments as the message says before you ${wording.again}`;
	if (whole.kind === "cancelled") return "the call was cancelled; do not retry unless asked";
	if (person) return `web access failed (${whole.kind}); the reasons above say why`;
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
	const refused = refusedKeysIn(setup);
	let message: string;
	let fallback: FailureKind;
	let attempts: Attempt[] = [];
	if (isWebAccessError(error)) {
		message = error.message;
		attempts = explainAttempts(error.attempts ?? [], refused);
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
	const hint = nextAction(whole, attempts, alternative, { wording, capability, setup, refused });
	const failure: CallFailure = {
		error: message,
		...whole,
		...(alternative !== undefined ? { provider: alternative } : {}),
		hint,
		attempts,
	};
	return { failure, text: `${message}\nNext: ${hint}.` };
}
