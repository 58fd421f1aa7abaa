// Which reader, if any, reads a URL under the given settings: pure, so explain shows the same route the fetcher
// takes ("github-issue reader via api.github.com, fallback: page").

import type { ReaderTarget, SourceReader, SourceSetting, SourceSettings } from "./contract.ts";
import { READERS } from "./readers.ts";

export interface SourceRoute {
	reader: SourceReader;
	target: ReaderTarget;
	setting: SourceSetting;
}

/** `text` as an http(s) URL, or undefined. */
export function httpUrl(text: string): URL | undefined {
	let parsed: URL;
	try {
		parsed = new URL(text);
	} catch {
		return undefined;
	}
	return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed : undefined;
}

/** The fetcher types that read sources before the page (explain notes the route on their steps). */
export const SOURCE_READING_TYPES: ReadonlySet<string> = new Set(["direct"]);

export function routeSource(
	url: string,
	settings: SourceSettings,
	readers: readonly SourceReader[] = READERS,
): SourceRoute | undefined {
	const parsed = httpUrl(url);
	if (!parsed) return undefined;
	const host = parsed.host.toLowerCase();
	for (const reader of readers) {
		const setting = settings.byName[reader.source];
		if (!setting?.enabled || !setting.hosts.includes(host)) continue;
		const target = reader.match(parsed);
		if (target) return { reader, target, setting };
	}
	return undefined;
}

/** What explain shows: `{ reader: "github-issue", via: "api.github.com", fallback: "page" }`. */
export interface RouteNote {
	reader: string;
	via: string;
	fallback: "page";
	/** For a source that takes a token, set by the composition root: the credential it sends, in words. */
	credential?: string;
}

/** An origin as explain and status show it: host and path (`api.github.com`, `ghe.corp/api/v3`). */
export function originText(origin: string): string {
	try {
		const url = new URL(origin);
		return `${url.host}${url.pathname === "/" ? "" : url.pathname}`;
	} catch {
		// The schema admits only http(s) URLs; a bad one is shown as written.
		return origin;
	}
}

/** Where a source's requests go: its origin, and its second origin when it has one. */
export function viaText(setting: SourceRoute["setting"]): string {
	return `${originText(setting.origin)}${setting.second ? ` and ${originText(setting.second)}` : ""}`;
}

export function routeNote(route: SourceRoute): RouteNote {
	return { reader: route.reader.name, via: viaText(route.setting), fallback: "page" };
}
