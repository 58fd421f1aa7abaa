// One attempt of one provider: its own signal under the walk's and its timeout, its keys and pi's auth, then its
// requests (requests.ts): one, or a rotation through the key pool.

import { WebAccessError } from "../engine/errors.ts";
import type { CallKey, PiProviderAuth } from "../providers/contract.ts";
import type { AttemptEnd, AttemptEnv, AttemptSpec, Method } from "./attempt-types.ts";
import { seconds } from "./chain.ts";
import { callOnce, ended, messageOf, rotateKeys } from "./requests.ts";
import { RaceSignal } from "./timers.ts";
import type { ProviderBinding } from "./types.ts";

/** Not an async function: while the backend answers, only the request's own chain is waiting. */
export function runAttempt<R>(spec: AttemptSpec, env: AttemptEnv): Promise<AttemptEnd<R>> {
	const { definition } = spec.binding;
	const method = spec.request.kind === "search" ? definition.search : definition.fetch;
	if (method === undefined) return Promise.resolve({ status: "skipped", reason: `cannot ${spec.request.kind}` });
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
	const over = () => {
		cancelTimeout();
		own.release();
	};
	let running: Promise<AttemptEnd<R>>;
	try {
		running = withCredentials<R>(spec, env, own, method);
	} catch (error) {
		running = Promise.reject(error);
	}
	return running.then(
		(end) => {
			over();
			return end;
		},
		(error: unknown) => {
			over();
			throw error;
		},
	);
}

/** Keys and pi's auth, then the request; it waits for them only when one must be waited for (a !command, pi). */
function withCredentials<R>(spec: AttemptSpec, env: AttemptEnv, own: RaceSignal, method: Method) {
	let pool: CallKey[] | Promise<CallKey[]>;
	let auth: ReturnType<NonNullable<ProviderBinding["piAuth"]>>;
	try {
		pool = spec.binding.resolveKeys(own.signal);
		auth = Array.isArray(pool) ? spec.binding.piAuth?.() : undefined;
	} catch (error) {
		return Promise.resolve(noCredentials<R>(spec, own, error));
	}
	if (!Array.isArray(pool) || auth instanceof Promise) return waitForCredentials<R>(spec, env, own, method, pool, auth);
	return withKeys<R>(spec, env, own, method, pool, auth);
}

async function waitForCredentials<R>(
	spec: AttemptSpec,
	env: AttemptEnv,
	own: RaceSignal,
	method: Method,
	pool: CallKey[] | Promise<CallKey[]>,
	auth: ReturnType<NonNullable<ProviderBinding["piAuth"]>>,
): Promise<AttemptEnd<R>> {
	let keys: CallKey[];
	let piAuth: PiProviderAuth | undefined;
	try {
		keys = Array.isArray(pool) ? pool : await own.race(pool);
		// pi's auth is asked for once the keys are there, as it always was.
		const pending = Array.isArray(pool) ? auth : spec.binding.piAuth?.();
		piAuth = pending instanceof Promise ? await own.race(pending) : pending;
	} catch (error) {
		return noCredentials<R>(spec, own, error);
	}
	return withKeys<R>(spec, env, own, method, keys, piAuth);
}

function noCredentials<R>(spec: AttemptSpec, own: RaceSignal, error: unknown): AttemptEnd<R> {
	if (own.signal.aborted) return ended(spec);
	return { status: "skipped", reason: messageOf(error, "no credentials") };
}

function withKeys<R>(
	spec: AttemptSpec,
	env: AttemptEnv,
	own: RaceSignal,
	method: Method,
	keys: CallKey[],
	piAuth: PiProviderAuth | undefined,
): Promise<AttemptEnd<R>> {
	const { definition } = spec.binding;
	if (keys.length === 0) {
		if (definition.needsKey && piAuth?.apiKey === undefined) {
			return Promise.resolve({ status: "skipped", reason: "no credentials" });
		}
		return callOnce<R>(spec, env, own, method, undefined, piAuth);
	}
	const eligible = env.keys.eligible(keys, definition.keyOrder);
	if (eligible.length === 0) {
		return Promise.resolve({ status: "skipped", reason: "no key of a billing kind this type accepts" });
	}
	return rotateKeys<R>(spec, env, own, method, eligible, piAuth);
}
