// One render in the shared browser: a fresh context (no cookies or storage from earlier calls) whose every request
// goes through a guard proxy of its own (guard-proxy.ts), navigation, then waiting for the page to settle —
// network idle or DOM stable, whichever first, capped — with bounded scrolling for content loaded as it scrolls.
// Bytes, elements, memory and time are bounded; a page past a bound is cut there and the result says so.

import type { Page, Response } from "playwright-core";
import { WebAccessError } from "../../engine/errors.ts";
import type { ProxySettings } from "../contract.ts";
import type { RawPage } from "../direct/fetch-page.ts";
import { bareHost, compileGuard, type FetchGuardSettings, type HostLookup, resolveGuarded } from "../direct/guard.ts";
import type { Lease } from "./driver.ts";
import { proxyAnswer, renderFailure } from "./failures.ts";
import { documentFailure, type PageProbe, probe, scrollDown } from "./probe.ts";
import { loadProfile, saveProfile } from "./profile.ts";
import { type Settled, Watch } from "./settle.ts";
import { closeTab, openTab, sameSettings, type Tab, type TabSettings } from "./tab.ts";

export const RENDER_DEFAULTS = {
	settleMs: 5_000,
	/** No byte and no request for this long, nothing in flight: the network is idle. */
	networkQuietMs: 200,
	/** The same when the page has no short timer or idle callback queued and its DOM has been still as long (settle.ts). */
	idleQuietMs: 80,
	/** No DOM change for this long: the page is stable (what ends a page that keeps a connection busy). */
	domQuietMs: 800,
	maxBytes: 25 * 1024 * 1024,
	maxDomNodes: 60_000,
	maxMemoryMb: 1024,
	/** The serialised DOM handed to the extractor is cut here. */
	maxHtmlChars: 8 * 1024 * 1024,
	/** Scrolls to the bottom for content that loads as the page scrolls. */
	maxScrolls: 3,
	pollMs: 50,
	memoryPollMs: 250,
	/** Kept back from the step's time for serialising the DOM and closing the context. */
	reserveMs: 1_500,
	viewport: { width: 1280, height: 900 },
};

export interface RenderOptions {
	url: string;
	provider: string;
	lease: Lease;
	signal: AbortSignal;
	/** The whole render's time (the step's timeout). */
	timeoutMs: number;
	guard?: FetchGuardSettings;
	proxy?: ProxySettings;
	lookup?: HostLookup;
	settleMs?: number;
	maxBytes?: number;
	maxDomNodes?: number;
	maxMemoryMb?: number;
	userAgent?: string;
	/** A storage-state file (profile.ts) read before the render and written after it; none: nothing is kept. */
	profile?: string;
}

export interface RenderStats {
	requests: number;
	refused: number;
	bytesIn: number;
	domNodes: number;
	settled: Settled;
	scrolls: number;
}

export interface Rendered {
	page: RawPage;
	warnings: string[];
	stats: RenderStats;
	/** The document's own body was still arriving when the page was read (a stalled server): read what had come. */
	unfinished?: true;
}

