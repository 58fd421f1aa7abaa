// The requests of one attempt: one request with its call context, its redaction and its failure classified, and
// the rotation through a key pool by the classifier's verdict. Every request after the first (a key rotation, a
// same-key retry) asks the walk for budget first and reports the request it replaces, so each is one entry in
// `attempts`. The usual call, the first key answering, runs as one promise chain (no async frame waits it out).

import { type Redactor, redactorFor, redactResult } from "../engine/redact.ts";
import type { WebRequest } from "../engine/request-types.ts";
import type {
	CallContext,
	CallKey,
	Classification,
	PiProviderAuth,
	ProviderDefinition,
} from "../providers/contract.ts";
import type { AttemptEnd, Attempting, AttemptSpec } from "./attempt-types.ts";
import { seconds } from "./chain.ts";
import { KEY_DEFAULTS } from "./keys.ts";

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

/** How an attempt ends when its signal aborted: the outer signal's abort, or else its own timeout. */
export function ended<R>(spec: AttemptSpec, key?: string): AttemptEnd<R> {
	return spec.outer.aborted
		? { status: "aborted", key }
		: {
				status: "error",
				failure: { errorClass: "timeout", reason: `no answer within ${seconds(spec.timeoutMs)}` },
				key,
			};
}

/** One request; a promise chain, not an async function, so no frame of its own waits out the request. */
export function callOnce<R>(
	at: Attempting,
	key: CallKey | undefined,
	piAuth: PiProviderAuth | undefined,
	pool: readonly CallKey[] = [],
): Promise<AttemptEnd<R>> {
	const { spec, env, own, method } = at;
	const secrets: string[] = [];
	for (const member of pool) secrets.push(member.secret);
	if (key) secrets.push(key.secret);
	if (piAuth?.apiKey) secrets.push(piAuth.apiKey);
	const redactor = redactorFor(secrets);
	const call: CallContext = {
		config: spec.binding.config,
		key,
		piAuth,
		currentModel: env.currentModel,
		signal: own.signal,
		timeoutMs: spec.timeoutMs,
		onProgress: redactor.empty ? env.onProgress : (line) => env.onProgress(redactor.redact(line)),
		fetchGuard: env.fetchGuard,
	};
	if (spec.binding.proxy) call.proxy = spec.binding.proxy;
	if (spec.sites) call.sites = spec.sites;
	if (key) env.keys.used(spec.provider, key);
	const failed = (error: unknown): AttemptEnd<R> => {
		if (own.signal.aborted) return ended(spec, key?.label);
		return { status: "error", failure: classify(spec.binding.definition, error, redactor), key: key?.label };
	};
	let pending: Promise<R>;
	try {
		pending = Promise.resolve((method as (r: WebRequest, c: CallContext) => Promise<R>)(spec.request, call));
	} catch (error) {
		// A provider that throws synchronously is classified like any other failure.
		pending = Promise.reject(error);
	}
	return own.race(pending).then((value): AttemptEnd<R> => {
		try {
			// A backend that echoes the key in a 200 (a title, a snippet) must not put it into the result either.
			return { status: "ok", value: redactResult(value, redactor), key: key?.label };
		} catch (error) {
			return failed(error);
		}
	}, failed);
}

/**
 * Tries the pool's active keys in billing and round-robin order; verdicts decide whether the next key is tried. The
 * usual call, the first active key answering, is one request and a promise chain; a failure goes on in `rotate`.
 */
export function rotateKeys<R>(
	at: Attempting,
	pool: readonly CallKey[],
	piAuth: PiProviderAuth | undefined,
): Promise<AttemptEnd<R>> {
	const { spec, env } = at;
	const keys = env.keys.candidates(spec.provider, pool, spec.binding.definition.keyOrder);
	const first = keys.findIndex((key) => env.keys.isActive(key));
	if (first < 0) return Promise.resolve({ status: "error", failure: env.keys.allOut(pool), unsent: true });
	const startedAt = env.clock.now();
	return callOnce<R>(at, keys[first]!, piAuth, pool).then((end) =>
		end.status === "error" ? rotate(at, pool, piAuth, keys.slice(first), end, startedAt) : end,
	);
}

/** The rotation after the first key's request failed (`firstEnd`): `keys` starts with that key. */
async function rotate<R>(
	at: Attempting,
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
				const state = keyVerdict === "rate-limited" || keyVerdict === "exhausted" ? `, ${keyVerdict}` : "";
				env.onProgress(`${spec.provider}: ${last.key.label} failed (${errorClass}${state}); trying ${key.label}`);
			}
			end = await callOnce<R>(at, key, piAuth, pool);
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
			end = await callOnce<R>(at, key, piAuth, pool);
		}
		if (end.status !== "error") return end;
		const { failure } = end;
		last = { failure, key };
		failedAt = env.clock.now();
		if (failure.keyVerdict === "rate-limited") env.keys.rateLimit(key, failure.retryAfterMs, failedAt);
		else if (failure.keyVerdict === "exhausted") env.keys.exhaust(key);
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
