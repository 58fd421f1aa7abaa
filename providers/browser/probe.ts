// What a render reads from inside the page: an init script counts DOM mutations (and when the last one was), and a
// probe reads that with the element count, the load state and whether the page can scroll further.

import type { Page, Request } from "playwright-core";

/**
 * Installed before any of the page's scripts; it only observes. Besides mutations it notes whether the page watches
 * scrolling at all (a scroll or wheel listener, an onscroll handler, an IntersectionObserver): a page that does not
 * cannot load more as it scrolls, so the render does not scroll it and wait to see (render.ts).
 */
/** A timer set for at most this long counts as queued work (PROBE_SCRIPT). */
export const QUEUED_TIMER_MS = 250;
/** Queued work this long past when it was due is overdue: the page's main thread is behind. */
export const OVERDUE_SLACK_MS = 25;

export const PROBE_SCRIPT = `(() => {
	const state = { changes: 0, last: Date.now(), scrollWatched: false, pending: 0 };
	Object.defineProperty(window, "__piWebAccessProbe", { value: state, enumerable: false });
	const watched = (type) => {
		if (type === "scroll" || type === "wheel") state.scrollWatched = true;
	};
	const add = EventTarget.prototype.addEventListener;
	EventTarget.prototype.addEventListener = function addEventListener(type, ...rest) {
		watched(type);
		return add.call(this, type, ...rest);
	};
	for (const target of [window, Window.prototype, Document.prototype, HTMLElement.prototype]) {
		const slot = Object.getOwnPropertyDescriptor(target, "onscroll");
		if (!slot || !slot.set || !slot.configurable) continue;
		Object.defineProperty(target, "onscroll", {
			...slot,
			set(value) {
				watched("scroll");
				slot.set.call(this, value);
			},
		});
	}
	if (typeof IntersectionObserver === "function") {
		window.IntersectionObserver = new Proxy(IntersectionObserver, {
			construct(target, args, newTarget) {
				state.scrollWatched = true;
				return Reflect.construct(target, args, newTarget);
			},
		});
	}
	// fetch() and XHR in flight, counted in the page itself: the browser's request events reach the render later,
	// so on a busy machine a request just started could look like none.
	const ended = () => {
		state.pending = Math.max(0, state.pending - 1);
	};
	const nativeFetch = window.fetch;
	window.fetch = function fetch(...args) {
		state.pending++;
		let answer;
		try {
			answer = nativeFetch.apply(this, args);
		} catch (error) {
			ended();
			throw error;
		}
		answer.then(ended, ended);
		return answer;
	};
	const send = XMLHttpRequest.prototype.send;
	XMLHttpRequest.prototype.send = function (...args) {
		state.pending++;
		add.call(this, "loadend", ended, { once: true });
		try {
			return send.apply(this, args);
		} catch (error) {
			ended();
			throw error;
		}
	};
	// Short timers and idle callbacks not yet run, each with when it is due: work the page has queued that may still
	// fetch or write (settle.ts reads a page with none as done sooner, and one with work overdue as busy: a page whose
	// main thread is behind has not yet done what it meant to). Longer timers and intervals are a page's clock.
	const queued = new Map();
	const track = (schedule, cancel, dueIn) => {
		const native = window[schedule];
		const nativeCancel = window[cancel];
		if (typeof native !== "function" || typeof nativeCancel !== "function") return;
		window[schedule] = function (handler, delay, ...rest) {
			const wait = dueIn(delay);
			if (typeof handler !== "function" || wait === undefined) return native.call(this, handler, delay, ...rest);
			const id = native.call(
				this,
				function (...args) {
					queued.delete(id);
					return handler.apply(this, args);
				},
				delay,
				...rest,
			);
			queued.set(id, Date.now() + wait);
			return id;
		};
		window[cancel] = function (id) {
			queued.delete(id);
			return nativeCancel.call(this, id);
		};
	};
	track("setTimeout", "clearTimeout", (delay) => {
		const wait = Math.max(0, Number(delay) || 0);
		return wait <= ${QUEUED_TIMER_MS} ? wait : undefined;
	});
	track("requestIdleCallback", "cancelIdleCallback", () => 0);
	Object.defineProperty(state, "queued", { get: () => queued.size });
	Object.defineProperty(state, "overdue", {
		get: () => {
			const late = Date.now() - ${OVERDUE_SLACK_MS};
			let count = 0;
			for (const due of queued.values()) if (due < late) count++;
			return count;
		},
	});
	new MutationObserver((records) => {
		state.changes += records.length;
		state.last = Date.now();
	}).observe(document, { subtree: true, childList: true, characterData: true, attributes: false });
})();`;