export async function render(options: RenderOptions): Promise<Rendered> {
	const target = navigable(options.url);
	const settings = { ...RENDER_DEFAULTS, ...defined(options) };
	// The document's host is checked here first, so a refused URL fails as direct's does, naming the fix.
	await resolveGuarded(bareHost(target), compileGuard(options.guard), options.lookup);
	const tabSettings: TabSettings = {
		maxBytes: settings.maxBytes,
		viewport: settings.viewport,
		...(options.guard ? { guard: options.guard } : {}),
		...(options.proxy ? { proxy: options.proxy } : {}),
		...(options.lookup ? { lookup: options.lookup } : {}),
		...(options.userAgent ? { userAgent: options.userAgent } : {}),
	};
	const startedAt = Date.now();
	const deadline = startedAt + Math.max(1_000, options.timeoutMs - settings.reserveMs);
	const { lease } = options;
	let tab: Tab | undefined;
	let discard = false;
	const warnings: string[] = [];
	let saveTo: string | undefined;
	try {
		if (options.profile) {
			// A profile's storage is read now, so no tab is opened ahead: it would hold the storage of before this call.
			const profile = await loadProfile(options.profile);
			// A profile on disk that could not be used is left as it is for the user to look at, not written over.
			if (profile.warning) warnings.push(`${profile.warning} (and not written)`);
			else saveTo = options.profile;
			tab = await openTab(lease.browser, tabSettings, profile.state);
		} else {
			tab = await lease.takeSpare<Tab>((spare) => sameSettings(spare.settings, tabSettings));
			tab ??= await openTab(lease.browser, tabSettings);
			// The next render's tab opens now, beside this render, so that one starts without waiting for a renderer.
			lease.putSpare(openTab(lease.browser, tabSettings), closeTab);
		}
		const { page, proxy } = tab;
		const response = await navigate(page, target, deadline, options);
		if (response) proxyAnswer(response.headers(), options.provider);
		let arrived = false;
		response?.finished().then(
			() => {
				arrived = true;
			},
			() => {},
		);
		const type = response?.headers()["content-type"] ?? "";
		if (response && !/html|xml/i.test(type)) {
			// A PDF, JSON or text document: its bytes go to the extractor as direct's would.
			const body = await response.body();
			return {
				page: rawPage(options.url, page.url(), response.status(), { "content-type": type }, body),
				warnings,
				stats: { ...counts(proxy.stats()), domNodes: 0, settled: "network idle", scrolls: 0 },
			};
		}
		const watch = new Watch({ page, proxy, lease, settings, deadline, signal: options.signal });
		let settled = await watch.settle();
		let scrolls = 0;
		while (settled !== "cut" && settled !== "time cap" && scrolls < settings.maxScrolls) {
			// The look that found the page settled is this one: no second round trip to the browser.
			const state = watch.last ?? (await probe(page));
			if (state.nodes >= settings.maxDomNodes || !state.scrollable) break;
			// Read before the scroll: the page's scroll handler may already have run when scrollDown returns.
			const before = { changes: state.changes, requests: proxy.stats().requests };
			await scrollDown(page);
			scrolls++;
			if (!(await watch.changedSoon(before))) break;
			settled = await watch.settle();
		}
		if (scrolls >= settings.maxScrolls) {
			warnings.push(`the page kept loading more as it scrolled: stopped after ${scrolls} scrolls`);
		}
		if (watch.cutReason) {
			warnings.push(watch.cutReason);
			discard = watch.memoryCut;
		} else if (settled === "time cap") {
			warnings.push(
				`the page had not settled after ${Math.round((Date.now() - startedAt) / 100) / 10} s: read as it was then`,
			);
		}
		// A document whose connection broke before its end (and not at our byte cap) is a cut body, as direct says.
		const broken =
			response && !watch.cutReason ? (documentFailure(response.request()) ?? (await shortBody(response))) : undefined;
		if (broken) {
			throw new WebAccessError(`response body cut off (${broken}) at ${target.origin}${target.pathname}`, {
				kind: "parse",
				code: "body-truncated",
				provider: options.provider,
			});
		}
		const serialised = await serialise(page, settings.maxHtmlChars);
		if (serialised.state.nodes > settings.maxDomNodes) {
			warnings.push(
				`the page has ${serialised.state.nodes} elements, more than ${settings.maxDomNodes}: read as it was then`,
			);
		}
		if (serialised.cut)
			warnings.push(`the rendered page is longer than ${settings.maxHtmlChars} characters: cut there`);
		const unfinished = response !== null && !arrived;
		if (unfinished) warnings.push("the page's document was still arriving when the page was read: read what had come");
		const status = response?.status() ?? 200;
		const headers = { "content-type": "text/html; charset=utf-8" };
		const unsaved = saveTo ? await saveProfile(saveTo, tab.context) : undefined;
		if (unsaved) warnings.push(unsaved);
		return {
			page: rawPage(options.url, page.url(), status, headers, Buffer.from(serialised.html, "utf8")),
			warnings,
			stats: { ...counts(proxy.stats()), domNodes: serialised.state.nodes, settled, scrolls },
			...(unfinished ? { unfinished } : {}),
		};
	} catch (error) {
		if (!lease.browser.isConnected()) discard = true;
		// Our byte cap cut the connections before the document could be read: that is the reason, not the net:: error.
		if (tab?.proxy.stats().cut && !(error instanceof WebAccessError)) {
			const message = `the page's requests passed ${settings.maxBytes} bytes (maxBytes) before its document could be read at ${target.origin}${target.pathname}`;
			throw new WebAccessError(message, { kind: "bad-request", code: "too-large", provider: options.provider });
		}
		throw renderFailure(error, options, target);
	} finally {
		// The answer does not wait for the tab to close: its page slot is given back once it has.
		const closing = tab ? closeTab(tab) : Promise.resolve();
		if (discard) closing.finally(() => lease.discard());
		else closing.finally(() => lease.release());
	}
}

