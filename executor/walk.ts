// Walks a plan's steps: skips what is not ready, runs attempts (hedged when the policy says so), asks decide()
// what each outcome means, and keeps the bounds: one attempt per provider, maxAttempts over every request sent
// (key rotations and same-key retries included, each its own entry in `attempts`), an overall deadline.

import { type Decision, decide, type StepOutcome } from "../engine/decide.ts";
import { WebAccessError } from "../engine/errors.ts";
import type { Plan } from "../engine/request-types.ts";
import type { Attempt } from "../engine/result-types.ts";
import type { Classification } from "../providers/contract.ts";
import { type AttemptEnd, type AttemptEnv, runAttempt } from "./attempt.ts";
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
import type { Health } from "./health.ts";
import { type HedgeFired, type HedgeTimer, LOSER_REASONS, type LoserReason, startHedgeTimer } from "./hedge.ts";
import { budgetSkip, type SpendBook } from "./spend.ts";
import { type Linked, linkSignals, startTimeout } from "./timers.ts";
import type { ProviderBinding } from "./types.ts";

/** What the capability makes of a provider's answer: usable, empty, or a failure after all (fetch without text). */
export type Evaluation<V> =
	| { outcome: "ok" | "empty"; value: V; reason?: string }
	| { outcome: "error"; failure: Classification };

export interface WalkEnv extends Omit<AttemptEnv, "onProgress"> {
	health: Health;
	spend: SpendBook;
	binding(name: string): ProviderBinding | undefined;
	/** Cooldowns or key states may have changed (persistence hook). */
	changed(): void;
}

export interface WalkInput<R, V> {
	plan: Plan;
	signal: AbortSignal;
	onProgress: (line: string) => void;
	evaluate(raw: R, binding: ProviderBinding): Evaluation<V>;
}

/** A step's outcome with decide()'s verdict on it, taken once. */
interface Judged {
	outcome: StepOutcome;
	decision: Decision;
}

export interface WalkWin<V> {
	provider: string;
	value: V;
	outcome: "ok" | "empty";
	attempts: Attempt[];
}

interface Running<R> {
	id: number;
	provider: string;
	slot: number;
	binding: ProviderBinding;
	startedAt: number;
	/** Start of the attempt's current request (a rotation or retry starts a new one). */
	requestAt: number;
	/** Under the walk's scope; aborted alone when the attempt loses a hedge or the chain stops. */
	stop: Linked;
	done: Promise<{ type: "done"; id: number; end: AttemptEnd<R> }>;
}

