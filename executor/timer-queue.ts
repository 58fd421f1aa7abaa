// The real clock's waits (`clock.arm`, and `clock.after` built on it): one Node timer for all pending calls. Every
// call arms two (its overall deadline and its attempt's timeout) and nearly always cancels both long before they are
// due; as Node Timeouts, each was an async resource put into and taken out of Node's timer lists while requests were
// in flight. Waits of one length are due in the order they were armed, so each length keeps a list in due order and
// the timer is armed for the earliest head.

/** The longest delay setTimeout takes (2^31 − 1 ms); a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/** What a wait calls when it is due: a method of the object that armed it, so arming makes no closure. */
export interface Timed {
	due(): void;
}

/** An armed wait: `cancel` takes it out (a no-op once it has fired). */
export interface Timer {
	cancel(): void;
}

/** One pending wait; `target` is cleared when it is cancelled or has fired. Its own handle: no closure to cancel it. */
class Wait implements Timer {
	at: number;
	target: Timed | undefined;
	private readonly queue: TimerQueue;

	constructor(queue: TimerQueue, at: number, target: Timed) {
		this.queue = queue;
		this.at = at;
		this.target = target;
	}

	cancel(): void {
		this.queue.drop(this);
	}
}

/** A fired wait as `due` keeps it until it is called. */
interface Fired {
	at: number;
	target: Timed;
}

/** The waits of one length, due in order; `head` is the first one not yet taken out. */
interface Lane {
	waits: Wait[];
	head: number;
}

export class TimerQueue {
	private readonly lanes = new Map<number, Lane>();
	private readonly now: () => number;
	private live = 0;
	/** Cancelled waits still in a lane: when they outnumber the live ones, the lanes are compacted. */
	private dead = 0;
	private timer: ReturnType<typeof setTimeout> | undefined;
	private armedAt = Number.POSITIVE_INFINITY;

	constructor(now: () => number = () => performance.now()) {
		this.now = now;
	}

	/** Calls `fire` after `ms`; the returned function cancels it (a no-op once it has fired). */
	after(ms: number, fire: () => void): () => void {
		const wait = this.arm(ms, { due: fire });
		return () => wait.cancel();
	}

	/** Calls `target.due()` after `ms`; the timer returned cancels it. The hot path's way: no closure either side. */
	arm(ms: number, target: Timed): Timer {
		const delay = Math.max(0, ms);
		const wait = new Wait(this, this.now() + delay, target);
		let lane = this.lanes.get(delay);
		if (lane === undefined) {
			lane = { waits: [], head: 0 };
			this.lanes.set(delay, lane);
		}
		lane.waits.push(wait);
		this.live++;
		if (wait.at < this.armedAt) this.setTimer(wait.at);
		// The timer left from an idle spell is due before this wait: it holds the process open again, no new one.
		else if (this.live === 1) this.timer?.ref();
		return wait;
	}

	/** Waits still to fire (tests read it). */
	get pending(): number {
		return this.live;
	}

	/** A wait's cancel: it is taken out (Wait.cancel). */
	drop(wait: Wait): void {
		if (wait.target === undefined) return;
		wait.target = undefined;
		this.live--;
		this.dead++;
		if (this.live === 0) this.reset();
		else if (this.dead > 64 && this.dead > 2 * this.live) this.compact();
	}

	/**
	 * Nothing is pending: the timer no longer holds the process open (unref) and the lanes are emptied. It is kept:
	 * calls one at a time arm their waits after the one it is due for, and the next call refs it again instead of
	 * arming two new Node timers; due then finds nothing and re-arms only for what is pending by then.
	 */
	private reset(): void {
		this.timer?.unref();
		this.lanes.clear();
		this.dead = 0;
	}

	private compact(): void {
		for (const [delay, lane] of this.lanes) {
			const waits: Wait[] = [];
			for (let i = lane.head; i < lane.waits.length; i++) {
				const wait = lane.waits[i]!;
				if (wait.target !== undefined) waits.push(wait);
			}
			if (waits.length === 0) this.lanes.delete(delay);
			else this.lanes.set(delay, { waits, head: 0 });
		}
		this.dead = 0;
	}

	private setTimer(at: number): void {
		if (this.timer !== undefined) clearTimeout(this.timer);
		this.armedAt = at;
		// Node's timers count whole milliseconds and may run a fraction early: what is not yet due is re-armed. A
		// delay past Node's limit would fire after 1 ms; capped, a far wait is re-armed until it is due.
		const delay = Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(at - this.now())));
		this.timer = setTimeout(() => this.due(), delay);
	}

	/** The timer ran: fires every wait that is due, in due order per lane, then arms for the next one. */
	private due(): void {
		this.timer = undefined;
		this.armedAt = Number.POSITIVE_INFINITY;
		const now = this.now();
		const fired: Fired[] = [];
		let next = Number.POSITIVE_INFINITY;
		for (const [delay, lane] of this.lanes) {
			const { waits } = lane;
			while (lane.head < waits.length) {
				const wait = waits[lane.head]!;
				if (wait.target === undefined) {
					lane.head++;
					this.dead--;
					continue;
				}
				if (wait.at > now) {
					next = Math.min(next, wait.at);
					break;
				}
				fired.push({ at: wait.at, target: wait.target });
				wait.target = undefined;
				lane.head++;
				this.live--;
			}
			if (lane.head >= waits.length) this.lanes.delete(delay);
			else if (lane.head > 1024 && lane.head * 2 > waits.length) {
				lane.waits = waits.slice(lane.head);
				lane.head = 0;
			}
		}
		if (this.live === 0) this.reset();
		else if (next < Number.POSITIVE_INFINITY) this.setTimer(next);
		// Several lanes can be due at once (a late timer on a busy machine): they fire in due order across lanes, not
		// in the order the lanes were made (a call's overall deadline before a later attempt's timeout). The sort is
		// stable, so one lane's waits keep their order.
		if (fired.length > 1) fired.sort((a, b) => a.at - b.at);
		// Fired last, so a callback that arms or cancels another wait finds the queue consistent.
		for (const wait of fired) wait.target.due();
	}
}
