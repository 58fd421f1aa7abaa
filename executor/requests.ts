// The requests of one attempt: one request with its call context, its redaction and its failure classified, and
// the rotation through a key pool by the classifier's verdict. Every request after the first (a key rotation, a
// same-key retry) asks the walk for budget first and reports the request it replaces, so each is one entry in
// `attempts`. An attempt reports its end to a callback: the usual call, the first key answering, is one reaction to
// the provider's promise, from which the end reaches the walk synchronously (no promise per layer, no async frame).

import { type Redactor, redactorFor, redactorForKey, redactResult } from "../engine/redact.ts";
import type { WebRequest } from "../engine/request-types.ts";
import type {
	CallContext,
	CallKey,
	Classification,
	PiProviderAuth,
	ProviderDefinition,
} from "../providers/contract.ts";
import type { AttemptEnd, Attempting, AttemptSpec, Report } from "./attempt-types.ts";
import { seconds } from "./chain.ts";
import { KEY_DEFAULTS } from "./keys.ts";
import type { RaceSignal, Watcher } from "./timers.ts";

export function messageOf(error: unknown, fallback: string): string {
	return error instanceof Error && error.message ? error.message : fallback;
}

function classify(definition: ProviderDefinition, error: unknown, redactor: Redactor): Classification {
	let failure: Classification;
	try {
		failure = definition.classify(error);
	} catch {
		failure = { errorClass: "transport", reason: messageOf(error, "unclassified failure") };
	}
	// Only the caller can cancel a call; a provider that reports "cancelled" on its own failed in transit.
	if (failure.errorClass === "cancelled") failure = { ...failure, errorClass: "transport" };
	// Defence in depth: a classifier that echoes a request must still not leak a key into a reason.
	return { ...failure, reason: redactor.redact(failure.reason) };
}

/**
 * How an attempt ends when its signal aborted: the outer signal's abort, or else its own timeout. `inFlight`: a
 * request was out when it did (AttemptEnd's `abandoned`).
 */
export function ended<R>(spec: AttemptSpec, key?: string, inFlight = false): AttemptEnd<R> {
	const abandoned = inFlight ? { abandoned: true as const } : {};
	return spec.outer.aborted
		? { status: "aborted", key, ...abandoned }
		: {
				status: "error",
				failure: { errorClass: "timeout", reason: `no answer within ${seconds(spec.timeoutMs)}` },
				key,
				...abandoned,
			};
}

/** A throw where an end was expected (a bug, or a provider's): the attempt's transport failure, never the walk's. */
export function thrown<R>(error: unknown): AttemptEnd<R> {
	return { status: "error", failure: { errorClass: "transport", reason: messageOf(error, "unexpected failure") } };
}

/** A request's redactor: it masks the pool's keys (the key sent is one of them) and pi's. */
function redactorOf(key: CallKey | undefined, piAuth: PiProviderAuth | undefined, pool: readonly CallKey[]): Redactor {
	// The usual pool: one key, the one sent, and no key of pi's.
	if (pool.length === 1 && (key === undefined || key === pool[0]) && !piAuth?.apiKey) {
		return redactorForKey(pool[0]!.secret);
	}
	const secrets = pool.map((member) => member.secret);
	if (key !== undefined && !pool.includes(key)) secrets.push(key.secret);
	if (piAuth?.apiKey) secrets.push(piAuth.apiKey);
	return redactorFor(secrets);
}

/** The end goes to `report` when one is given (a rotation's own step), else to the attempt's. */
function deliver<R>(at: Attempting<R>, report: Report<R> | undefined, end: AttemptEnd<R>): void {
	if (report === undefined) at.report(end);
	else report(end);
}

/**
 * A call's `signal`, made when a provider reads it (RaceSignal.signal): the HTTP layer listens to the attempt itself
 * (`cancel`), so a provider that only sends requests makes no AbortController and its event tables. An own property
 * (a spread of the call keeps it) with one shared getter: a getter written in the object literal would be a new
 * function per call, and with it a new hidden class per call.
 */
