// The one browser of the process: launched through playwright-core (loaded on first use only) when a render first
// needs it, shared by every render through a small page pool, closed after an idle time, at shutdown, and with
// this process (its pipe closes; an exit hook kills its process group too). A launch that fails opens a circuit:
// calls fail at once with the reason and the fix until `retryMs` has passed, instead of launching on every call.

import { randomUUID } from "node:crypto";
import type { Browser } from "playwright-core";
import { WebAccessError } from "../../engine/errors.ts";
import { armExitHook, firstLine, fixFor, killGroup, launchBrowser, launchError } from "./launch.ts";
import { childWithMarker } from "./memory.ts";

export const DRIVER_DEFAULTS = {
	maxPages: 4,
	idleMs: 60_000,
	/** After a failed launch, calls fail at once for this long. */
	retryMs: 60_000,
};

export interface DriverState {
	state: "stopped" | "running" | "failed";
	executablePath?: string;
	pid?: number;
	/** Renders in progress and waiting for a page. */
	active: number;
	waiting: number;
	launches: number;
	/** Set while the circuit is open: why the last launch failed, and the fix. */
	failure?: { reason: string; fix: string; retryAt: number };
}

interface Waiter {
	resolve: () => void;
	reject: (error: unknown) => void;
	signal: AbortSignal;
	onAbort: () => void;
}

/** A page slot of the shared browser; `release` gives it back (once). */
export interface Lease {
	browser: Browser;
	pid: number | undefined;
	/**
	 * The browser's spare (a tab opened ahead for the next render, awaited when still opening), when `fits` accepts
	 * it; it is then the caller's. One that does not fit is disposed.
	 */
	takeSpare<T>(fits: (spare: T) => boolean): Promise<T | undefined>;
	/** Keeps `spare` for a later render (disposed at once when one is kept already or the browser has gone). */
	putSpare<T>(spare: Promise<T>, dispose: (spare: T) => Promise<void>): void;
	release(): void;
	/** The render saw the browser misbehave (memory, crash): it is closed and the next render launches a new one. */
	discard(): void;
}

export class SharedBrowser {
	private browser: Browser | undefined;
	private launching: Promise<Browser> | undefined;
	private pid: number | undefined;
	private active = 0;
	private readonly waiters: Waiter[] = [];
	private idleTimer: NodeJS.Timeout | undefined;
	private launches = 0;
	private failure: DriverState["failure"];
	private failedPath: string | undefined;
	/** A tab opened ahead for the next render (render.ts): opening one costs a renderer process. */
	private spare: { browser: Browser; value: Promise<unknown>; dispose: () => Promise<void> } | undefined;
	private executablePath: string | undefined;
	maxPages = DRIVER_DEFAULTS.maxPages;
	idleMs = DRIVER_DEFAULTS.idleMs;

	state(): DriverState {
		const failed = this.failure && Date.now() < this.failure.retryAt;
		return {
			state: failed ? "failed" : this.browser ? "running" : "stopped",
			...(this.executablePath ? { executablePath: this.executablePath } : {}),
			...(this.pid !== undefined ? { pid: this.pid } : {}),
			active: this.active,
			waiting: this.waiters.length,
			launches: this.launches,
			...(failed ? { failure: this.failure } : {}),
		};
	}

	/** A page slot, the browser launched when needed; waits (abortably) while `maxPages` renders run. */
	async acquire(executablePath: string, signal: AbortSignal): Promise<Lease> {
		if (this.failure && Date.now() < this.failure.retryAt && this.failedPath === executablePath) {
			throw launchError(this.failure.reason, this.failure.fix);
		}
		await this.slot(signal);
		clearTimeout(this.idleTimer);
		let released = false;
		try {
			const browser = await this.ensure(executablePath);
			const release = () => {
				if (released) return;
				released = true;
				this.active--;
				this.next();
			};
			return {
				browser,
				pid: this.pid,
				takeSpare: <T>(fits: (spare: T) => boolean) => this.takeSpare(browser, fits),
				putSpare: <T>(spare: Promise<T>, dispose: (spare: T) => Promise<void>) =>
					this.putSpare(browser, spare, dispose),
				release,
				discard: () => {
					if (this.browser === browser) this.drop();
					release();
				},
			};
		} catch (error) {
			this.active--;
			this.next();
			throw error;
		}
	}

