// The real clock's shared timer (executor/timer-queue.ts): waits fire in due order, once, not before they are due;
// cancelled ones never fire; when nothing is pending the Node timer no longer holds the process open (kept
// unref'd for the next call, which then arms no new one).

import { describe, expect, it, vi } from "vitest";
import { TimerQueue } from "../executor/timer-queue.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits armed out of due order, two of one length: due as a, a2, b, c. */
const WAITS = [
	["c", 45],
	["a", 5],
	["b", 25],
	["a2", 5],
] as const;

describe("TimerQueue", () => {
	it("fires waits of several lengths in due order, each once and not early", async () => {
		const queue = new TimerQueue();
		const fired: string[] = [];
		const start = performance.now();
		const at: Record<string, number> = {};
		for (const [name, ms] of WAITS) {
			queue.after(ms, () => {
				fired.push(name);
				at[name] = performance.now() - start;
			});
		}
		expect(queue.pending).toBe(4);
		await sleep(80);
		expect(fired).toEqual(["a", "a2", "b", "c"]);
		expect(at.a).toBeGreaterThanOrEqual(4);
		expect(at.b).toBeGreaterThanOrEqual(24);
		expect(at.c).toBeGreaterThanOrEqual(44);
		expect(queue.pending).toBe(0);
	});

	it("fires waits of several lengths due in one late run in due order, not in the order their lengths were first used", async () => {
		// A clock the test moves: the Node timer runs once, after every wait is due (as on a busy machine).
		let clock = 0;
		const queue = new TimerQueue(() => clock);
		const fired: string[] = [];
		for (const [name, ms] of WAITS) {
			queue.after(ms, () => fired.push(name));
		}
		clock = 100;
		await sleep(20);
		expect(fired).toEqual(["a", "a2", "b", "c"]);
	});

	it("never fires a cancelled wait, and cancelling twice or after firing changes nothing", async () => {
		const queue = new TimerQueue();
		const fired: number[] = [];
		const cancels = [0, 1, 2, 3].map((i) => queue.after(10, () => fired.push(i)));
		cancels[1]!();
		cancels[1]!();
		cancels[3]!();
		expect(queue.pending).toBe(2);
		await sleep(40);
		expect(fired).toEqual([0, 2]);
		cancels[0]!();
		expect(queue.pending).toBe(0);
	});

	it("keeps only live waits when many are cancelled (the usual case: a call ends long before its deadline)", async () => {
		const queue = new TimerQueue();
		const fired: number[] = [];
		const keep = queue.after(20, () => fired.push(-1));
		for (let i = 0; i < 10_000; i++) queue.after(30_000, () => fired.push(i))();
		expect(queue.pending).toBe(1);
		await sleep(50);
		expect(fired).toEqual([-1]);
		keep();
		expect(queue.pending).toBe(0);
	});

	it("lets a firing wait arm and cancel others", async () => {
		const queue = new TimerQueue();
		const fired: string[] = [];
		let cancelLater: () => void = () => {};
		queue.after(5, () => {
			fired.push("first");
			queue.after(5, () => fired.push("armed while firing"));
			cancelLater();
		});
		cancelLater = queue.after(15, () => fired.push("cancelled while firing"));
		await sleep(50);
		expect(fired).toEqual(["first", "armed while firing"]);
		expect(queue.pending).toBe(0);
	});

	it("arms a wait longer than Node's timer limit at the limit, neither early nor every millisecond", async () => {
		const queue = new TimerQueue();
		const fired: string[] = [];
		const overflows: string[] = [];
		const onWarning = (warning: Error) => {
			if (warning.name === "TimeoutOverflowWarning") overflows.push(warning.message);
		};
		process.on("warning", onWarning);
		try {
			const cancel = queue.after(2 ** 31 + 10_000, () => fired.push("far"));
			await sleep(20);
			expect(fired).toEqual([]);
			expect(overflows).toEqual([]);
			expect(queue.pending).toBe(1);
			cancel();
		} finally {
			process.off("warning", onWarning);
		}
	});

	it("holds no Node timer once nothing is pending", () => {
		const queue = new TimerQueue();
		const before = process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;
		const cancel = queue.after(60_000, () => {});
		expect(process.getActiveResourcesInfo().filter((name) => name === "Timeout").length).toBe(before + 1);
		cancel();
		expect(process.getActiveResourcesInfo().filter((name) => name === "Timeout").length).toBe(before);
	});

	it("arms no new Node timer for calls one at a time whose waits are due after the one it holds", () => {
		const queue = new TimerQueue();
		const armed = vi.spyOn(globalThis, "setTimeout");
		let timers: number;
		try {
			// As a call arms them: its overall deadline, then its attempt's shorter timeout; both cancelled at its end.
			for (let call = 0; call < 20; call++) {
				const deadline = queue.after(60_000, () => {});
				const attempt = queue.after(30_000, () => {});
				expect(process.getActiveResourcesInfo().filter((name) => name === "Timeout").length).toBeGreaterThan(0);
				attempt();
				deadline();
			}
			expect(queue.pending).toBe(0);
		} finally {
			timers = armed.mock.calls.length;
			armed.mockRestore();
		}
		// The first call's two (its deadline, then its attempt's earlier timeout); the later calls' waits are due after it.
		expect(timers).toBe(2);
	});
});
