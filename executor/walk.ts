// Walks a plan's steps: skips what is not ready, runs attempts (hedged when the policy says so), asks decide()
// what each outcome means (settle.ts), and keeps the bounds: one attempt per provider, maxAttempts over every
// request sent (key rotations and same-key retries included, each its own entry in `attempts`), an overall deadline.
// One Walk object per call holds the state; its methods and the Running objects replace per-call closures. Events
// (an attempt's end, the hedge timer) arrive as calls, not promises: the walk itself makes one promise, its answer.

import type { Policy } from "../engine/config-types.ts";
import { WebAccessError } from "../engine/errors.ts";
import type { Step } from "../engine/request-types.ts";
import type { Attempt } from "../engine/result-types.ts";
import type { Classification } from "../providers/contract.ts";
import type { AttemptEnd } from "./attempt-types.ts";
import {
	type ChainEnd,
	cancelledError,
	chainError,
	LOSER_REASONS,
	type LoserReason,
	orderSteps,
	overallDeadlineMs,
	seconds,
	stepTimeoutMs,
	WALK_DEFAULTS,
} from "./chain.ts";
import { reserveAttempt } from "./reserve.ts";
import { Running } from "./running.ts";
import { settle } from "./settle.ts";
import type { Timer } from "./timer-queue.ts";
import { removeItem, Scope } from "./timers.ts";
import { admit, chargeAttempt, releaseHeld } from "./walk-gate.ts";
import type { Finished, Judged, WalkEnv, WalkHost, WalkInput, WalkState, WalkWin } from "./walk-types.ts";

export type { Evaluation, WalkEnv, WalkInput, WalkWin } from "./walk-types.ts";

/** Walks the plan; the answer is `input.finish` of the win. */
export function walk<R, V, T>(input: WalkInput<R, V, T>, env: WalkEnv): Promise<T> {
	if (input.signal.aborted) return Promise.reject(cancelledError([]));
	return new Walk<R, V, T>(input, env).run();
}

/**
 * One walk's state. It is itself the cancellation scope every attempt's signal hangs off: the caller's abort or the
 * overall deadline reaches all of them.
 */
export class Walk<R, V, T> extends Scope implements WalkState<R, V>, WalkHost<R> {
	readonly input: WalkInput<R, V, T>;
	readonly env: WalkEnv;
	readonly policy: Policy;
	readonly clock: WalkEnv["clock"];
	/** One final record per started step (its slot). */
	attempts: Attempt[] = [];
	/** The requests of a step that a later one replaced, by slot (key rotations, retries: made on first use). */
	replaced: Map<number, Attempt[]> | undefined;
	readonly notes: string[] = [];
	readonly queue: Step[];
	readonly deadlineMs: number;
	readonly deadlineAt: number;
	deadlineHit = false;
	readonly maxAttempts: number;
	/** The attempts running now: one, or a few when hedging (an array, which a lone attempt fills without a table). */
	readonly running: Running<R>[] = [];
	launched = 0;
	/** Cancels the hedge timer of the only running attempt (policy.hedgeAfterMs), while one is armed. */
	cancelHedge: (() => void) | undefined;
	bound: ChainEnd["bound"];
	winner: WalkWin<V> | undefined;
	firstEmpty: WalkWin<V> | undefined;
	policyStop: { provider: string; failure: Classification } | undefined;
	lastFailure: Classification | undefined;
	failureCodes: string[] | undefined;
	cancelled = false;
	callUsd = 0;
	/** Set once the chain is decided while hedged attempts still run: they are stopped, and the walk waits for them. */
	stopping: LoserReason | undefined;
	/** The answer has been given (resolved or rejected). */
	private answered = false;
	private resolve!: (value: T) => void;
	private reject!: (error: unknown) => void;
	/** The overall deadline's timer (its `due` is this walk's). */
	private readonly deadline: Timer;

	constructor(input: WalkInput<R, V, T>, env: WalkEnv) {
		super(input.signal);
		this.input = input;
		this.env = env;
		const { plan } = input;
		this.policy = plan.policy;
		this.clock = env.clock;
		// Why a cooling provider goes last is said with the first step that starts, so the line names the one running.
		this.queue =
			plan.policy.cooldown === false
				? [...plan.steps]
				: orderSteps(plan.steps, env.health, (line) => this.notes.push(line));
		this.deadlineMs = overallDeadlineMs(this.queue, env.bindings);
		this.deadlineAt = this.clock.now() + this.deadlineMs;
		this.maxAttempts = plan.policy.maxAttempts ?? WALK_DEFAULTS.maxAttempts;
		this.deadline = this.clock.arm(Math.max(0, this.deadlineMs), this);
	}