const ATTEMPT_SIGNAL: PropertyDescriptor = {
	get(this: CallContext): AbortSignal {
		return (this.cancel as RaceSignal).signal;
	},
	enumerable: true,
	configurable: true,
};

/** One request, its end reported (once) to `report`, or to the attempt without one. */
export function callOnce<R>(
	at: Attempting<R>,
	key: CallKey | undefined,
	piAuth: PiProviderAuth | undefined,
	pool: readonly CallKey[],
	report?: Report<R>,
): void {
	const { spec, env, own, method } = at;
	const redactor = redactorOf(key, piAuth, pool);
	// Every field in the literal, the optional ones undefined when absent: one shape from the start, where adding them
	// afterwards moved them to a property array of their own with each call.
	const fields: Omit<CallContext, "signal"> = {
		config: spec.binding.config,
		key,
		piAuth,
		currentModel: env.currentModel,
		cancel: own,
		timeoutMs: spec.timeoutMs,
		onProgress: redactor.empty ? env.onProgress : (line) => env.onProgress(redactor.redact(line)),
		fetchGuard: env.fetchGuard,
		proxy: spec.binding.proxy,
		sources: spec.binding.sources,
		sites: spec.sites,
	};
	const call = Object.defineProperty(fields, "signal", ATTEMPT_SIGNAL) as CallContext;
	if (key) env.keys.used(spec.provider, key);
	let pending: Promise<R>;
	try {
		pending = Promise.resolve((method as (r: WebRequest, c: CallContext) => Promise<R>)(spec.request, call));
	} catch (error) {
		// A provider that throws synchronously is classified like any other failure.
		pending = Promise.reject(error);
	}
	own.watchWith(pending, new Outcome<R>(at, key, redactor, report));
}

/**
 * How one request ended, told to the attempt (or to `report`): the watcher of its provider's promise, whose fields
 * are what two callbacks closed over. Neither method may throw (they run as reactions): what could throw is computed
 * inside a try.
 */
class Outcome<R> implements Watcher<R> {
	private readonly at: Attempting<R>;
	private readonly key: CallKey | undefined;
	private readonly redactor: Redactor;
	private readonly report: Report<R> | undefined;

	constructor(at: Attempting<R>, key: CallKey | undefined, redactor: Redactor, report: Report<R> | undefined) {
		this.at = at;
		this.key = key;
		this.redactor = redactor;
		this.report = report;
	}

	settled(value: R): void {
		let end: AttemptEnd<R>;
		try {
			// A backend that echoes the key in a 200 (a title, a snippet) must not put it into the result either.
			end = { status: "ok", value: redactResult(value, this.redactor), key: this.key?.label };
		} catch (error) {
			this.failed(error);
			return;
		}
		deliver(this.at, this.report, end);
	}

	failed(error: unknown): void {
		const { at, key } = this;
		const { spec, own } = at;
		let end: AttemptEnd<R>;
		try {
			end = own.aborted
				? ended(spec, key?.label, true)
				: { status: "error", failure: classify(spec.binding.definition, error, this.redactor), key: key?.label };
		} catch (unexpected) {
			end = thrown(unexpected);
		}
		deliver(at, this.report, end);
	}
}

/** callOnce as a promise, for the rotation's later requests. */
function request<R>(at: Attempting<R>, key: CallKey, piAuth: PiProviderAuth | undefined, pool: readonly CallKey[]) {
	return new Promise<AttemptEnd<R>>((resolve) => callOnce<R>(at, key, piAuth, pool, resolve));
}

/**
 * Tries the pool's active keys in billing and round-robin order; verdicts decide whether the next key is tried. The
 * usual call, the first active key answering, is one request reported as it ends; a failure goes on in `rotate`.
 */