export async function walk<R, V>(input: WalkInput<R, V>, env: WalkEnv): Promise<WalkWin<V>> {
	const { plan, signal } = input;
	const { policy } = plan;
	const { clock } = env;
	// One final record per started step (its slot), plus the requests of that step a later one replaced.
	const attempts: Attempt[] = [];
	const replaced = new Map<number, Attempt[]>();
	const all = (): Attempt[] => attempts.flatMap((attempt, slot) => [...(replaced.get(slot) ?? []), attempt]);
	if (signal.aborted) throw cancelledError(attempts);

	const notes: string[] = [];
	// A provider answering in a shape its own parser should have rejected is a parse failure, not a crash.
	const evaluate = (raw: R, binding: ProviderBinding): Evaluation<V> => {
		try {
			return input.evaluate(raw, binding);
		} catch (error) {
			const reason = `unexpected answer: ${error instanceof Error ? error.message : "unreadable"}`;
			return { outcome: "error", failure: { errorClass: "parse", reason } };
		}
	};
	const say = (line: string) => input.onProgress(line);
	const queue = policy.cooldown === false ? [...plan.steps] : orderSteps(plan.steps, env.health, say);
	const deadlineMs = overallDeadlineMs(queue, env.binding);
	const deadlineAt = clock.now() + deadlineMs;
	const deadline = startTimeout(
		clock,
		deadlineMs,
		() =>
			new WebAccessError(`overall deadline of ${seconds(deadlineMs)} reached`, { kind: "timeout", code: "deadline" }),
	);
	// Every attempt's signal hangs off this one: the caller's or the deadline's abort reaches all of them.
	const scope = linkSignals([signal, deadline.signal]);
	const maxAttempts = policy.maxAttempts ?? WALK_DEFAULTS.maxAttempts;
	const seen = new Set<string>();
	const running = new Map<number, Running<R>>();
	let launched = 0;
	let nextId = 0;
	let hedge: HedgeTimer | undefined;
	let bound: ChainEnd["bound"];
	let winner: WalkWin<V> | undefined;
	let firstEmpty: WalkWin<V> | undefined;
	let policyStop: { provider: string; failure: Classification } | undefined;
	let lastFailure: Classification | undefined;
	let cancelled = false;
	let callUsd = 0;
	const judge = (outcome: StepOutcome): Judged => ({ outcome, decision: decide(outcome, policy) });
	/** Every answer a backend sent is charged, a hedged loser's too: the backend billed it either way. */
	const charge = (run: Running<R>, end: AttemptEnd<R>) => {
		if (end.status === "ok") callUsd += env.spend.charge(run.provider, run.binding.definition.cost, end.value);
	};

	const skip = (provider: string, reason: string, slot?: number) => {
		const record: Attempt = { provider, outcome: "skipped", reason };
		if (slot === undefined) attempts.push(record);
		else attempts[slot] = record;
		notes.push(`${provider} skipped (${reason})`);
	};

	const armHedge = () => {
		hedge?.cancel();
		hedge = undefined;
		const only = running.size === 1 ? [...running.values()][0] : undefined;
		if (policy.hedgeAfterMs === undefined || only === undefined || queue.length === 0) return;
		hedge = startHedgeTimer(clock, only.id, only.startedAt, policy.hedgeAfterMs);
	};

	/** Starts the next ready step; `lead` is said (with the pending notes) only when one starts. */
	const launchNext = (lead?: string): boolean => {
		while (queue.length > 0) {
			if (signal.aborted) return false;
			const step = queue.shift()!;
			if (seen.has(step.provider)) continue; // never the same provider twice in one call
			seen.add(step.provider);
			if (step.status === "skipped") {
				skip(step.provider, step.reason ?? "skipped");
				continue;
			}
			const binding = env.binding(step.provider);
			if (binding === undefined) {
				skip(step.provider, "not configured");
				continue;
			}
			const { cost } = binding.definition;
			const budget = { provider: step.provider, cost, own: binding.config.budget, policy: policy.budget, callUsd };
			const over = budgetSkip(budget, env.spend);
			if (over !== undefined) {
				skip(step.provider, over);
				continue;
			}
			// Bounds are checked only before a real attempt, so skipped steps are still recorded.
			if (deadline.signal.aborted || clock.now() >= deadlineAt) {
				bound = { kind: "deadline", deadlineMs };
				return false;
			}
			if (launched >= maxAttempts) {
				bound = { kind: "maxAttempts", maxAttempts };
				return false;
			}
			if (lead !== undefined) notes.push(lead);
			if (notes.length > 0)
				say(`${notes.splice(0).join("; ")}; ${lead === undefined ? "trying" : "also trying"} ${step.provider}`);
			const id = nextId++;
			const slot = attempts.push({ provider: step.provider, outcome: "error", reason: "running" }) - 1;
			const stop = linkSignals([scope.signal]);
			launched++;
			const timeoutMs = Math.max(1, Math.min(stepTimeoutMs(binding), deadlineAt - clock.now()));
			const spec = {
				provider: step.provider,
				binding,
				request: plan.request,
				signal: stop.signal,
				timeoutMs,
			};
			const started = clock.now();
			const attemptEnv = {
				...env,
				onProgress: say,
				another: (): boolean => {
					if (launched >= maxAttempts) {
						bound = { kind: "maxAttempts", maxAttempts };
						return false;
					}
					launched++;
					return true;
				},
				replaced: (request: { key?: string; failure: Classification; latencyMs: number }) => {
					const { key, failure, latencyMs } = request;
					const record: Attempt = {
						provider: step.provider,
						outcome: "error",
						reason: `${failure.errorClass}: ${failure.reason}`,
					};
					record.latencyMs = latencyMs;
					if (key !== undefined) record.key = key;
					replaced.set(slot, [...(replaced.get(slot) ?? []), record]);
					const current = running.get(id);
					if (current !== undefined) current.requestAt = clock.now();
				},
			};
			const done = runAttempt<R>(spec, attemptEnv)
				.catch((error: unknown): AttemptEnd<R> => {
					const reason = error instanceof Error ? error.message : "unexpected failure";
					return { status: "error", failure: { errorClass: "transport", reason } };
				})
				.then((end) => {
					stop.release();
					return { type: "done" as const, id, end };
				});
			running.set(id, {
				id,
				provider: step.provider,
				slot,
				binding,
				startedAt: started,
				requestAt: started,
				stop,
				done,
			});
			armHedge();
			return true;
		}
		return false;
	};

	/** Records a finished attempt; returns how it ended and decide()'s verdict, or "continue" (skipped, or the deadline). */
	const settle = (run: Running<R>, end: AttemptEnd<R>): Judged | "continue" => {
		const latencyMs = clock.now() - run.requestAt;
		charge(run, end);
		const record = (attempt: Omit<Attempt, "provider" | "latencyMs">) => {
			attempts[run.slot] = { provider: run.provider, ...attempt, latencyMs };
			if (attempt.key === undefined) delete attempts[run.slot]!.key;
		};
		if (end.status === "skipped") {
			launched--;
			skip(run.provider, end.reason, run.slot);
			return "continue";
		}
		if (end.status === "aborted") {
			if (signal.aborted) {
				record({ outcome: "error", reason: "cancelled: by the caller", key: end.key });
				return judge({ outcome: "error", errorClass: "cancelled" });
			}
			// Our deadline, not the provider's fault: no cooldown, and nothing more can start.
			bound = { kind: "deadline", deadlineMs };
			record({ outcome: "error", reason: `timeout: overall deadline of ${seconds(deadlineMs)} reached`, key: end.key });
			return "continue";
		}
		if (end.status === "error" && end.unsent) launched--; // every key was out: nothing was sent
		const evaluation: Evaluation<V> =
			end.status === "ok" ? evaluate(end.value, run.binding) : { outcome: "error", failure: end.failure };
		if (evaluation.outcome === "error") {
			const { failure } = evaluation;
			lastFailure = failure;
			const wait = failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {};
			record({
				outcome: "error",
				reason: `${failure.errorClass}: ${failure.reason}`,
				key: end.key,
				kind: failure.errorClass,
				...wait,
			});
			notes.push(`${run.provider} failed (${failure.errorClass})`);
			// A per-site fetcher (direct) failing on one site says nothing about the next site: no cooldown.
			if (!run.binding.definition.perSite) env.health.fail(run.provider, failure, policy.cooldown);
			return judge({ outcome: "error", errorClass: failure.errorClass });
		}
		env.health.succeed(run.provider);
		record({ outcome: evaluation.outcome, reason: evaluation.reason, key: end.key });
		if (evaluation.reason === undefined) delete attempts[run.slot]!.reason;
		const win: WalkWin<V> = { provider: run.provider, value: evaluation.value, outcome: evaluation.outcome, attempts };
		if (evaluation.outcome === "ok") {
			winner = win;
			return judge({ outcome: "ok" });
		}
		const restricted = plan.request.kind === "search" && plan.request.domains.length > 0;
		const judged = judge({ outcome: "empty", restricted });
		if (judged.decision === "accept") winner = win;
		else {
			firstEmpty ??= win;
			notes.push(`${run.provider} found nothing`);
		}
		return judged;
	};

	try {
		launchNext();
		while (running.size > 0) {
			const races: Promise<{ type: "done"; id: number; end: AttemptEnd<R> } | HedgeFired>[] = [...running.values()].map(
				(run) => run.done,
			);
			if (hedge) races.push(hedge.fired);
			const event = await Promise.race(races);
			const run = running.get(event.id);
			if (run === undefined) continue;
			if (event.type === "hedge") {
				hedge = undefined;
				launchNext(`${run.provider} has not answered after ${seconds(policy.hedgeAfterMs ?? 0)}`);
				continue;
			}
			running.delete(run.id);
			const judged = settle(run, event.end);
			env.changed();
			const decision = judged === "continue" ? "next" : judged.decision;
			const outcome = judged === "continue" ? judged : judged.outcome;
			if (decision === "next") {
				if (running.size === 0) launchNext();
				else armHedge();
				continue;
			}
			if (outcome !== "continue" && outcome.outcome === "error") {
				if (outcome.errorClass === "cancelled") cancelled = true;
				else if (lastFailure !== undefined) policyStop = { provider: run.provider, failure: lastFailure };
			}
			const why: LoserReason = decision === "accept" ? "won" : "stopped";
			for (const other of running.values()) other.stop.controller.abort(why);
			for (const other of [...running.values()]) {
				running.delete(other.id);
				const { end } = await other.done;
				charge(other, end);
				const reason = signal.aborted ? "cancelled: by the caller" : LOSER_REASONS[why];
				attempts[other.slot] = {
					provider: other.provider,
					outcome: "error",
					reason,
					latencyMs: clock.now() - other.requestAt,
				};
				if (end.status !== "skipped" && end.key !== undefined) attempts[other.slot]!.key = end.key;
			}
			break;
		}
	} finally {
		hedge?.cancel();
		deadline.cancel();
		scope.release();
	}
	if (notes.length > 0) say(notes.join("; "));
	if (cancelled || (signal.aborted && winner === undefined)) throw cancelledError(all());
	if (winner) return { ...winner, attempts: all() };
	if (firstEmpty) return { ...firstEmpty, attempts: all() };
	throw chainError({ capability: plan.capability, attempts: all(), policyStop, bound });
}