	/** The overall deadline is reached: every attempt under the walk is aborted with it. */
	due(): void {
		this.deadlineHit = true;
		const reason = `overall deadline of ${seconds(this.deadlineMs)} reached`;
		this.abort(new WebAccessError(reason, { kind: "timeout", code: "deadline" }));
	}

	/** The final records with the requests each step's last one replaced in front of it. */
	all(): Attempt[] {
		const { replaced } = this;
		if (replaced === undefined) return this.attempts;
		return this.attempts.flatMap((attempt, slot) => [...(replaced.get(slot) ?? []), attempt]);
	}

	/**
	 * A new entry in `attempts`; its slot. The first makes the array as a literal of one: a push onto an empty array
	 * reserves room for 16, which a walk (one or a few steps) keeps for as long as it runs.
	 */
	private record(entry: Attempt): number {
		if (this.attempts.length === 0) this.attempts = [entry];
		else this.attempts.push(entry);
		return this.attempts.length - 1;
	}

	skip(provider: string, reason: string, slot?: number): void {
		const record: Attempt = { provider, outcome: "skipped", reason };
		if (slot === undefined) this.record(record);
		else this.attempts[slot] = record;
		this.notes.push(`${provider} skipped (${reason})`);
	}

	/** Every request sent is charged (walk-gate.ts); the call's spend so far is kept for its per-call budget. */
	charge(run: Finished, end: AttemptEnd<R>): void {
		this.callUsd += chargeAttempt(this.env, run, end);
	}

	private armHedge(): void {
		this.cancelHedge?.();
		this.cancelHedge = undefined;
		const { hedgeAfterMs } = this.policy;
		if (hedgeAfterMs === undefined || this.running.length !== 1 || this.queue.length === 0) return;
		const only = this.running[0]!;
		const dueMs = Math.max(0, only.startedAt + hedgeAfterMs - this.clock.now());
		this.cancelHedge = this.clock.after(dueMs, () => this.hedged(only));
	}

	/** Starts the next ready step; `lead` is said (with the pending notes) only when one starts. */
	private launchNext(lead?: string): boolean {
		const { queue, input, env, clock, notes } = this;
		while (queue.length > 0) {
			if (input.signal.aborted) return false;
			const step = queue.shift()!;
			const binding = admit(this, step);
			if (binding === undefined) continue;
			if ("skip" in binding) {
				this.skip(step.provider, binding.skip);
				continue;
			}
			// Bounds are checked only before a real attempt, so skipped steps are still recorded. One reading of the clock
			// serves the deadline check, the attempt's timeout and its start.
			const now = clock.now();
			if (this.deadlineHit || now >= this.deadlineAt) {
				this.bound = { kind: "deadline", deadlineMs: this.deadlineMs };
				return false;
			}
			if (this.launched >= this.maxAttempts) {
				this.bound = { kind: "maxAttempts", maxAttempts: this.maxAttempts };
				return false;
			}
			const reserved = reserveAttempt(env.store, step.provider, binding, this.policy.budget);
			if (reserved.refused !== undefined) {
				this.skip(step.provider, reserved.refused);
				continue;
			}
			if (lead !== undefined) notes.push(lead);
			if (notes.length > 0) {
				const verb = lead === undefined ? "trying" : "also trying";
				env.onProgress(`${notes.splice(0).join("; ")}; ${verb} ${step.provider}`);
			}
			const slot = this.record({ provider: step.provider, outcome: "error", reason: "running" });
			this.launched++;
			// An attempt the overall deadline cuts short is ended by the deadline, which names itself: its own timer is
			// armed past it. `left` is read on the clock's whole milliseconds (Date.now) while the waits are timed on a
			// finer one, so armed level with the deadline it could fall due up to 1 ms before it (a CI run did that).
			const left = this.deadlineAt - now;
			const stepMs = stepTimeoutMs(binding);
			const timeoutMs = Math.max(1, left < stepMs ? left + 2 : stepMs);
			const run = new Running<R>(this, step, binding, slot, timeoutMs, now);
			run.reservation = reserved.id;
			run.start(env);
			this.running.push(run);
			this.armHedge();
			return true;
		}
		return false;
	}

