// The seams of one attempt: what every attempt of a walk shares, what the walk hands an attempt (AttemptSpec, which
// executor/running.ts implements) and how an attempt ends; attempt.ts runs one, requests.ts sends its requests.

import type { Config } from "../engine/config-types.ts";
import type { WebRequest } from "../engine/request-types.ts";
import type { RequestSites } from "../engine/sites.ts";
import type { Classification, CurrentModel, ProviderDefinition } from "../providers/contract.ts";
import type { KeyBook } from "./keys.ts";
import type { RaceSignal, Scope } from "./timers.ts";
import type { Clock, ProviderBinding } from "./types.ts";

/** What every attempt of one walk shares. */
export interface AttemptEnv {
	clock: Clock;
	keys: KeyBook;
	currentModel?: CurrentModel;
	fetchGuard?: Config["fetchGuard"];
	onProgress: (line: string) => void;
}

export interface AttemptSpec {
	provider: string;
	binding: ProviderBinding;
	request: WebRequest;
	/** Caller, overall deadline and hedge combined; its abort ends the attempt as "aborted". */
	outer: Scope;
	/** The plan's parsed site filters, handed to the provider. */
	sites?: RequestSites;
	timeoutMs: number;
	/** Asked before each further request of this attempt (maxAttempts counts it); false: send nothing more. */
	another?(): boolean;
	/** A request of this attempt failed and another one follows (its own entry in `attempts`). */
	replaced?(request: { key?: string; failure: Classification; latencyMs: number }): void;
}

/**
 * How an attempt ended. `key` is the label of the last key used. `abandoned`: its signal ended it (a timeout, a
 * hedge's loser stopped, the caller) while a request was out, which the backend may bill all the same.
 */
export type AttemptEnd<R> =
	| { status: "ok"; value: R; key?: string }
	/** `unsent`: no request went out (every key of the pool was already out), so it does not count as one. */
	| { status: "error"; failure: Classification; key?: string; unsent?: true; abandoned?: true }
	/** The outer signal aborted; the walk knows which of its sources did. */
	| { status: "aborted"; key?: string; abandoned?: true }
	/** Nothing was sent: no credentials, or the type cannot serve this capability. */
	| { status: "skipped"; reason: string };

/** Where an attempt reports how it ended: called once, from promise reactions, so it must not throw. */
export type Report<R> = (end: AttemptEnd<R>) => void;

/** The provider method an attempt calls. */
export type Method = NonNullable<ProviderDefinition["search"]> | NonNullable<ProviderDefinition["fetch"]>;

/**
 * One attempt as its steps pass it on: what it runs, with what, under which signal, calling which method, and where
 * its end goes (executor/running.ts's Running is all of these).
 */
export interface Attempting<R> {
	readonly spec: AttemptSpec;
	readonly env: AttemptEnv;
	readonly own: RaceSignal;
	readonly method: Method;
	/** The attempt's end, once (later calls are ignored); it must not throw. */
	report(end: AttemptEnd<R>): void;
}
