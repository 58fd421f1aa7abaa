// One attempt of one provider: its own signal under the walk's and its timeout, its keys and pi's auth, then its
// requests (requests.ts): one, or a rotation through the key pool.

import { WebAccessError } from "../engine/errors.ts";
import type { CallKey, PiProviderAuth } from "../providers/contract.ts";
import type { AttemptEnd, AttemptEnv, Attempting, AttemptSpec } from "./attempt-types.ts";
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
	const at: Attempting = { spec, env, own, method };
	let running: Promise<AttemptEnd<R>>;
	try {
		running = withCredentials<R>(at);
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
function withCredentials<R>(at: Attempting) {
	const { spec, own } = at;
	let pool: CallKey[] | Promise<CallKey[]>;
	let auth: PiAuthAnswer;
	try {
		pool = spec.binding.resolveKeys(own.signal);
		// pi's auth is asked for once the keys are there, as it always was.
		if (!Array.isArray(pool)) return waitForCredentials<R>(at, pool);
		auth = spec.binding.piAuth?.();
	} catch (error) {
		return Promise.resolve(noCredentials<R>(spec, own, error));
	}
	if (auth instanceof Promise) return waitForCredentials<R>(at, pool, auth);
	return withKeys<R>(at, pool, auth);
}

/** The binding's answer for pi's auth: at once, or to be waited for. */
type PiAuthAnswer = ReturnType<NonNullable<ProviderBinding["piAuth"]>>;

/** The keys, then pi's auth (unless it is asked for already: `auth`), waited for under the attempt's signal. */
async function waitForCredentials<R>(
	at: Attempting,
	pool: CallKey[] | Promise<CallKey[]>,
	auth?: Promise<PiProviderAuth | undefined>,
): Promise<AttemptEnd<R>> {
	const { spec, own } = at;
	let keys: CallKey[];
	let piAuth: PiProviderAuth | undefined;
	try {
		keys = Array.isArray(pool) ? pool : await own.race(pool);
		const answer = auth ?? spec.binding.piAuth?.();
		piAuth = answer instanceof Promise ? await own.race(answer) : answer;
	} catch (error) {
		return noCredentials<R>(spec, own, error);
	}
	return withKeys<R>(at, keys, piAuth);
}

function noCredentials<R>(spec: AttemptSpec, own: RaceSignal, error: unknown): AttemptEnd<R> {
	if (own.signal.aborted) return ended(spec);
	return { status: "skipped", reason: messageOf(error, "no credentials") };
}

function withKeys<R>(at: Attempting, keys: CallKey[], piAuth: PiProviderAuth | undefined): Promise<AttemptEnd<R>> {
	const { spec, env } = at;
	const { definition } = spec.binding;
	if (keys.length === 0) {
		if (definition.needsKey && piAuth?.apiKey === undefined) {
			return Promise.resolve({ status: "skipped", reason: "no credentials" });
		}
		return callOnce<R>(at, undefined, piAuth);
	}
	const eligible = env.keys.eligible(keys, definition.keyOrder);
	if (eligible.length === 0) {
		return Promise.resolve({ status: "skipped", reason: "no key of a billing kind this type accepts" });
	}
	return rotateKeys<R>(at, eligible, piAuth);
}