	/** Walks the chain: starts the first step; the rest happens as attempts end (`ended`) and the hedge fires. */
	run(): Promise<T> {
		const answer = new Promise<T>((resolve, reject) => {
			this.resolve = resolve;
			this.reject = reject;
		});
		// Each step of the walk (here, hedged, ended) catches its own throw: a closure handed to one shared guard was
		// a function object per call and step.
		try {
			this.launchNext();
			if (this.running.length === 0) this.answer();
		} catch (error) {
			this.broken(error);
		}
		return answer;
	}

	/** A throw in a step of the walk (a bug) rejects the walk's answer instead of escaping into a reaction. */
	private broken(error: unknown): void {
		if (this.answered) return;
		this.answered = true;
		this.over();
		this.reject(error);
	}

	/** The hedge timer of `run` fired: the next ready step starts beside it. */
	private hedged(run: Running<R>): void {
		try {
			if (this.answered || this.stopping !== undefined || !this.running.includes(run)) return;
			this.cancelHedge = undefined;
			this.launchNext(`${run.provider} has not answered after ${seconds(this.policy.hedgeAfterMs ?? 0)}`);
		} catch (error) {
			this.broken(error);
		}
	}

	/** An attempt ended (Running calls it, once per attempt): settled and decided on, or a stopped loser recorded. */
	ended(run: Running<R>, end: AttemptEnd<R>): void {
		try {
			const { running } = this;
			if (this.answered || !removeItem(running, run)) {
				// Ended after the answer: nothing more to record, but a price it held is held no longer.
				releaseHeld(this.env.store, run);
				return;
			}
			if (this.stopping !== undefined) {
				this.lost(run, end);
				if (running.length === 0) this.answer();
				return;
			}
			this.take(run, end);
		} catch (error) {
			this.broken(error);
		}
	}

	/** One attempt's end settled and decided on. */
	private take(run: Running<R>, end: AttemptEnd<R>): void {
		const { running } = this;
		const judged: Judged | "continue" = settle(this, run, end);
		this.env.changed();
		const decision = judged === "continue" ? "next" : judged.decision;
		if (decision === "next") {
			if (running.length === 0) this.launchNext();
			else this.armHedge();
			if (running.length === 0) this.answer();
			return;
		}
		if (judged !== "continue" && judged.outcome.outcome === "error") {
			if (judged.outcome.errorClass === "cancelled") this.cancelled = true;
			else if (this.lastFailure !== undefined) {
				this.policyStop = { provider: run.provider, failure: this.lastFailure };
			}
		}
		// Only a hedged call has others still running: they are stopped, and the answer waits for their ends.
		if (running.length === 0) {
			this.answer();
			return;
		}
		this.stopping = decision === "accept" ? "won" : "stopped";
		this.cancelHedge?.();
		this.cancelHedge = undefined;
		for (const other of running) other.stop?.abort(this.stopping);
	}

	/** A stopped attempt's end: charged for what it got, and recorded as stopped. */
	private lost(run: Running<R>, end: AttemptEnd<R>): void {
		this.charge(run, end);
		const reason = this.input.signal.aborted ? "cancelled: by the caller" : LOSER_REASONS[this.stopping!];
		const latencyMs = this.clock.now() - run.requestAt;
		const record: Attempt = { provider: run.provider, outcome: "error", reason, latencyMs };
		if (end.status !== "skipped" && end.key !== undefined) record.key = end.key;
		this.attempts[run.slot] = record;
	}

	/** The walk is over: its answer is given, the win made into what the capability returns (`finish`) or an error. */
	private answer(): void {
		if (this.answered) return;
		this.answered = true;
		let value: T;
		try {
			value = this.input.finish(this.result());
		} catch (error) {
			this.reject(error);
			return;
		}
		this.resolve(value);
	}

	/** The walk's timers and its link to the caller go, whichever way it ended. */
	private over(): void {
		this.cancelHedge?.();
		this.deadline.cancel();
		this.release();
	}

	/** What the chain came to: the winner, the first empty answer, or the error saying why there is none. */
	private result(): WalkWin<V> {
		this.over();
		const { input } = this;
		if (this.notes.length > 0) this.env.onProgress(this.notes.join("; "));
		if (this.cancelled || (input.signal.aborted && this.winner === undefined)) throw cancelledError(this.all());
		const won = this.winner ?? this.firstEmpty;
		if (won !== undefined) {
			const attempts = this.all();
			// settle.ts made the win with this walk's records: the usual walk (no request replaced) answers with it.
			return attempts === won.attempts ? won : { ...won, attempts };
		}
		const { plan } = input;
		throw chainError({
			capability: plan.capability,
			attempts: this.all(),
			policyStop: this.policyStop,
			bound: this.bound,
		});
	}
}
