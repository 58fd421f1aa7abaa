// The fetcher's entry to the readers: routes a URL, reads it through its source's API, and on any failure but a
// cancellation says why so the fetcher reads the page instead. A rate-limited source rests until its API says it may
// be asked again (pages of that source are read as pages meanwhile, with no API request).

import type { CallContext, Classification, ProviderFetchResult } from "../contract.ts";
import type { FetchPageOptions, RawPage } from "../direct/fetch-page.ts";
import { classifyError } from "../http/classify.ts";
import { API_DEFAULTS, createSourceApi, type SourceApiOptions } from "./api.ts";
import type { SourceReader } from "./contract.ts";
import { routeSource } from "./route.ts";
import { DEFAULT_SOURCES } from "./settings.ts";

/** A reader's answer, or why there is none (the page is read then). */
export interface SourceRead {
	reader: string;
	result?: ProviderFetchResult;
	/** Set when the reader failed or was skipped: the note the page's result carries. */
	warning?: string;
	/** The reader's typed failure (a rate limit with its retryAfterMs). */
	failure?: Classification;
}

/** Sources resting after a rate limit, by name and origin: until when (epoch ms). At most one entry per source. */
const resting = new Map<string, number>();

export interface ReadSourceOptions {
	fetch: Omit<FetchPageOptions, "headers">;
	readers?: readonly SourceReader[];
	now?: () => number;
	/** How the fetcher reads a page a reader fetches (a rendered README, a paper's HTML). */
	convert?: (page: RawPage) => Promise<ProviderFetchResult>;
	/** How the fetcher reads HTML fragments an API returned: all of them in one conversion job. */
	fragments?: SourceApiOptions["fragments"];
}

/** Undefined when no reader serves `url`; otherwise the reader's result or the warning to carry to the page. */
export async function readSource(
	url: string,
	call: Pick<CallContext, "sources">,
	options: ReadSourceOptions,
): Promise<SourceRead | undefined> {
	const settings = call.sources ?? DEFAULT_SOURCES;
	const route = routeSource(url, settings, options.readers);
	if (!route) return undefined;
	const now = options.now ?? Date.now;
	const reader = route.reader.name;
	const key = `${route.setting.name} ${route.setting.origin}`;
	const until = resting.get(key) ?? 0;
	if (until > now()) {
		const seconds = Math.ceil((until - now()) / 1000);
		return {
			reader,
			warning: `${reader} reader skipped: its API is rate limited for ${seconds} s more; read the page`,
		};
	}
	resting.delete(key);
	// The reader's requests end with the call, and with the read: one failing ends its siblings still in flight.
	const own = new AbortController();
	const signal = AbortSignal.any([options.fetch.signal, own.signal]);
	const fetch = { ...options.fetch, signal };
	const { convert, fragments } = options;
	const api = createSourceApi({ reader, setting: route.setting, settings, fetch, now, convert, fragments });
	try {
		const out = await route.reader.read(route.target, api);
		const result: ProviderFetchResult = {
			content: out.markdown,
			format: "markdown",
			finalUrl: out.finalUrl,
			extraction: "verbatim",
		};
		if (out.title) result.title = out.title;
		if (out.author) result.author = out.author;
		if (out.publishedAt) result.publishedAt = out.publishedAt;
		if (out.warnings && out.warnings.length > 0) result.warnings = out.warnings;
		return { reader, result };
	} catch (error) {
		own.abort();
		if (options.fetch.signal.aborted) throw error;
		const failure = classifyError(error);
		let wait = "";
		if (failure.errorClass === "rate-limit") {
			const ms = failure.retryAfterMs ?? API_DEFAULTS.rateLimitWaitMs;
			resting.set(key, now() + ms);
			wait = `, retry after ${Math.ceil(ms / 1000)} s`;
		}
		return { reader, failure, warning: `${reader} reader failed (${failure.reason}${wait}); read the page instead` };
	}
}
