// Walks a plan's steps: skips what is not ready, runs attempts (hedged when the policy says so), asks decide()
// what each outcome means (settle.ts), and keeps the bounds: one attempt per provider, maxAttempts over every
// request sent (key rotations and same-key retries included, each its own entry in `attempts`), an overall deadline.
// One Walk object per call holds the state; its methods and the Running objects replace per-call closures.

import type { Policy } from "../engine/config-types.ts";
import { WebAccessError } from "../engine/errors.ts";
import type { Step } from "../engine/request-types.ts";
import type { Attempt } from "../engine/result-types.ts";
import type { Classification } from "../providers/contract.ts";
import type { AttemptEnd, AttemptEnv } from "./attempt-types.ts";
import {
	type ChainEnd,
	cancelledError,
	chainError,
	orderSteps,
	overallDeadlineMs,
	seconds,
	stepTimeoutMs,
	WALK_DEFAULTS,
} from "./chain.ts";
import { type HedgeFired, type HedgeTimer, LOSER_REASONS, type LoserReason, startHedgeTimer } from "./hedge.ts";
import { type Done, Running } from "./running.ts";
import { settle } from "./settle.ts";
import { budgetSkip } from "./spend.ts";
import { Scope } from "./timers.ts";
import type { Finished, Judged, WalkEnv, WalkHost, WalkInput, WalkState, WalkWin } from "./walk-types.ts";

export type { Evaluation, WalkEnv, WalkInput, WalkWin } from "./walk-types.ts";

export function walk<R, V>(input: WalkInput<R, V>, env: WalkEnv): Promise<WalkWin<V>> {
	if (input.signal.aborted) return Promise.reject(cancelledError([]));
	return new Walk<R, V>(input, env).run();
}

export class Walk<R, V> implements WalkState<R, V>, WalkHost {
	readonly input: WalkInput<R, V>;
	readonly env: WalkEnv;
	readonly policy: Policy;
	readonly clock: WalkEnv["clock"];
	/** One final record per started step (its slot). */
	readonly attempts: Attempt[] = [];
	/** The requests of a step that a later one replaced, by slot (key rotations, retries: made on first use). */
	replaced: Map<number, Attempt[]> | undefined;
	readonly notes: string[] = [];
	readonly queue: Step[];
	readonly deadlineMs: number;
	readonly deadlineAt: number;
	deadlineHit = false;
	/** Every attempt's signal hangs off this one: the caller's abort or the deadline reaches all of them. */
	readonly scope: Scope;
	readonly maxAttempts: number;
	/** Providers started or skipped so far: a chain holds a few, which an array looks through faster than a Set. */
	readonly seen: string[] = [];
	readonly running = new Map<number, Running<R>>();
	readonly attemptEnv: AttemptEnv;
	launched = 0;
	nextId = 0;
	hedge: HedgeTimer | undefined;
	bound: ChainEnd["bound"];
	winner: WalkWin<V> | undefined;
	firstEmpty: WalkWin<V> | undefined;
	policyStop: { provider: string; failure: Classification } | undefined;
	lastFailure: Classification | undefined;
	cancelled = false;
	callUsd = 0;
	private readonly cancelDeadline: () => void;

	constructor(input: WalkInput<R, V>, env: WalkEnv) {
		this.input = input;
		this.env = env;
		const { plan } = input;
		this.policy = plan.policy;
		this.clock = env.clock;
		const say = input.onProgress;
		this.queue = plan.policy.cooldown === false ? [...plan.steps] : orderSteps(plan.steps, env.health, say);
		this.deadlineMs = overallDeadlineMs(this.queue, env.bindings);
		this.deadlineAt = this.clock.now() + this.deadlineMs;
		this.maxAttempts = plan.policy.maxAttempts ?? WALK_DEFAULTS.maxAttempts;
		this.scope = new Scope(input.signal);
		this.cancelDeadline = this.clock.after(Math.max(0, this.deadlineMs), () => {
			this.deadlineHit = true;
			const reason = `overall deadline of ${seconds(this.deadlineMs)} reached`;
			this.scope.abort(new WebAccessError(reason, { kind: "timeout", code: "deadline" }));
		});
		const { clock, keys, currentModel, fetchGuard } = env;
		this.attemptEnv = { clock, keys, currentModel, fetchGuard, onProgress: say };
	}

