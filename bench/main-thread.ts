// Watches pi's (here: the bench's) main thread while a conversion runs in the worker: the longest event loop stall
// (monitorEventLoopDelay, wall clock), the longest stretch of the thread's own CPU work between two timer ticks and
// the peak RSS. On a busy machine a stall is mostly waiting for a core; the CPU stretch is the part our own code
// causes, which is what moving work off the thread can reduce.

import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

export const WATCH_DEFAULTS = {
	/** Resolution of the delay histogram and period of the CPU and RSS sampler. */
	sampleMs: 2,
};

export interface MainThreadFigures {
	/** Longest event loop stall, wall clock, above the sampling period. */
	stallMs: number;
	/** Longest run of the main thread's own CPU time between two sampler ticks. */
	longestWorkMs: number;
	/** Peak RSS seen, in bytes. */
	peakRss: number;
}

export function threadCpuMs(): number {
	const usage = process.threadCpuUsage();
	return (usage.user + usage.system) / 1000;
}

/** Runs `work` under watch. The histogram's timer starts on the next loop turn, so the watch starts a little early. */
export async function watchMainThread<T>(work: () => Promise<T>): Promise<{ value: T; figures: MainThreadFigures }> {
	const { sampleMs } = WATCH_DEFAULTS;
	const delay = monitorEventLoopDelay({ resolution: sampleMs });
	delay.enable();
	let peakRss = process.memoryUsage.rss();
	let lastCpu = threadCpuMs();
	let longestWorkMs = 0;
	const sampler = setInterval(() => {
		const cpu = threadCpuMs();
		longestWorkMs = Math.max(longestWorkMs, cpu - lastCpu);
		lastCpu = cpu;
		peakRss = Math.max(peakRss, process.memoryUsage.rss());
	}, sampleMs);
	await sleep(sampleMs * 4);
	try {
		const value = await work();
		// A blocked loop's delay is recorded when the loop runs again: let the timers fire once more.
		await sleep(sampleMs * 4);
		peakRss = Math.max(peakRss, process.memoryUsage.rss());
		const stallMs = Math.max(0, delay.max / 1e6 - sampleMs);
		return { value, figures: { stallMs, longestWorkMs, peakRss } };
	} finally {
		delay.disable();
		clearInterval(sampler);
	}
}

/** The longest stall of an idle loop over `ms`: what the machine's load alone costs (the stall figures' floor). */
export async function idleStallMs(ms: number): Promise<number> {
	const delay = monitorEventLoopDelay({ resolution: WATCH_DEFAULTS.sampleMs });
	delay.enable();
	await sleep(ms);
	delay.disable();
	return Math.max(0, delay.max / 1e6 - WATCH_DEFAULTS.sampleMs);
}
