// One started step of a walk: the AttemptSpec that runAttempt is handed, with the walk's hooks for further
// requests (another, replaced) as methods, and the walk's bookkeeping of it (slot, request start, its own signal).

import type { Step } from "../engine/request-types.ts";
import type { Attempt } from "../engine/result-types.ts";
import type { Classification } from "../providers/contract.ts";
import { runAttempt } from "./attempt.ts";
import type { AttemptEnd, AttemptEnv, AttemptSpec } from "./attempt-types.ts";
import { Scope } from "./timers.ts";
import type { ProviderBinding } from "./types.ts";
import type { Finished, WalkHost } from "./walk-types.ts";

export interface Done<R> {
	type: "done";
	id: number;
	end: AttemptEnd<R>;
}

/** One started step: what runAttempt is handed (the AttemptSpec) and the walk's bookkeeping of it. */
export class Running<R> implements AttemptSpec, Finished {
	readonly id: number;
	readonly provider: string;
	readonly slot: number;
	readonly binding: ProviderBinding;
	readonly request: AttemptSpec["request"];
	readonly outer: Scope;
	readonly sites: AttemptSpec["sites"];
	readonly timeoutMs: number;
	readonly startedAt: number;
	/** Start of the attempt's current request (a rotation or retry starts a new one). */
	requestAt: number;
	/** Its own scope under the walk's, only when hedging may run it beside another: a loser is aborted alone. */
	readonly stop: Scope | undefined;
	done!: Promise<Done<R>>;
	private readonly walk: WalkHost;

	constructor(walk: WalkHost, step: Step, binding: ProviderBinding, slot: number, timeoutMs: number) {
		this.walk = walk;
		this.id = walk.nextId++;
		this.provider = step.provider;
		this.slot = slot;
		this.binding = binding;
		this.request = walk.input.plan.request;
		this.stop = walk.policy.hedgeAfterMs === undefined ? undefined : new Scope(walk.scope);
		this.outer = this.stop ?? walk.scope;
		this.sites = walk.input.plan.sites;
		this.timeoutMs = timeoutMs;
		this.startedAt = walk.clock.now();
		this.requestAt = this.startedAt;
	}

	another(): boolean {
		const { walk } = this;
		if (walk.launched >= walk.maxAttempts) {
			walk.bound = { kind: "maxAttempts", maxAttempts: walk.maxAttempts };
			return false;
		}
		walk.launched++;
		return true;
	}

	replaced(request: { key?: string; failure: Classification; latencyMs: number }): void {
		const { key, failure, latencyMs } = request;
		const record: Attempt = {
			provider: this.provider,
			outcome: "error",
			reason: `${failure.errorClass}: ${failure.reason}`,
		};
		record.latencyMs = latencyMs;
		if (key !== undefined) record.key = key;
		this.walk.replaced ??= new Map();
		const { replaced } = this.walk;
		replaced.set(this.slot, [...(replaced.get(this.slot) ?? []), record]);
		if (this.walk.running.get(this.id) !== undefined) this.requestAt = this.walk.clock.now();
	}

	/** Runs the attempt; a throw inside it is a transport failure, never the walk's. */
	run(env: AttemptEnv): Promise<Done<R>> {
		let attempt: Promise<AttemptEnd<R>>;
		try {
			attempt = runAttempt<R>(this, env);
		} catch (error) {
			attempt = Promise.reject(error);
		}
		return attempt.then(
			(end) => this.finish(end),
			(error: unknown) => {
				const reason = error instanceof Error ? error.message : "unexpected failure";
				return this.finish({ status: "error", failure: { errorClass: "transport", reason } });
			},
		);
	}

	private finish(end: AttemptEnd<R>): Done<R> {
		this.stop?.release();
		return { type: "done", id: this.id, end };
	}
}