	/** The final records with the requests each step's last one replaced in front of it. */
	all(): Attempt[] {
		const { replaced } = this;
		if (replaced === undefined) return this.attempts;
		return this.attempts.flatMap((attempt, slot) => [...(replaced.get(slot) ?? []), attempt]);
	}

	skip(provider: string, reason: string, slot?: number): void {
		const record: Attempt = { provider, outcome: "skipped", reason };
		if (slot === undefined) this.attempts.push(record);
		else this.attempts[slot] = record;
		this.notes.push(`${provider} skipped (${reason})`);
	}

	/** Every answer a backend sent is charged, a hedged loser's too: the backend billed it either way. */
	charge(run: Finished, end: AttemptEnd<R>): void {
		if (end.status === "ok")
			this.callUsd += this.env.spend.charge(run.provider, run.binding.definition.cost, end.value);
	}

	private armHedge(): void {
		this.hedge?.cancel();
		this.hedge = undefined;
		const { hedgeAfterMs } = this.policy;
		if (hedgeAfterMs === undefined || this.running.size !== 1 || this.queue.length === 0) return;
		const only = this.running.values().next().value!;
		this.hedge = startHedgeTimer(this.clock, only.id, only.startedAt, hedgeAfterMs);
	}

	/** Starts the next ready step; `lead` is said (with the pending notes) only when one starts. */
	private launchNext(lead?: string): boolean {
		const { queue, input, env, clock, notes } = this;
		while (queue.length > 0) {
			if (input.signal.aborted) return false;
			const step = queue.shift()!;
			if (this.seen.includes(step.provider)) continue; // never the same provider twice in one call
			this.seen.push(step.provider);
			if (step.status === "skipped") {
				this.skip(step.provider, step.reason ?? "skipped");
				continue;
			}
			const binding = env.bindings.get(step.provider);
			if (binding === undefined) {
				this.skip(step.provider, "not configured");
				continue;
			}
			const { cost } = binding.definition;
			const { budget } = this.policy;
			const check = {
				provider: step.provider,
				cost,
				own: binding.config.budget,
				policy: budget,
				callUsd: this.callUsd,
			};
			const over = budgetSkip(check, env.spend);
			if (over !== undefined) {
				this.skip(step.provider, over);
				continue;
			}
			// Bounds are checked only before a real attempt, so skipped steps are still recorded.
			if (this.deadlineHit || clock.now() >= this.deadlineAt) {
				this.bound = { kind: "deadline", deadlineMs: this.deadlineMs };
				return false;
			}
			if (this.launched >= this.maxAttempts) {
				this.bound = { kind: "maxAttempts", maxAttempts: this.maxAttempts };
				return false;
			}
			if (lead !== undefined) notes.push(lead);
			if (notes.length > 0) {
				const verb = lead === undefined ? "trying" : "also trying";
				input.onProgress(`${notes.splice(0).join("; ")}; ${verb} ${step.provider}`);
			}
			const slot = this.attempts.push({ provider: step.provider, outcome: "error", reason: "running" }) - 1;
			this.launched++;
			const timeoutMs = Math.max(1, Math.min(stepTimeoutMs(binding), this.deadlineAt - clock.now()));
			const run = new Running<R>(this, step, binding, slot, timeoutMs);
			run.done = run.run(this.attemptEnv);
			this.running.set(run.id, run);
			this.armHedge();
			return true;
		}
		return false;
	}

