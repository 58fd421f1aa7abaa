// browser: the keyless local renderer for pages that need JavaScript. It drives a Chrome or Chromium already on the
// machine (providers/browser/provider.ts); every request the page makes goes through the fetch guard.

import type { ProviderFacts } from "../type-facts.ts";
import { findBrowser } from "./find.ts";

export default {
	type: "browser",
	summary:
		"Keyless, local: renders pages that need JavaScript in a Chrome or Chromium on this machine; every request the page makes passes the private-network guard.",
	search: false,
	fetch: true,
	extraction: "verbatim",
	rawHtml: true,
	credentials: "none",
	cost: { basis: "free" },
	// After direct without a config file, and only when a browser is found; taken when direct finds a JS shell.
	zeroConfig: { order: 110, capabilities: ["fetch"] },
	unavailable: (world, options) => findBrowser(options?.executablePath, world.env ?? process.env).missing,
	escalation: { codes: ["needs-javascript"], when: "an earlier step finds a page that needs JavaScript" },
	options: {
		executablePath: {
			type: "string",
			description: "The Chrome or Chromium to run. Default: $PI_WEB_ACCESS_BROWSER, else the usual install paths.",
		},
		maxPages: {
			type: "integer",
			minimum: 1,
			maximum: 32,
			default: 4,
			description: "Pages rendered at once (the pool); more calls wait for a free page. Default: 4.",
		},
		idleMs: {
			type: "integer",
			minimum: 1000,
			default: 60000,
			description: "The browser is closed after this long without a render. Default: 60000.",
		},
		settleMs: {
			type: "integer",
			minimum: 0,
			maximum: 60000,
			default: 5000,
			description:
				"Longest wait after the page loads for it to settle (network idle or DOM stable, whichever first). Default: 5000.",
		},
		maxBytes: {
			type: "integer",
			minimum: 1024,
			default: 26214400,
			description: "Bytes a render may receive over the network, all its requests together. Default: 26214400 (25 MB).",
		},
		maxDomNodes: {
			type: "integer",
			minimum: 1000,
			default: 60000,
			description: "Elements a rendered page may have; scrolling for more stops there. Default: 60000.",
		},
		maxMemoryMb: {
			type: "integer",
			minimum: 128,
			default: 1024,
			description:
				"Memory of the browser's processes together; past it, the render is cut and the browser restarted. Default: 1024.",
		},
		userAgent: { type: "string", description: "User-Agent of the page's requests. Default: the browser's own." },
		profile: {
			type: "string",
			description:
				"A file that keeps the browser's cookies and site storage between calls (Playwright's storage-state JSON, written owner-only; ~/ is your home). Default: none: every call starts with no cookies or storage.",
		},
	},
	defaults: { timeoutMs: 30_000 },
} satisfies ProviderFacts;
