// A tab for one render: a fresh browser context (no cookies or storage of earlier calls) whose every request goes
// through a guard proxy of its own, with one page. Opening one costs a renderer process (~250 ms measured here),
// so the browser keeps one spare tab, opened after each render for the next with the same settings.

import type { Browser, BrowserContext, Page } from "playwright-core";
import type { ProxySettings } from "../contract.ts";
import type { FetchGuardSettings, HostLookup } from "../direct/guard.ts";
import { type GuardProxy, startGuardProxy } from "./guard-proxy.ts";
import { PROBE_SCRIPT, trackRequests } from "./probe.ts";
import type { StorageState } from "./profile.ts";

export interface TabSettings {
	guard?: FetchGuardSettings;
	proxy?: ProxySettings;
	lookup?: HostLookup;
	maxBytes: number;
	userAgent?: string;
	viewport: { width: number; height: number };
}

export interface Tab {
	settings: TabSettings;
	proxy: GuardProxy;
	context: BrowserContext;
	page: Page;
}

/** `storage`: a profile's cookies and site storage (profile.ts); without it the context starts with none. */
export async function openTab(browser: Browser, settings: TabSettings, storage?: StorageState): Promise<Tab> {
	const proxy = await startGuardProxy({
		maxBytes: settings.maxBytes,
		...(settings.guard ? { guard: settings.guard } : {}),
		...(settings.proxy ? { proxy: settings.proxy } : {}),
		...(settings.lookup ? { lookup: settings.lookup } : {}),
	});
	try {
		const context = await browser.newContext({
			proxy: { server: proxy.url },
			// A service worker would outlive the call and answer later ones; none is registered.
			serviceWorkers: "block",
			acceptDownloads: false,
			viewport: settings.viewport,
			...(settings.userAgent ? { userAgent: settings.userAgent } : {}),
			...(storage ? { storageState: storage } : {}),
		});
		await context.addInitScript(PROBE_SCRIPT);
		const page = await context.newPage();
		trackRequests(page);
		// Dialogs are dismissed, popups and new windows closed, permission prompts denied (none is granted).
		page.on("dialog", (dialog) => dialog.dismiss().catch(() => {}));
		context.on("page", (other) => {
			if (other !== page) other.close().catch(() => {});
		});
		return { settings, proxy, context, page };
	} catch (error) {
		await proxy.close();
		throw error;
	}
}

export async function closeTab(tab: Tab): Promise<void> {
	await tab.context.close().catch(() => {});
	await tab.proxy.close();
}

/** Whether a spare tab was opened with these settings (its proxy guards and bounds as this render's must). */
export function sameSettings(a: TabSettings, b: TabSettings): boolean {
	return (
		a.lookup === b.lookup &&
		a.maxBytes === b.maxBytes &&
		a.userAgent === b.userAgent &&
		JSON.stringify([a.guard, a.proxy, a.viewport]) === JSON.stringify([b.guard, b.proxy, b.viewport])
	);
}