/**
 * "body shorter than its Content-Length" when the document's connection ended early: a browser shows what came,
 * where direct reports the cut. With a content coding the length is of the coded body, which is not compared.
 */
async function shortBody(response: Response): Promise<string | undefined> {
	const headers = response.headers();
	const declared = Number(headers["content-length"]);
	if (!Number.isFinite(declared) || headers["content-encoding"]) return undefined;
	const body = await response.body().catch(() => undefined);
	return body !== undefined && body.length < declared ? "body shorter than its Content-Length" : undefined;
}

function defined(options: RenderOptions): Partial<typeof RENDER_DEFAULTS> {
	const out: Partial<typeof RENDER_DEFAULTS> = {};
	if (options.settleMs !== undefined) out.settleMs = options.settleMs;
	if (options.maxBytes !== undefined) out.maxBytes = options.maxBytes;
	if (options.maxDomNodes !== undefined) out.maxDomNodes = options.maxDomNodes;
	if (options.maxMemoryMb !== undefined) out.maxMemoryMb = options.maxMemoryMb;
	return out;
}

function navigable(url: string): URL {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw new WebAccessError(`invalid URL: ${url.slice(0, 200)}`, { kind: "bad-request", code: "invalid-url" });
	}
	if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
		throw new WebAccessError(`unsupported URL scheme ${parsed.protocol} (http and https only)`, {
			kind: "bad-request",
			code: "unsupported-scheme",
		});
	}
	return parsed;
}

async function navigate(page: Page, target: URL, deadline: number, options: RenderOptions): Promise<Response | null> {
	const timeout = Math.max(500, deadline - Date.now());
	const aborted = new Promise<never>((_, reject) => {
		if (options.signal.aborted) reject(options.signal.reason);
		options.signal.addEventListener("abort", () => reject(options.signal.reason), { once: true });
	});
	aborted.catch(() => {});
	try {
		return await Promise.race([page.goto(target.href, { waitUntil: "commit", timeout }), aborted]);
	} catch (error) {
		// A page whose document arrived but whose load never ended is read as it is; one with nothing fails.
		if (!options.signal.aborted && /Timeout/i.test(String(error)) && page.url().startsWith("http")) return null;
		throw error;
	}
}

async function serialise(page: Page, maxChars: number): Promise<{ html: string; cut: boolean; state: PageProbe }> {
	const [state, html] = await Promise.all([
		probe(page),
		page.evaluate((cap) => {
			const text = document.documentElement ? document.documentElement.outerHTML : "";
			return text.length > cap ? text.slice(0, cap) : text;
		}, maxChars),
	]);
	return { html: `<!doctype html>${html}`, cut: html.length >= maxChars, state };
}

function rawPage(
	url: string,
	finalUrl: string,
	status: number,
	headers: Record<string, string>,
	body: Buffer,
): RawPage {
	return {
		url,
		finalUrl: finalUrl.startsWith("http") ? finalUrl : url,
		status,
		headers,
		body,
		truncated: false,
		maxBytes: body.length,
	};
}

function counts(stats: { requests: number; refused: unknown[]; bytesIn: number }) {
	return { requests: stats.requests, refused: stats.refused.length, bytesIn: stats.bytesIn };
}
