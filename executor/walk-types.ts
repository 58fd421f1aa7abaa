// The walk's seams: what the capability hands it (plan, evaluation of an answer), what it hands back (the win),
// the process state it runs on, and the part of one walk's state that settling an attempt reads and writes.

import type { Policy } from "../engine/config-types.ts";
import type { Decision, StepOutcome } from "../engine/decide.ts";
import type { Plan } from "../engine/request-types.ts";
import type { Attempt } from "../engine/result-types.ts";
import type { Classification } from "../providers/contract.ts";
import type { AttemptEnd, AttemptEnv } from "./attempt-types.ts";
import type { ChainEnd } from "./chain.ts";
import type { Health } from "./health.ts";
import type { SpendBook } from "./spend.ts";
import type { StateStore } from "./store/contract.ts";
import type { Cancel, Scope } from "./timers.ts";
import type { Clock, ProviderBinding } from "./types.ts";

/** What the capability makes of a provider's answer: usable, empty, or a failure after all (fetch without text). */
export type Evaluation<V> =
	| { outcome: "ok" | "empty"; value: V; reason?: string }
	| { outcome: "error"; failure: Classification };

export interface WalkEnv extends AttemptEnv {
	health: Health;
	spend: SpendBook;
	/** Where spend, reservations and marks are shared with other processes (executor/store/). */
	store: StateStore;
	/** The configured providers by name, as the composition root handed them over. */
	bindings: ReadonlyMap<string, ProviderBinding>;
	/** Cooldowns or key states may have changed (persistence hook). */
	changed(): void;
}

export interface WalkInput<R, V, T = WalkWin<V>> {
	plan: Plan;
	/** The caller's cancellation (the coalescer's scope for all callers of one execution). */
	signal: Cancel;
	evaluate(raw: R, binding: ProviderBinding): Evaluation<V>;
	/** What the walk answers with, made from its win as soon as the chain is over (a throw rejects the answer). */
	finish(win: WalkWin<V>): T;
}

export interface WalkWin<V> {
	provider: string;
	value: V;
	outcome: "ok" | "empty";
	attempts: Attempt[];
}

/** A step's outcome with decide()'s verdict on it, taken once. */
export interface Judged {
	outcome: StepOutcome;
	decision: Decision;
}

/** A finished attempt as settling sees it. */
export interface Finished {
	provider: string;
	/** Its entry in `attempts`. */
	slot: number;
	binding: ProviderBinding;
	/** Start of its last request. */
	requestAt: number;
	/** The state store's reservation of its price, until the walk settles or releases it. */
	reservation: string | undefined;
}

/** The state of one walk that settling an attempt reads and writes (walk.ts's Walk). */
export interface WalkState<R, V> {
	readonly input: WalkInput<R, V, unknown>;
	readonly env: WalkEnv;
	readonly attempts: Attempt[];
	readonly notes: string[];
	readonly deadlineMs: number;
	launched: number;
	bound: ChainEnd["bound"];
	winner: WalkWin<V> | undefined;
	firstEmpty: WalkWin<V> | undefined;
	lastFailure: Classification | undefined;
	/** The codes of this walk's failures so far (made on the first), which escalation steps wait for. */
	failureCodes: string[] | undefined;
	skip(provider: string, reason: string, slot?: number): void;
	charge(run: Finished, end: AttemptEnd<R>): void;
}

/** The state of one walk that its running attempts read and write (walk.ts's Walk), and their signals' parent. */
export interface WalkHost<R> extends Scope {
	readonly input: WalkInput<unknown, unknown, unknown>;
	readonly policy: Policy;
	readonly clock: Clock;
	readonly maxAttempts: number;
	readonly running: readonly unknown[];
	launched: number;
	bound: ChainEnd["bound"];
	replaced: Map<number, Attempt[]> | undefined;
	/** An attempt's end, reported once per attempt and never while the walk is starting it. */
	ended(run: Finished, end: AttemptEnd<R>): void;
}
