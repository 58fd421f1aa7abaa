// Where the browser fetcher finds a Chrome or Chromium the user already has: the provider's `executablePath`, then
// PI_WEB_ACCESS_BROWSER ("none" turns the browser off), then the usual install paths of each platform. Existence checks only (no process is
// started), cached a few seconds: plan() asks on every fetch, and a browser installed while pi runs is seen soon.

import { accessSync, constants } from "node:fs";

export const BROWSER_ENV = "PI_WEB_ACCESS_BROWSER";

export const FIND_DEFAULTS = {
	/** How long a path's existence is remembered. */
	cacheMs: 10_000,
};

/** Install paths by platform, most common first. */
const CANDIDATES: Readonly<Record<string, readonly string[]>> = {
	linux: [
		"/usr/bin/chromium",
		"/usr/bin/chromium-browser",
		"/usr/bin/google-chrome",
		"/usr/bin/google-chrome-stable",
		"/snap/bin/chromium",
		"/opt/google/chrome/chrome",
		"/usr/bin/microsoft-edge",
		"/usr/bin/brave-browser",
	],
	darwin: [
		"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
		"/Applications/Chromium.app/Contents/MacOS/Chromium",
		"/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
		"/Applications/Brave Browser.app/Contents/MacOS/Brave Browser",
	],
	win32: [
		"C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe",
		"C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe",
		"C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe",
	],
};

/** How to get a browser, by platform: the fix every "no browser" message gives. */
export const INSTALL_FIX: Readonly<Record<string, string>> = {
	linux: "apt install chromium (or dnf install chromium)",
	darwin: "brew install --cask chromium, or install Google Chrome",
	win32: "install Google Chrome or Microsoft Edge",
};

export interface FoundBrowser {
	/** The executable, when one exists. */
	path?: string;
	/** Where it came from: "executablePath", "$PI_WEB_ACCESS_BROWSER" or "install path". */
	source: string;
	/** Why there is none, with the fix. */
	missing?: string;
}

const seen = new Map<string, { exists: boolean; at: number }>();

function executable(path: string): boolean {
	const now = Date.now();
	const cached = seen.get(path);
	if (cached && now - cached.at < FIND_DEFAULTS.cacheMs) return cached.exists;
	let exists = true;
	try {
		accessSync(path, process.platform === "win32" ? constants.F_OK : constants.X_OK);
	} catch {
		exists = false;
	}
	seen.set(path, { exists, at: now });
	return exists;
}

export function installFix(platform = process.platform): string {
	return INSTALL_FIX[platform] ?? "install Chromium or Google Chrome";
}

/** The browser to use; a configured path that does not exist is an answer too (never silently another one). */
export function findBrowser(
	executablePath: unknown,
	env: Record<string, string | undefined> = process.env,
	platform = process.platform,
): FoundBrowser {
	const fix = `${installFix(platform)}, or set the browser provider's executablePath or $${BROWSER_ENV}`;
	if (typeof executablePath === "string" && executablePath !== "") {
		return executable(executablePath)
			? { path: executablePath, source: "executablePath" }
			: { source: "executablePath", missing: `executablePath ${executablePath} is not an executable file` };
	}
	const fromEnv = env[BROWSER_ENV];
	if (fromEnv === "none") return { source: `$${BROWSER_ENV}`, missing: `turned off by $${BROWSER_ENV}=none` };
	if (fromEnv) {
		return executable(fromEnv)
			? { path: fromEnv, source: `$${BROWSER_ENV}` }
			: { source: `$${BROWSER_ENV}`, missing: `$${BROWSER_ENV} (${fromEnv}) is not an executable file` };
	}
	const path = (CANDIDATES[platform] ?? []).find(executable);
	return path
		? { path, source: "install path" }
		: { source: "install path", missing: `no Chrome or Chromium found: ${fix}` };
}
