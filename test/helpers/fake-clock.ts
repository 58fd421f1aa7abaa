// A fake clock for executor tests: `now` and an abortable `sleep` on virtual time, advanced explicitly or
// automatically (`run` jumps to the next timer whenever nothing else can happen), so no test sleeps for real.

export interface FakeClock {
	now(): number;
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
	/** Moves time forward by `ms`, firing due timers in order and letting promises settle between them. */
	advance(ms: number): Promise<void>;
	/** Settles `promise`, jumping from timer to timer whenever everything else is waiting. */
	run<T>(promise: Promise<T>): Promise<T>;
	/** Lets pending promise chains run without moving time. */
	flush(): Promise<void>;
	/** Timers waiting to fire. */
	pending(): number;
}

interface Timer {
	at: number;
	seq: number;
	fire(): void;
}

export function createFakeClock(start = 1_700_000_000_000): FakeClock {
	let current = start;
	let seq = 0;
	const timers: Timer[] = [];

	const flush = async () => {
		for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
	};

	const next = (limit = Number.POSITIVE_INFINITY): Timer | undefined => {
		let best: Timer | undefined;
		for (const timer of timers) {
			if (
				timer.at <= limit &&
				(best === undefined || timer.at < best.at || (timer.at === best.at && timer.seq < best.seq))
			) {
				best = timer;
			}
		}
		return best;
	};

	const fire = (timer: Timer) => {
		timers.splice(timers.indexOf(timer), 1);
		current = Math.max(current, timer.at);
		timer.fire();
	};

	return {
		now: () => current,
		sleep(ms, signal) {
			return new Promise<void>((resolve, reject) => {
				if (signal?.aborted) {
					reject(signal.reason);
					return;
				}
				const onAbort = () => {
					const index = timers.indexOf(timer);
					if (index >= 0) timers.splice(index, 1);
					reject(signal?.reason);
				};
				const timer: Timer = {
					at: current + Math.max(0, ms),
					seq: seq++,
					fire: () => {
						signal?.removeEventListener("abort", onAbort);
						resolve();
					},
				};
				timers.push(timer);
				signal?.addEventListener("abort", onAbort, { once: true });
			});
		},
		async advance(ms) {
			const target = current + ms;
			for (;;) {
				await flush();
				const timer = next(target);
				if (timer === undefined) break;
				fire(timer);
			}
			current = target;
			await flush();
		},
		async run(promise) {
			let settled = false;
			promise.then(
				() => {
					settled = true;
				},
				() => {
					settled = true;
				},
			);
			for (let steps = 0; steps < 100_000; steps++) {
				await flush();
				if (settled) return promise;
				const timer = next();
				if (timer === undefined) throw new Error("fake clock: the promise is pending and no timer is left");
				fire(timer);
			}
			throw new Error("fake clock: too many timers");
		},
		flush,
		pending: () => timers.length,
	};
}