export function rotateKeys<R>(at: Attempting<R>, pool: readonly CallKey[], piAuth: PiProviderAuth | undefined): void {
	const { spec, env } = at;
	const keys = env.keys.candidates(spec.provider, pool, spec.binding.definition.keyOrder);
	let first = 0;
	while (first < keys.length && !env.keys.isActive(keys[first]!)) first++;
	if (first === keys.length) {
		at.report({ status: "error", failure: env.keys.allOut(pool), unsent: true });
		return;
	}
	const startedAt = env.clock.now();
	callOnce<R>(at, keys[first]!, piAuth, pool, (end) => {
		if (end.status !== "error") at.report(end);
		else {
			rotate<R>(at, pool, piAuth, keys.slice(first), end, startedAt).then(
				(last) => at.report(last),
				(error: unknown) => at.report(thrown(error)),
			);
		}
	});
}

/** The rotation after the first key's request failed (`firstEnd`): `keys` starts with that key. */
async function rotate<R>(
	at: Attempting<R>,
	pool: readonly CallKey[],
	piAuth: PiProviderAuth | undefined,
	keys: readonly CallKey[],
	firstEnd: AttemptEnd<R>,
	firstStartedAt: number,
): Promise<AttemptEnd<R>> {
	const { spec, env, own } = at;
	let last: { failure: Classification; key: CallKey } | undefined;
	/** When the last key failed: the pool's waits are reported as of then, so a fresh Retry-After is not cut by the ms since. */
	let failedAt: number | undefined;
	let startedAt = firstStartedAt;
	/** Budget for one more request after `end`; when granted, `end` is recorded as its own attempt. */
	const another = (failure: Classification, key: CallKey): boolean => {
		if (spec.another?.() === false) return false;
		const now = env.clock.now();
		spec.replaced?.({ key: key.label, failure, latencyMs: now - startedAt });
		startedAt = now;
		return true;
	};
	let answered: AttemptEnd<R> | undefined = firstEnd;
	for (const key of keys) {
		let end: AttemptEnd<R>;
		if (answered !== undefined) {
			end = answered; // the first key's request, already made
			answered = undefined;
		} else {
			if (!env.keys.isActive(key)) continue; // taken out by a concurrent call meanwhile
			if (last !== undefined) {
				const { errorClass, keyVerdict } = last.failure;
				if (!another(last.failure, last.key)) return { status: "error", failure: last.failure, key: last.key.label };
				const verdict = keyVerdict === "exhausted" && errorClass === "auth" ? "refused" : keyVerdict;
				const state = keyVerdict === "rate-limited" || keyVerdict === "exhausted" ? `, ${verdict}` : "";
				env.onProgress(`${spec.provider}: ${last.key.label} failed (${errorClass}${state}); trying ${key.label}`);
			}
			end = await request<R>(at, key, piAuth, pool);
		}
		// Only a backend's documented error table asks for this (docs/providers/doubao.md): once, after 200 ms.
		if (end.status === "error" && end.failure.keyVerdict === "retry-same-key") {
			if (!another(end.failure, key)) return end;
			env.onProgress(`${spec.provider}: ${key.label} failed (${end.failure.errorClass}); retrying it once`);
			try {
				await env.clock.sleep(KEY_DEFAULTS.retrySameKeyDelayMs, own.signal);
			} catch {
				return ended(spec, key.label);
			}
			startedAt = env.clock.now();
			end = await request<R>(at, key, piAuth, pool);
		}
		if (end.status !== "error") return end;
		const { failure } = end;
		last = { failure, key };
		failedAt = env.clock.now();
		if (failure.keyVerdict === "rate-limited") env.keys.rateLimit(key, failure.retryAfterMs, failedAt);
		else if (failure.keyVerdict === "exhausted") env.keys.exhaust(key, failure.errorClass === "auth");
		else if (failure.keyVerdict !== "retry-same-key") return end; // fatal, or a failure of the provider itself
	}
	if (last === undefined) return { status: "error", failure: env.keys.allOut(pool), unsent: true };
	if (pool.every((key) => !env.keys.isActive(key))) {
		const out = env.keys.allOut(pool, failedAt);
		const failure: Classification = {
			...out,
			errorClass: last.failure.errorClass,
			reason: `${last.failure.reason}; ${out.reason}`,
		};
		return { status: "error", failure, key: last.key.label };
	}
	return { status: "error", failure: last.failure, key: last.key.label };
}
