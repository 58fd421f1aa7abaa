// The walk's cancellation scopes (executor/timers.ts Scope, RaceSignal): a parent's abort reaches every child with
// its reason, a released child no longer hears it, and only a caller's AbortSignal is listened to as an event; the
// attempt's signal tells the HTTP layer's listeners once and watches one promise at a time.

import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { RaceSignal, Scope } from "../executor/timers.ts";

describe("Scope", () => {
	it("aborts its children with the parent's reason, down to the attempt's signal", () => {
		const caller = new AbortController();
		const walk = new Scope(caller.signal);
		const hedged = new Scope(walk);
		const attempt = new RaceSignal(hedged);
		const other = new RaceSignal(walk);
		expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
		const reason = new Error("deadline");
		walk.abort(reason);
		expect([hedged.aborted, attempt.aborted, other.aborted]).toEqual([true, true, true]);
		expect(attempt.signal.aborted).toBe(true);
		expect(attempt.signal.reason).toBe(reason);
		expect(other.reason).toBe(reason);
		expect(caller.signal.aborted).toBe(false);
	});

	it("hears a caller's abort once, and nothing after release", () => {
		const caller = new AbortController();
		const walk = new Scope(caller.signal);
		const kept = new RaceSignal(walk);
		const released = new RaceSignal(walk);
		released.release();
		caller.abort("stop");
		expect(kept.signal.reason).toBe("stop");
		expect(released.aborted).toBe(false);
		expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);

		const later = new AbortController();
		const scope = new Scope(later.signal);
		scope.release();
		expect(getEventListeners(later.signal, "abort")).toHaveLength(0);
	});

	it("has a root without a parent, as the coalescer's scope for all callers of one execution", () => {
		const shared = new Scope();
		const walk = new Scope(shared);
		const attempt = new RaceSignal(walk);
		expect(shared.aborted).toBe(false);
		shared.abort("every caller left");
		expect(attempt.signal.reason).toBe("every caller left");
		walk.release();
		attempt.release();
	});

	it("starts aborted under an aborted parent, its signal too", () => {
		const caller = new AbortController();
		caller.abort("gone");
		const walk = new Scope(caller.signal);
		const attempt = new RaceSignal(walk);
		expect(walk.reason).toBe("gone");
		expect(attempt.signal.aborted).toBe(true);
		expect(attempt.signal.reason).toBe("gone");
	});

	it("rejects a running race at the abort, with the abort's reason", async () => {
		const attempt = new RaceSignal(new AbortController().signal);
		const never = new Promise<never>(() => {});
		const raced = attempt.race(never);
		attempt.abort(new Error("timed out"));
		await expect(raced).rejects.toThrow("timed out");
	});

	it("tells its listeners once at the abort, as an AbortSignal does, and its AbortSignal follows with the reason", () => {
		const walk = new Scope();
		const attempt = new RaceSignal(walk);
		const heard: string[] = [];
		const kept = { handleEvent: () => heard.push(`kept:${String(attempt.reason)}`) };
		const removed = { handleEvent: () => heard.push("removed") };
		attempt.addEventListener("abort", kept);
		attempt.addEventListener("abort", kept);
		attempt.addEventListener("abort", removed);
		attempt.removeEventListener("abort", removed);
		walk.abort("deadline");
		attempt.abort("again");
		attempt.addEventListener("abort", { handleEvent: () => heard.push("late") });
		expect(heard).toEqual(["kept:deadline"]);
		// The AbortSignal the provider gets aborts with the same reason.
		expect(attempt.signal.aborted).toBe(true);
		expect(attempt.signal.reason).toBe("deadline");
	});

	it("reports a watched promise once: its value, or the abort that came first", async () => {
		const attempt = new RaceSignal(new Scope());
		const seen: unknown[] = [];
		attempt.watchWith(Promise.resolve("answer"), {
			settled: (value) => seen.push(value),
			failed: (error) => seen.push(error),
		});
		await Promise.resolve();
		await Promise.resolve();
		let answer!: (value: string) => void;
		attempt.watchWith(
			new Promise<string>((resolve) => {
				answer = resolve;
			}),
			{
				settled: (value) => seen.push(value),
				failed: (error) => seen.push(`aborted: ${String(error)}`),
			},
		);
		attempt.abort("timeout");
		answer("too late");
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(seen).toEqual(["answer", "aborted: timeout"]);
	});
});