	/** The next event: the only attempt's end (awaited directly), or the first of several ends and the hedge timer. */
	private next(): Promise<Done<R> | HedgeFired> {
		const { running, hedge } = this;
		if (running.size === 1 && hedge === undefined) return running.values().next().value!.done;
		const races: Promise<Done<R> | HedgeFired>[] = [];
		for (const run of running.values()) races.push(run.done);
		if (hedge) races.push(hedge.fired);
		return Promise.race(races);
	}

	/**
	 * Walks the chain. A promise chain, not an async function: between events only the running attempts' chains
	 * wait, with no frame of the walk's kept alive meanwhile.
	 */
	run(): Promise<WalkWin<V>> {
		let walked: Promise<"over">;
		try {
			this.launchNext();
			walked = this.loop();
		} catch (error) {
			walked = Promise.reject(error);
		}
		return walked.then(
			() => this.result(),
			(error: unknown) => {
				this.over();
				throw error;
			},
		);
	}

	/** Waits for the next event while attempts run; "over" once the chain has ended (or nothing runs). */
	private loop(): Promise<"over"> {
		if (this.running.size === 0) return Promise.resolve("over");
		return this.next().then((event) => this.take(event));
	}

	/** One event: a hedge timer firing, or an attempt's end settled and decided on. */
	private take(event: Done<R> | HedgeFired): Promise<"over"> {
		const { running } = this;
		const run = running.get(event.id);
		if (run === undefined) return this.loop();
		if (event.type === "hedge") {
			this.hedge = undefined;
			this.launchNext(`${run.provider} has not answered after ${seconds(this.policy.hedgeAfterMs ?? 0)}`);
			return this.loop();
		}
		running.delete(run.id);
		const judged: Judged | "continue" = settle(this, run, event.end);
		this.env.changed();
		const decision = judged === "continue" ? "next" : judged.decision;
		if (decision === "next") {
			if (running.size === 0) this.launchNext();
			else this.armHedge();
			return this.loop();
		}
		if (judged !== "continue" && judged.outcome.outcome === "error") {
			if (judged.outcome.errorClass === "cancelled") this.cancelled = true;
			else if (this.lastFailure !== undefined) {
				this.policyStop = { provider: run.provider, failure: this.lastFailure };
			}
		}
		// Only a hedged call has others still running; the lone attempt's walk waits for nothing more.
		if (running.size > 0) return this.stopOthers(decision === "accept" ? "won" : "stopped").then(() => "over");
		return Promise.resolve("over");
	}

	/** The walk's timers and its link to the caller go, whichever way it ended. */
	private over(): void {
		this.hedge?.cancel();
		this.cancelDeadline();
		this.scope.release();
	}

	/** What the chain came to: the winner, the first empty answer, or the error saying why there is none. */
	private result(): WalkWin<V> {
		this.over();
		const { input } = this;
		if (this.notes.length > 0) input.onProgress(this.notes.join("; "));
		if (this.cancelled || (input.signal.aborted && this.winner === undefined)) throw cancelledError(this.all());
		if (this.winner) return { ...this.winner, attempts: this.all() };
		if (this.firstEmpty) return { ...this.firstEmpty, attempts: this.all() };
		const { plan } = input;
		throw chainError({
			capability: plan.capability,
			attempts: this.all(),
			policyStop: this.policyStop,
			bound: this.bound,
		});
	}

	/** The chain is over: attempts still running (hedged) are aborted, charged for what they got, and recorded. */
	private async stopOthers(why: LoserReason): Promise<void> {
		const { running } = this;
		for (const other of running.values()) other.stop?.abort(why);
		for (const other of [...running.values()]) {
			running.delete(other.id);
			const { end } = await other.done;
			this.charge(other, end);
			const reason = this.input.signal.aborted ? "cancelled: by the caller" : LOSER_REASONS[why];
			const latencyMs = this.clock.now() - other.requestAt;
			this.attempts[other.slot] = { provider: other.provider, outcome: "error", reason, latencyMs };
			if (end.status !== "skipped" && end.key !== undefined) this.attempts[other.slot]!.key = end.key;
		}
	}
}
