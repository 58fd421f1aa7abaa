// One started step of a walk, which is one attempt: the AttemptSpec the attempt runs on, with the walk's hooks for
// further requests (another, replaced) as methods; the attempt's own signal (it is the RaceSignal, under the walk or
// its hedge scope) and timeout; and the walk's bookkeeping of it (slot, request start). Its end goes to the walk's
// `ended`, once, and never while the walk is still starting it. One object per attempt instead of five.

import { WebAccessError } from "../engine/errors.ts";
import type { Step } from "../engine/request-types.ts";
import type { Attempt } from "../engine/result-types.ts";
import type { Classification } from "../providers/contract.ts";
import { runAttempt } from "./attempt.ts";
import type { AttemptEnd, AttemptEnv, Attempting, AttemptSpec, Method } from "./attempt-types.ts";
import { seconds } from "./chain.ts";
import { thrown } from "./requests.ts";
import type { Timer } from "./timer-queue.ts";
import { RaceSignal, Scope } from "./timers.ts";
import type { ProviderBinding } from "./types.ts";
import type { Finished, WalkHost } from "./walk-types.ts";

export class Running<R> extends RaceSignal implements AttemptSpec, Attempting<R>, Finished {
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
	/** The state store's reservation of the attempt's price (executor/reserve.ts), until settled or released. */
	reservation: string | undefined;
	/** Its own scope under the walk's, only when hedging may run it beside another: a loser is aborted alone. */
	readonly stop: Scope | undefined;
	env!: AttemptEnv;
	method!: Method;
	private readonly walk: WalkHost<R>;
	/** The attempt's timeout (its `due` is this attempt's), once started. */
	private timer: Timer | undefined;
	/** Inside `start`: an end reported now (nothing was sent) reaches the walk on a microtask, outside its launch. */
	private starting = false;
	private finished = false;

	/** `startedAt`: now on the walk's clock, as the walk read it to decide the attempt could start. */
	constructor(
		walk: WalkHost<R>,
		step: Step,
		binding: ProviderBinding,
		slot: number,
		timeoutMs: number,
		startedAt: number,
	) {
		const stop = walk.policy.hedgeAfterMs === undefined ? undefined : new Scope(walk);
		// The attempt's own signal: the outer one (caller, deadline, hedge loser) or its timeout, whichever comes first.
		super(stop ?? walk);
		this.stop = stop;
		this.outer = stop ?? walk;
		this.walk = walk;
		this.reservation = undefined;
		this.provider = step.provider;
		this.slot = slot;
		this.binding = binding;
		this.request = walk.input.plan.request;
		this.sites = walk.input.plan.sites;
		this.timeoutMs = timeoutMs;
		this.startedAt = startedAt;
		this.requestAt = startedAt;
	}

	/** The attempt runs on this object (Attempting): its spec and its own signal. */
	get spec(): AttemptSpec {
		return this;
	}

	get own(): RaceSignal {
		return this;
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
		if (this.walk.running.includes(this)) this.requestAt = this.walk.clock.now();
	}

	/** Runs the attempt; a throw inside it is a transport failure, never the walk's. */
	start(env: AttemptEnv): void {
		this.env = env;
		this.starting = true;
		try {
			const { definition } = this.binding;
			const method = this.request.kind === "search" ? definition.search : definition.fetch;
			if (method === undefined) this.report({ status: "skipped", reason: `cannot ${this.request.kind}` });
			else {
				this.method = method;
				this.timer = env.clock.arm(Math.max(0, this.timeoutMs), this);
				runAttempt<R>(this);
			}
		} catch (error) {
			this.report(thrown(error));
		}
		this.starting = false;
	}

	/** The attempt's timeout: it is aborted with a timeout naming the provider. */
	due(): void {
		const reason = `no answer within ${seconds(this.timeoutMs)}`;
		this.abort(new WebAccessError(reason, { kind: "timeout", code: "timeout", provider: this.provider }));
	}

	report(end: AttemptEnd<R>): void {
		if (this.finished) return;
		this.finished = true;
		this.timer?.cancel();
		this.release();
		this.stop?.release();
		if (this.starting) queueMicrotask(() => this.walk.ended(this, end));
		else this.walk.ended(this, end);
	}
}