export interface PageProbe {
	/** Elements in the document. */
	nodes: number;
	/** DOM mutations so far, and when the last one happened (epoch ms). */
	changes: number;
	lastChange: number;
	/** document.readyState is "complete". */
	loaded: boolean;
	/** There is more page below the viewport, and the page watches scrolling (PROBE_SCRIPT). */
	scrollable: boolean;
	/** Requests of the page still in flight (counted by the render, not the page). */
	inflight: number;
	/** Timers of at most QUEUED_TIMER_MS and idle callbacks the page has queued and that have not run. */
	queued: number;
	/** Of those, the ones past when they were due (by more than OVERDUE_SLACK_MS). */
	overdue: number;
	/**
	 * When the page's last request event (started, finished, failed: its own network activity, not the browser's)
	 * reached the render (epoch ms; 0 before any).
	 */
	lastNetworkAt: number;
}

const inflight = new WeakMap<Page, number>();
const lastEventAt = new WeakMap<Page, number>();
/** Failed navigations of the main frame, by request: a later one (a script navigating to a download) is not the document's. */
const navigationFailures = new WeakMap<Request, string>();

/**
 * Counts the page's requests in flight from the browser's own events (a page's script cannot hide them), and
 * keeps how the main document's own request failed, if it did (a connection reset mid-body).
 */
export function trackRequests(page: Page): void {
	inflight.set(page, 0);
	const change = (by: number) => {
		inflight.set(page, Math.max(0, (inflight.get(page) ?? 0) + by));
		lastEventAt.set(page, Date.now());
	};
	page.on("request", () => change(1));
	page.on("requestfinished", () => change(-1));
	page.on("requestfailed", (request) => {
		change(-1);
		if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
			navigationFailures.set(request, request.failure()?.errorText ?? "failed");
		}
	});
}

/** How the document's request (the one the render read) failed after its answer began ("net::ERR_CONNECTION_RESET"). */
export function documentFailure(request: Request): string | undefined {
	return navigationFailures.get(request);
}

/** What the page itself reads: the probe less the render's own counts, plus the page's fetch/XHR in flight. */
type InPage = Omit<PageProbe, "inflight" | "lastNetworkAt"> & { pending: number };

/** What a page being replaced (a redirect, a script navigating) reads as: changing, nothing to count yet. */
function replaced(): InPage {
	return {
		nodes: 0,
		changes: -1,
		lastChange: Date.now(),
		loaded: false,
		scrollable: false,
		pending: 0,
		queued: 0,
		overdue: 0,
	};
}

export async function probe(page: Page): Promise<PageProbe> {
	const state = await evaluateState(page).catch((error: unknown) => {
		if (/context was destroyed|navigat|Cannot find context/i.test(String(error))) return replaced();
		throw error;
	});
	const { pending, ...seen } = state;
	// Either count may lag the other: the page's own is exact for fetch/XHR, the browser's sees every request.
	return {
		...seen,
		inflight: Math.max(inflight.get(page) ?? 0, pending),
		lastNetworkAt: lastEventAt.get(page) ?? 0,
	};
}

function evaluateState(page: Page): Promise<InPage> {
	return page.evaluate(() => {
		const own = (
			window as unknown as {
				__piWebAccessProbe?: {
					changes: number;
					last: number;
					scrollWatched: boolean;
					pending: number;
					queued: number;
					overdue: number;
				};
			}
		).__piWebAccessProbe;
		const scroller = document.scrollingElement ?? document.documentElement;
		return {
			nodes: document.getElementsByTagName("*").length,
			changes: own?.changes ?? 0,
			lastChange: own?.last ?? 0,
			loaded: document.readyState === "complete",
			pending: own?.pending ?? 0,
			queued: own?.queued ?? 0,
			overdue: own?.overdue ?? 0,
			scrollable:
				own?.scrollWatched === true && scroller
					? scroller.scrollHeight > window.scrollY + window.innerHeight + 16
					: false,
		};
	});
}

/** Scrolls to the bottom, where infinite lists load their next part. */
export async function scrollDown(page: Page): Promise<void> {
	await page.evaluate(() => {
		const scroller = document.scrollingElement ?? document.documentElement;
		if (scroller) window.scrollTo(0, scroller.scrollHeight);
	});
}
