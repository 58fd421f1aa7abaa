// When a rendered page is done: the network idle (no byte, no request, nothing in flight for a while) or the DOM
// stable (no mutation for a while), whichever comes first, capped; and the bounds checked while waiting: the
// proxy's byte cut and the browser's memory.

import type { Page } from "playwright-core";
import { formatBytes } from "../../engine/thousands.ts";
import type { Lease } from "./driver.ts";
import type { GuardProxy } from "./guard-proxy.ts";
import { treeMemoryMb } from "./memory.ts";
import { type PageProbe, probe } from "./probe.ts";

export type Settled = "network idle" | "DOM stable" | "time cap" | "cut";

export interface WatchSettings {
	settleMs: number;
	networkQuietMs: number;
	/** The quiet time (network and DOM) that is enough when the page has no short timer or idle callback queued. */
	idleQuietMs: number;
	domQuietMs: number;
	maxBytes: number;
	maxDomNodes: number;
	maxMemoryMb: number;
	pollMs: number;
	memoryPollMs: number;
}

export interface WatchParts {
	page: Page;
	proxy: GuardProxy;
	lease: Lease;
	settings: WatchSettings;
	/** Epoch ms by which the render must stop waiting. */
	deadline: number;
	signal: AbortSignal;
}

/** Watches one page for the moment it settles, and for the bounds: bytes (the proxy's cut), memory, time. */
export class Watch {
	cutReason: string | undefined;
	memoryCut = false;
	/** What the last look at the page saw (the one that found it settled, after settle()). */
	last: PageProbe | undefined;
	/** The last look that found a request in flight or the document still loading. */
	private quietSince = Date.now();
	private memoryAt = 0;

	private readonly page: Page;
	private readonly proxy: GuardProxy;
	private readonly lease: Lease;
	private readonly settings: WatchSettings;
	private readonly deadline: number;
	private readonly signal: AbortSignal;

	constructor(parts: WatchParts) {
		this.page = parts.page;
		this.proxy = parts.proxy;
		this.lease = parts.lease;
		this.settings = parts.settings;
		this.deadline = parts.deadline;
		this.signal = parts.signal;
	}

	/** Waits until the network is idle or the DOM stable (whichever first), a bound cuts, or the cap. */
	async settle(): Promise<Settled> {
		const capAt = Math.min(this.deadline, Date.now() + this.settings.settleMs);
		for (;;) {
			if (this.signal.aborted) throw this.signal.reason;
			if (this.bounded()) return "cut";
			const state = await probe(this.page);
			this.last = state;
			const now = Date.now();
			if (this.networkQuiet(state, now)) return "network idle";
			if (now - state.lastChange >= this.settings.domQuietMs) return "DOM stable";
			if (state.nodes > this.settings.maxDomNodes) return "cut";
			if (now >= capAt) return "time cap";
			await delay(this.nextPollMs(state, now, capAt));
		}
	}

	/**
	 * How long until the next look: a poll interval, or less when a quiet time (network or DOM) would end before it,
	 * so a page that settles is read when it does, not up to a whole poll later.
	 */
	private nextPollMs(state: PageProbe, now: number, capAt: number): number {
		const { pollMs, domQuietMs } = this.settings;
		const networkAt = networkBusy(state) ? Number.POSITIVE_INFINITY : this.quietFrom(state) + this.quietNeeded(state);
		const due = Math.min(now + pollMs, networkAt, state.lastChange + domQuietMs, capAt);
		return Math.max(MIN_POLL_MS, due - now);
	}

	/** After a scroll: whether the page fetched or changed anything since `before` (read ahead of it), in a short wait. */
	async changedSoon(before: { changes: number; requests: number }): Promise<boolean> {
		await delay(Math.min(150, this.settings.networkQuietMs));
		const after = this.proxy.stats();
		const state = await probe(this.page);
		return after.requests !== before.requests || state.changes !== before.changes || state.inflight > 0;
	}

	/**
	 * Nothing in flight, no queued work overdue, the document loaded, and the page's own requests (its events, so the
	 * browser's icon fetch after load does not count) still for the quiet time. Traffic on an open WebSocket is not a
	 * request: a page that keeps one busy settles by a stable DOM instead.
	 */
	private networkQuiet(state: PageProbe, now: number): boolean {
		if (networkBusy(state)) {
			this.quietSince = now;
			return false;
		}
		return now - this.quietFrom(state) >= this.quietNeeded(state);
	}

	private quietNeeded(state: PageProbe): number {
		return quietNeeded(state, this.quietFrom(state), this.settings);
	}

	/**
	 * Quiet since the later of the page's last request event, at the time it reached the render (not the time of the
	 * look that saw it: the first look after a navigation can come late), and the last look that found it busy.
	 */
	private quietFrom(state: PageProbe): number {
		return Math.max(this.quietSince, state.lastNetworkAt);
	}

	private bounded(): boolean {
		if (this.cutReason) return true;
		if (this.proxy.stats().cut) {
			this.cutReason = `the page's requests passed ${formatBytes(this.settings.maxBytes)} (maxBytes): content cut at the cap`;
			return true;
		}
		const now = Date.now();
		if (this.lease.pid !== undefined && now - this.memoryAt >= this.settings.memoryPollMs) {
			this.memoryAt = now;
			const mb = treeMemoryMb(this.lease.pid, this.settings.maxMemoryMb);
			if (mb !== undefined && mb > this.settings.maxMemoryMb) {
				this.cutReason = `the browser used ${Math.round(mb)} MB, more than ${this.settings.maxMemoryMb} MB: the render was cut and the browser restarted`;
				this.memoryCut = true;
				return true;
			}
		}
		return false;
	}
}

/**
 * How long the network must have been quiet (counted from `quietFrom`, epoch ms) for the page to be idle:
 * networkQuietMs, or idleQuietMs when the page has queued no short timer or idle callback and its DOM has been still
 * as long too. Such a page has nothing left that could start a request soon (its fetch/XHR and the browser's requests
 * are counted in flight), so waiting longer only adds time; a page with a timer queued may be about to fetch.
 */
export function quietNeeded(
	state: Pick<PageProbe, "queued" | "lastChange">,
	quietFrom: number,
	settings: Pick<WatchSettings, "networkQuietMs" | "idleQuietMs">,
): number {
	const { networkQuietMs, idleQuietMs } = settings;
	if (state.queued > 0) return networkQuietMs;
	return Math.max(idleQuietMs, Math.min(networkQuietMs, state.lastChange + idleQuietMs - quietFrom));
}

/** The shortest wait between two looks at the page (each is a round trip to the browser). */
const MIN_POLL_MS = 5;

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Something in flight, the document not loaded yet, or queued work overdue: the network cannot be quiet. */
function networkBusy(state: PageProbe): boolean {
	return state.inflight > 0 || !state.loaded || state.overdue > 0;
}