	private async takeSpare<T>(browser: Browser, fits: (spare: T) => boolean): Promise<T | undefined> {
		const { spare } = this;
		if (!spare || spare.browser !== browser) return undefined;
		this.spare = undefined;
		const value = (await spare.value.catch(() => undefined)) as T | undefined;
		if (value === undefined) return undefined;
		if (fits(value)) return value;
		await spare.dispose();
		return undefined;
	}

	private putSpare<T>(browser: Browser, value: Promise<T>, dispose: (spare: T) => Promise<void>): void {
		const drop = () => value.then(dispose).catch(() => {});
		// A spare that fails to open (the browser went) is simply not used: unobserved, its rejection would be unhandled.
		value.catch(() => {});
		if (this.spare || this.browser !== browser || !browser.isConnected()) {
			drop();
			return;
		}
		this.spare = { browser, value, dispose: drop };
	}

	private disposeSpare(): void {
		const { spare } = this;
		this.spare = undefined;
		spare?.dispose().catch(() => {});
	}

	private slot(signal: AbortSignal): Promise<void> {
		if (signal.aborted) return Promise.reject(signal.reason);
		if (this.active < this.maxPages) {
			this.active++;
			return Promise.resolve();
		}
		return new Promise<void>((resolve, reject) => {
			const waiter: Waiter = {
				resolve,
				reject,
				signal,
				onAbort: () => {
					const at = this.waiters.indexOf(waiter);
					if (at >= 0) this.waiters.splice(at, 1);
					reject(signal.reason);
				},
			};
			signal.addEventListener("abort", waiter.onAbort, { once: true });
			this.waiters.push(waiter);
		});
	}

	/** A slot came free: the next waiter takes it, or the idle timer starts. */
	private next(): void {
		const waiter = this.waiters.shift();
		if (waiter) {
			waiter.signal.removeEventListener("abort", waiter.onAbort);
			this.active++;
			waiter.resolve();
			return;
		}
		if (this.active === 0 && this.browser) {
			this.idleTimer = setTimeout(() => this.drop(), this.idleMs);
			this.idleTimer.unref();
		}
	}

	private ensure(executablePath: string): Promise<Browser> {
		if (this.browser?.isConnected() && this.executablePath === executablePath) return Promise.resolve(this.browser);
		if (this.browser) this.drop();
		this.launching ??= this.launch(executablePath).finally(() => {
			this.launching = undefined;
		});
		return this.launching;
	}

	private async launch(executablePath: string): Promise<Browser> {
		this.launches++;
		const marker = randomUUID();
		let browser: Browser;
		try {
			browser = await launchBrowser(executablePath, marker);
		} catch (error) {
			const reason = `could not start the browser ${executablePath}: ${firstLine(error)}`;
			const fix = fixFor(error);
			this.failure = { reason, fix, retryAt: Date.now() + DRIVER_DEFAULTS.retryMs };
			this.failedPath = executablePath;
			throw launchError(reason, fix, error);
		}
		this.failure = undefined;
		this.browser = browser;
		this.executablePath = executablePath;
		this.pid = childWithMarker(marker);
		browser.on("disconnected", () => {
			if (this.browser === browser) {
				this.browser = undefined;
				this.pid = undefined;
			}
		});
		armExitHook(this);
		return browser;
	}

	/** The pid to kill at exit (its process group). */
	processId(): number | undefined {
		return this.pid;
	}

	/** Closes the browser now (renders still running fail); the next render launches a new one. */
	private drop(): void {
		clearTimeout(this.idleTimer);
		this.disposeSpare();
		const { browser, pid } = this;
		this.browser = undefined;
		this.pid = undefined;
		if (!browser) return;
		browser.close().catch(() => killGroup(pid));
	}

	async close(): Promise<void> {
		clearTimeout(this.idleTimer);
		this.disposeSpare();
		for (const waiter of this.waiters.splice(0)) {
			waiter.signal.removeEventListener("abort", waiter.onAbort);
			waiter.reject(new WebAccessError("the browser was closed", { kind: "cancelled", code: "cancelled" }));
		}
		const { browser, pid } = this;
		this.browser = undefined;
		this.pid = undefined;
		this.failure = undefined;
		if (browser) await browser.close().catch(() => killGroup(pid));
	}
}
