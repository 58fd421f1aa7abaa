// Settling one finished attempt: its record in `attempts`, cooldown bookkeeping, the capability's evaluation of
// the answer, and decide()'s verdict on the outcome (engine/decide.ts), taken once.

import { decide, type StepOutcome } from "../engine/decide.ts";
import type { Attempt } from "../engine/result-types.ts";
import type { AttemptEnd } from "./attempt-types.ts";
import { seconds } from "./chain.ts";
import type { Evaluation, Finished, Judged, WalkState, WalkWin } from "./walk-types.ts";

function judge(walk: WalkState<unknown, unknown>, outcome: StepOutcome): Judged {
	return { outcome, decision: decide(outcome, walk.input.plan.policy) };
}

/** A provider answering in a shape its own parser should have rejected is a parse failure, not a crash. */
function evaluate<R, V>(walk: WalkState<R, V>, run: Finished, raw: R): Evaluation<V> {
	try {
		return walk.input.evaluate(raw, run.binding);
	} catch (error) {
		const reason = `unexpected answer: ${error instanceof Error ? error.message : "unreadable"}`;
		return { outcome: "error", failure: { errorClass: "parse", reason } };
	}
}

/**
 * The attempt's final record, fields in the order the JSON shows them; `reason`, `key`, `kind` and `retryAfterMs`
 * only when there is one. Taken as arguments, not an object of them: the record is the one object made.
 */
function record(
	walk: WalkState<unknown, unknown>,
	run: Finished,
	latencyMs: number,
	outcome: Attempt["outcome"],
	reason: string | undefined,
	key: string | undefined,
	kind?: Attempt["kind"],
	retryAfterMs?: number,
): void {
	const entry: Attempt = { provider: run.provider, outcome };
	if (reason !== undefined) entry.reason = reason;
	if (key !== undefined) entry.key = key;
	if (kind !== undefined) entry.kind = kind;
	if (retryAfterMs !== undefined) entry.retryAfterMs = retryAfterMs;
	entry.latencyMs = latencyMs;
	walk.attempts[run.slot] = entry;
}

/** Records a finished attempt; returns how it ended and decide()'s verdict, or "continue" (skipped, or the deadline). */
export function settle<R, V>(walk: WalkState<R, V>, run: Finished, end: AttemptEnd<R>): Judged | "continue" {
	const { input, env } = walk;
	const latencyMs = env.clock.now() - run.requestAt;
	walk.charge(run, end);
	if (end.status === "skipped") {
		walk.launched--;
		walk.skip(run.provider, end.reason, run.slot);
		return "continue";
	}
	if (end.status === "aborted") {
		if (input.signal.aborted) {
			record(walk, run, latencyMs, "error", "cancelled: by the caller", end.key);
			return judge(walk, { outcome: "error", errorClass: "cancelled" });
		}
		// Our deadline, not the provider's fault: no cooldown, and nothing more can start.
		walk.bound = { kind: "deadline", deadlineMs: walk.deadlineMs };
		const reason = `timeout: overall deadline of ${seconds(walk.deadlineMs)} reached`;
		record(walk, run, latencyMs, "error", reason, end.key);
		return "continue";
	}
	if (end.status === "error" && end.unsent) walk.launched--; // every key was out: nothing was sent
	const evaluation: Evaluation<V> =
		end.status === "ok" ? evaluate(walk, run, end.value) : { outcome: "error", failure: end.failure };
	const { policy } = input.plan;
	if (evaluation.outcome === "error") {
		const { failure } = evaluation;
		walk.lastFailure = failure;
		if (failure.code !== undefined) {
			if (walk.failureCodes === undefined) walk.failureCodes = [failure.code];
			else walk.failureCodes.push(failure.code);
		}
		const { errorClass, retryAfterMs } = failure;
		const reason = `${errorClass}: ${failure.reason}`;
		record(walk, run, latencyMs, "error", reason, end.key, errorClass, retryAfterMs);
		walk.notes.push(`${run.provider} failed (${failure.errorClass})`);
		// A per-site fetcher (direct) failing on one site says nothing about the next site: no cooldown.
		if (!run.binding.definition.perSite) env.health.fail(run.provider, failure, policy.cooldown);
		return judge(walk, { outcome: "error", errorClass: failure.errorClass });
	}
	env.health.succeed(run.provider);
	record(walk, run, latencyMs, evaluation.outcome, evaluation.reason, end.key);
	const win: WalkWin<V> = {
		provider: run.provider,
		value: evaluation.value,
		outcome: evaluation.outcome,
		attempts: walk.attempts,
	};
	if (evaluation.outcome === "ok") {
		walk.winner = win;
		return judge(walk, { outcome: "ok" });
	}
	const { request } = input.plan;
	const restricted = request.kind === "search" && request.domains.length > 0;
	const judged = judge(walk, { outcome: "empty", restricted });
	if (judged.decision === "accept") walk.winner = win;
	else {
		walk.firstEmpty ??= win;
		walk.notes.push(`${run.provider} found nothing`);
	}
	return judged;
}
