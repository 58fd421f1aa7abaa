// One attempt of one provider, once it is armed (executor/running.ts: its own signal under the walk's, its timeout):
// its keys and pi's auth, then its requests (requests.ts): one, or a rotation through the key pool. Its end goes to
// the attempt's `report`, once.

import type { CallKey, PiProviderAuth } from "../providers/contract.ts";
import type { AttemptEnd, Attempting, AttemptSpec } from "./attempt-types.ts";
import { callOnce, ended, messageOf, rotateKeys, thrown } from "./requests.ts";
import type { RaceSignal } from "./timers.ts";
import type { ProviderBinding } from "./types.ts";

/**
 * Keys and pi's auth, then the request; it waits for them only when one must be waited for (a !command, pi). No
 * promise of its own: while the backend answers, only the provider's promise is waited on.
 */
export function runAttempt<R>(at: Attempting<R>): void {
	const { spec, own } = at;
	let pool: CallKey[] | Promise<CallKey[]>;
	let auth: PiAuthAnswer;
	try {
		pool = spec.binding.resolveKeys(own);
		// pi's auth is asked for once the keys are there, as it always was.
		if (!Array.isArray(pool)) {
			waitForCredentials<R>(at, pool, undefined);
			return;
		}
		auth = spec.binding.piAuth?.();
	} catch (error) {
		at.report(noCredentials<R>(spec, own, error));
		return;
	}
	if (auth instanceof Promise) waitForCredentials<R>(at, pool, auth);
	else withKeys<R>(at, pool, auth);
}

/** The binding's answer for pi's auth: at once, or to be waited for. */
type PiAuthAnswer = ReturnType<NonNullable<ProviderBinding["piAuth"]>>;

interface Credentials {
	keys: CallKey[];
	piAuth: PiProviderAuth | undefined;
}

/** The keys, then pi's auth (unless it is asked for already: `auth`), waited for under the attempt's signal. */
function waitForCredentials<R>(
	at: Attempting<R>,
	pool: CallKey[] | Promise<CallKey[]>,
	auth: Promise<PiProviderAuth | undefined> | undefined,
): void {
	credentials(at, pool, auth).then(
		(got) => {
			if (!("keys" in got)) at.report(got);
			else {
				try {
					withKeys<R>(at, got.keys, got.piAuth);
				} catch (error) {
					at.report(thrown(error));
				}
			}
		},
		(error: unknown) => at.report(thrown(error)),
	);
}

async function credentials(
	at: Attempting<unknown>,
	pool: CallKey[] | Promise<CallKey[]>,
	auth: Promise<PiProviderAuth | undefined> | undefined,
): Promise<Credentials | AttemptEnd<never>> {
	const { spec, own } = at;
	try {
		const keys = Array.isArray(pool) ? pool : await own.race(pool);
		const answer = auth ?? spec.binding.piAuth?.();
		const piAuth = answer instanceof Promise ? await own.race(answer) : answer;
		return { keys, piAuth };
	} catch (error) {
		return noCredentials(spec, own, error);
	}
}

function noCredentials<R>(spec: AttemptSpec, own: RaceSignal, error: unknown): AttemptEnd<R> {
	if (own.aborted) return ended(spec);
	return { status: "skipped", reason: messageOf(error, "no credentials") };
}

function withKeys<R>(at: Attempting<R>, keys: CallKey[], piAuth: PiProviderAuth | undefined): void {
	const { spec, env } = at;
	const { definition } = spec.binding;
	if (keys.length === 0) {
		if (definition.needsKey && piAuth?.apiKey === undefined) at.report({ status: "skipped", reason: "no credentials" });
		else callOnce<R>(at, undefined, piAuth, []);
		return;
	}
	const eligible = env.keys.eligible(keys, definition.keyOrder);
	if (eligible.length === 0) at.report({ status: "skipped", reason: "no key of a billing kind this type accepts" });
	else rotateKeys<R>(at, eligible, piAuth);
}
