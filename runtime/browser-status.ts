// What status shows of a `browser` provider: the browser it would run (or why there is none, with the fix), whether
// its driver is installed, and, in this process, the live browser: running or stopped, its pages, a failed launch.

import { createRequire } from "node:module";
import type { ProviderConfig } from "../engine/config-types.ts";
import type { DriverState } from "../providers/browser/driver.ts";
import { findBrowser } from "../providers/browser/find.ts";
import { sharedBrowserState } from "../providers/browser/shared.ts";

export interface BrowserStatus {
	/** The executable and where it was found; `missing` says why there is none and how to get one. */
	executable?: string;
	source: string;
	missing?: string;
	/** "playwright-core <version>", or why it cannot be loaded. */
	driver: { installed: true; version: string } | { installed: false; fix: string };
	/** The browser of this process, once a render asked for one. */
	live?: Omit<DriverState, "executablePath">;
}

function driverStatus(): BrowserStatus["driver"] {
	try {
		const require = createRequire(import.meta.url);
		const { version } = require("playwright-core/package.json") as { version: string };
		return { installed: true, version };
	} catch {
		return {
			installed: false,
			fix: "playwright-core is missing: reinstall pi-web-access without --omit=optional",
		};
	}
}

export function browserStatus(provider: ProviderConfig, env: Record<string, string | undefined>): BrowserStatus {
	const found = findBrowser(provider.options.executablePath, env);
	const live = sharedBrowserState();
	const { executablePath: _path, ...rest } = live ?? {};
	return {
		...(found.path ? { executable: found.path } : {}),
		source: found.source,
		...(found.missing ? { missing: found.missing } : {}),
		driver: driverStatus(),
		...(live ? { live: rest as Omit<DriverState, "executablePath"> } : {}),
	};
}

export function browserText(status: BrowserStatus, nowMs = Date.now()): string {
	const parts: string[] = [];
	parts.push(status.executable ? `browser ${status.executable} (${status.source})` : (status.missing ?? "no browser"));
	if (!status.driver.installed) parts.push(status.driver.fix);
	const live = status.live;
	if (live?.failure) {
		const seconds = Math.max(0, Math.ceil((live.failure.retryAt - nowMs) / 1000));
		parts.push(`launch failed: ${live.failure.reason}; ${live.failure.fix} (tried again in ${seconds} s)`);
	} else if (live?.state === "running") {
		parts.push(`running (pid ${live.pid ?? "?"}): ${live.active} rendering, ${live.waiting} waiting`);
	} else if (live) parts.push(`stopped (started ${live.launches} times in this process)`);
	return parts.join(" · ");
}
