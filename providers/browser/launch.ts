// Starting the browser: the flags of a headless browser that reaches the network only through the guard's proxy,
// the driver (playwright-core, imported here on first launch only), launch failures as errors with a fix, and
// the exit hook that takes the browser's process group down with this process.

import type { Browser } from "playwright-core";
import { WebAccessError } from "../../engine/errors.ts";
import { installFix } from "./find.ts";

export const LAUNCH_DEFAULTS = {
	launchTimeoutMs: 15_000,
	/** A renderer's V8 heap cap (the whole browser's memory is bounded by the render's poll, settle.ts). */
	rendererHeapMb: 512,
};

/**
 * Chromium features turned off. A browser reads one --disable-features switch, its last (a second replaces the first
 * whole), so ours carries playwright-core's own list (its chromiumSwitches, in the version package.json pins) beside
 * our names; test/browser-process.test.ts fails if the launched browser would drop any name of playwright-core's.
 */
const DISABLED_FEATURES = [
	"AvoidUnnecessaryBeforeUnloadCheckSync",
	"DestroyProfileOnBrowserClose",
	"HttpsUpgrades",
	"HttpsFirstBalancedModeAutoEnable",
	"LensOverlay",
	"MediaRouter",
	"PaintHolding",
	"ThirdPartyStoragePartitioning",
	"AvoidCorsURLLoaderRestartOnRedirect",
	"TcpPortRandomizationWin",
	"OptimizationHints",
	"NetworkTimeServiceQuerying",
	"AimEnabled",
	"PreconnectToSearch",
	"msForceBrowserSignIn",
	"msEdgeUpdateLaunchServicesPreferredVersion",
	// Ours: a headless Chromium builds the address bar's popup as a WebUI page for every new window, so for each
	// render's context (a window of its own), in a renderer process of its own: half the browser's CPU per render of
	// the bench's SPA (bench/browser.ts), for a popup nobody opens.
	"WebUIOmniboxPopup",
	"WebUIOmniboxAimPopup",
];

/**
 * Flags for a headless browser that reaches the network only through the guard's proxy: nothing in the background
 * (updates, sync, DNS prefetch, QUIC), no UDP around the proxy (WebRTC), no sandbox only when running as root
 * (Chromium refuses to start otherwise). No web fonts: the extractor reads the DOM's text, never a glyph, and a font
 * keeps a page's network busy after its text is there (a stylesheet's @font-face and a script's FontFace alike fall
 * back to local fonts without a request).
 */
export function launchArgs(marker: string): string[] {
	const args = [
		`--pi-web-access-browser=${marker}`,
		"--disable-gpu",
		"--disable-quic",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-domain-reliability",
		"--dns-prefetch-disable",
		"--no-first-run",
		"--no-pings",
		"--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
		"--webrtc-ip-handling-policy=disable_non_proxied_udp",
		`--js-flags=--max-old-space-size=${LAUNCH_DEFAULTS.rendererHeapMb}`,
		`--disable-features=${DISABLED_FEATURES.join(",")}`,
		"--disable-remote-fonts",
	];
	if (typeof process.getuid === "function" && process.getuid() === 0) args.push("--no-sandbox");
	return args;
}

/** Launches the browser with its marker argument (memory.ts finds its process by it). */
export async function launchBrowser(executablePath: string, marker: string): Promise<Browser> {
	const { chromium } = await loadDriver();
	return chromium.launch({
		executablePath,
		headless: true,
		args: launchArgs(marker),
		// Every context names its own guard proxy; this one, a closed port, is what anything else would get.
		proxy: { server: "http://127.0.0.1:9" },
		timeout: LAUNCH_DEFAULTS.launchTimeoutMs,
		// pi owns its signals: the browser ends with its pipe and the exit hook, not with handlers of ours.
		handleSIGINT: false,
		handleSIGTERM: false,
		handleSIGHUP: false,
	});
}

export function loadDriver(): Promise<typeof import("playwright-core")> {
	return import("playwright-core").catch((error: unknown) => {
		throw Object.assign(new Error(`the driver playwright-core is not installed (${firstLine(error)})`), {
			code: "NO_DRIVER",
		});
	});
}

export function firstLine(error: unknown): string {
	const text = error instanceof Error ? error.message : String(error);
	return (
		text
			.split("\n")
			.find((line) => line.trim() !== "")
			?.trim()
			.slice(0, 200) ?? "unknown error"
	);
}

export function fixFor(error: unknown): string {
	if ((error as { code?: unknown }).code === "NO_DRIVER") {
		return "reinstall pi-web-access without --omit=optional (playwright-core is its optional dependency)";
	}
	return `check that the browser starts (${installFix()}), or set the browser provider's executablePath`;
}

export function launchError(reason: string, fix: string, cause?: unknown): WebAccessError {
	return new WebAccessError(`${reason}; ${fix}`, { kind: "server", code: "browser-launch", cause });
}

export function killGroup(pid: number | undefined): void {
	if (pid === undefined) return;
	try {
		process.kill(-pid, "SIGKILL");
	} catch {
		// already gone
	}
}

const live = new Set<{ processId(): number | undefined }>();
let hooked = false;

/** At this process's exit, every browser it started goes with its process group (the pipe closing ends it too). */
export function armExitHook(browser: { processId(): number | undefined }): void {
	live.add(browser);
	if (hooked) return;
	hooked = true;
	process.once("exit", () => {
		for (const each of live) killGroup(each.processId());
	});
}
