// The process's one browser (driver.ts), made on first use; shutdown closes it when one was made. Importing this
// loads nothing heavy: playwright-core is imported only when a render launches the browser.

import { SharedBrowser } from "./driver.ts";

let shared: SharedBrowser | undefined;

export function sharedBrowser(): SharedBrowser {
	shared ??= new SharedBrowser();
	return shared;
}

/** The state for status, or undefined when no render has asked for a browser in this process. */
export function sharedBrowserState(): ReturnType<SharedBrowser["state"]> | undefined {
	return shared?.state();
}

export async function closeSharedBrowser(): Promise<void> {
	await shared?.close();
}
