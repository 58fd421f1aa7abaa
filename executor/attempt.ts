// One attempt of one provider: resolve its keys, call it under its timeout, classify a failure and rotate through
// the key pool by the classifier's verdict. Every request after the first (a key rotation, a same-key retry) asks
// the walk for budget first and reports the request it replaces, so each request is one entry in `attempts`.

import type { Config } from "../engine/config-types.ts";
import { WebAccessError } from "../engine/errors.ts";
import { type Redactor, redactorFor, redactResult } from "../engine/redact.ts";
import type { WebRequest } from "../engine/request-types.ts";
import type { RequestSites } from "../engine/sites.ts";
import type {
	CallContext,
	CallKey,
	Classification,
	CurrentModel,
	PiProviderAuth,
	ProviderDefinition,
} from "../providers/contract.ts";
import { seconds } from "./chain.ts";
import { KEY_DEFAULTS, type KeyBook } from "./keys.ts";
import { RaceSignal, type Scope } from "./timers.ts";
import type { Clock, ProviderBinding } from "./types.ts";

/** What every attempt of one walk shares. */
export interface AttemptEnv {
	clock: Clock;
	keys: KeyBook;
	currentModel?: CurrentModel;
	fetchGuard?: Config["fetchGuard"];
	onProgress: (line: string) => void;
}

export interface AttemptSpec {
	provider: string;
	binding: ProviderBinding;
	request: WebRequest;
	/** Caller, overall deadline and hedge combined; its abort ends the attempt as "aborted". */
	outer: Scope;
	/** The plan's parsed site filters, handed to the provider. */
	sites?: RequestSites;
	timeoutMs: number;
	/** Asked before each further request of this attempt (maxAttempts counts it); false: send nothing more. */
	another?(): boolean;
	/** A request of this attempt failed and another one follows (its own entry in `attempts`). */
	replaced?(request: { key?: string; failure: Classification; latencyMs: number }): void;
}

/** How an attempt ended. `key` is the label of the last key used. */
export type AttemptEnd<R> =
	| { status: "ok"; value: R; key?: string }
	/** `unsent`: no request went out (every key of the pool was already out), so it does not count as one. */
	| { status: "error"; failure: Classification; key?: string; unsent?: true }
	/** The outer signal aborted; the walk knows which of its sources did. */
	| { status: "aborted"; key?: string }
	/** Nothing was sent: no credentials, or the type cannot serve this capability. */
	| { status: "skipped"; reason: string };

function messageOf(error: unknown, fallback: string): string {
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
function ended<R>(spec: AttemptSpec, key?: string): AttemptEnd<R> {
	return spec.outer.aborted
		? { status: "aborted", key }
		: {
				status: "error",
				failure: { errorClass: "timeout", reason: `no answer within ${seconds(spec.timeoutMs)}` },
				key,
			};
}

export async function runAttempt<R>(spec: AttemptSpec, env: AttemptEnv): Promise<AttemptEnd<R>> {
	const { definition } = spec.binding;
	const method = spec.request.kind === "search" ? definition.search : definition.fetch;
	if (method === undefined) return { status: "skipped", reason: `cannot ${spec.request.kind}` };
	// The attempt's own signal: the outer one (caller, deadline, hedge loser) or its timeout, whichever comes first.
	const own = new RaceSignal(spec.outer);
	const cancelTimeout = env.clock.after(Math.max(0, spec.timeoutMs), () =>
		own.abort(
			new WebAccessError(`no answer within ${seconds(spec.timeoutMs)}`, {
				kind: "timeout",
				code: "timeout",
				provider: spec.provider,
			}),
		),
	);
	try {
		let keys: CallKey[];
		let piAuth: PiProviderAuth | undefined;
		try {
			const pool = spec.binding.resolveKeys(own.signal);
			keys = Array.isArray(pool) ? pool : await own.race(pool);
			const auth = spec.binding.piAuth?.();
			piAuth = auth instanceof Promise ? await own.race(auth) : auth;
		} catch (error) {
			if (own.signal.aborted) return ended(spec);
			return { status: "skipped", reason: messageOf(error, "no credentials") };
		}
		if (keys.length === 0) {
			if (definition.needsKey && piAuth?.apiKey === undefined) return { status: "skipped", reason: "no credentials" };
			return await callOnce<R>(spec, env, own, method, undefined, piAuth);
		}
		const eligible = env.keys.eligible(keys, definition.keyOrder);
		if (eligible.length === 0) return { status: "skipped", reason: "no key of a billing kind this type accepts" };
		return await rotateKeys<R>(spec, env, own, method, eligible, piAuth);
	} finally {
		cancelTimeout();
		own.release();
	}
}

type Method = NonNullable<ProviderDefinition["search"]> | NonNullable<ProviderDefinition["fetch"]>;

/** One request; a promise chain, not an async function, so no frame of its own waits out the request. */
function callOnce<R>(
	spec: AttemptSpec,
	env: AttemptEnv,
	own: RaceSignal,
	method: Method,
	key: CallKey | undefined,
	piAuth: PiProviderAuth | undefined,
	pool: readonly CallKey[] = [],
): Promise<AttemptEnd<R>> {
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

/** Tries the pool's active keys in billing and round-robin order; verdicts decide whether the next key is tried. */
async function rotateKeys<R>(
	spec: AttemptSpec,
	env: AttemptEnv,
	own: RaceSignal,
	method: Method,
	pool: CallKey[],
	piAuth: PiProviderAuth | undefined,
): Promise<AttemptEnd<R>> {
	let last: { failure: Classification; key: CallKey } | undefined;
	/** When the last key failed: the pool's waits are reported as of then, so a fresh Retry-After is not cut by the ms since. */
	let failedAt: number | undefined;
	let startedAt = env.clock.now();
	/** Budget for one more request after `end`; when granted, `end` is recorded as its own attempt. */
	const another = (failure: Classification, key: CallKey): boolean => {
		if (spec.another?.() === false) return false;
		const now = env.clock.now();
		spec.replaced?.({ key: key.label, failure, latencyMs: now - startedAt });
		startedAt = now;
		return true;
	};
	for (const key of env.keys.candidates(spec.provider, pool, spec.binding.definition.keyOrder)) {
		if (!env.keys.isActive(key)) continue; // taken out by a concurrent call meanwhile
		if (last !== undefined) {
			const { errorClass, keyVerdict } = last.failure;
			if (!another(last.failure, last.key)) return { status: "error", failure: last.failure, key: last.key.label };
			const state = keyVerdict === "rate-limited" || keyVerdict === "exhausted" ? `, ${keyVerdict}` : "";
			env.onProgress(`${spec.provider}: ${last.key.label} failed (${errorClass}${state}); trying ${key.label}`);
		}
		let end = await callOnce<R>(spec, env, own, method, key, piAuth, pool);
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
			end = await callOnce<R>(spec, env, own, method, key, piAuth, pool);
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
