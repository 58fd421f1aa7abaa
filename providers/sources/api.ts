// A source's API as its readers use it: GETs on the configured origin through the direct fetcher's fetchPage (the
// private-network guard checks the API host actually fetched, redirects included; the proxies apply). The token goes
// to the configured origin only, and a redirect elsewhere drops it (fetchPage carries no credential across origins).
// Answers other than 2xx become typed failures: a rate limit carries retryAfterMs.

import { WebAccessError } from "../../engine/errors.ts";
import type { ProviderFetchResult } from "../contract.ts";
import { type FetchPageOptions, fetchPage, type RawPage } from "../direct/fetch-page.ts";
import { retryAfterMs } from "../http/response.ts";
import type { ApiAnswer, SourceApi, SourceSetting, SourceSettings } from "./contract.ts";

/** When a rate-limited answer says not when to come back: GitHub's advice is to wait a minute. */
export const API_DEFAULTS = { rateLimitWaitMs: 60_000, accept: "application/json" };

export interface SourceApiOptions {
	reader: string;
	setting: SourceSetting;
	settings: SourceSettings;
	/** The fetcher's options for every request (headers are the API's own, set here). */
	fetch: Omit<FetchPageOptions, "headers">;
	/** Epoch ms; injectable for tests of the rate-limit reset. */
	now?: () => number;
	/** How the fetcher reads a fetched page (its converter); without it `page` fails. */
	convert?: (page: RawPage) => Promise<ProviderFetchResult>;
	/** HTML fragments as markdown, in order, in one conversion job; without it `markdown` fails. */
	fragments?: (htmls: readonly string[], baseUrl: string) => Promise<string[]>;
}

export function createSourceApi(options: SourceApiOptions): SourceApi {
	const { setting, settings } = options;
	const origin = new URL(setting.origin);
	let token: Promise<string | undefined> | undefined;
	const tokenOf = (): Promise<string | undefined> => {
		if (setting.token !== undefined && settings.resolveToken !== undefined) {
			token ??= settings.resolveToken(setting.token, options.fetch.signal).catch(() => undefined);
			return token;
		}
		if (setting.token === undefined && setting.login !== undefined) {
			return Promise.resolve(settings.loginToken?.(setting.login));
		}
		return Promise.resolve(undefined);
	};
	const get = async (path: string, accept: string, as: "json" | "text" | "page"): Promise<ApiAnswer> => {
		if (!path.startsWith("/")) throw new TypeError(`an API path must start with "/": ${path.slice(0, 80)}`);
		const url = new URL(`${setting.origin}${path}`);
		const headers: Record<string, string> = { accept };
		// Built from the origin and a path, the URL stays on the origin; checked all the same.
		const secret = url.origin === origin.origin ? await tokenOf() : undefined;
		if (secret) headers.authorization = `Bearer ${secret}`;
		const page = await fetchPage(url.href, { ...options.fetch, headers });
		if (page.status < 200 || page.status >= 300) throw statusFailure(page, options);
		if (as === "page") {
			if (!options.convert) throw new TypeError("this reader's fetcher reads no pages");
			const read = await options.convert(page);
			return { body: read.content, headers: page.headers, url: page.finalUrl };
		}
		const text = page.body.toString("utf8");
		if (as === "text") return { body: text, headers: page.headers, url: page.finalUrl };
		try {
			return { body: JSON.parse(text) as unknown, headers: page.headers, url: page.finalUrl };
		} catch (error) {
			throw new WebAccessError(`${options.reader}: ${page.truncated ? "answer over the byte cap" : "invalid JSON"}`, {
				kind: "parse",
				code: "invalid-json",
				provider: options.fetch.provider,
				status: page.status,
				url: where(page),
				cause: error,
			});
		}
	};
	const api: SourceApi = {
		origin: setting.origin,
		json: (path, accept = API_DEFAULTS.accept) => get(path, accept, "json"),
		text: (path, accept = "text/plain, */*;q=0.5") => get(path, accept, "text"),
		page: (path, accept = "text/html, application/pdf;q=0.9, */*;q=0.5") => get(path, accept, "page"),
		markdown: async (html) => (await api.markdownEach([html]))[0]!,
		markdownEach: async (htmls) => {
			if (!options.fragments) throw new TypeError("this reader's fetcher reads no pages");
			return options.fragments(htmls, `${setting.origin}/`);
		},
	};
	if (setting.second !== undefined) {
		// A client of its own, without the token: a token is for the source's origin only.
		const own: SourceSetting = { name: setting.name, enabled: true, origin: setting.second, hosts: [] };
		api.second = createSourceApi({ ...options, setting: own });
	}
	return api;
}

function where(page: RawPage): string {
	const url = new URL(page.finalUrl);
	return `${url.host}${url.pathname}`;
}

/** A rate limit (429, or 403 with no requests left or a Retry-After) with its wait; else the status's failure. */
function statusFailure(page: RawPage, options: SourceApiOptions): WebAccessError {
	const at = where(page);
	const base = { provider: options.fetch.provider, status: page.status, url: at, code: `http-${page.status}` };
	const limited =
		page.status === 429 ||
		// The Stack Exchange API reports its throttle in the body (error_name throttle_violation), with status 400.
		/"error_name"\s*:\s*"throttle_violation"/.test(page.body.subarray(0, 2048).toString("utf8")) ||
		(page.status === 403 &&
			(page.headers["x-ratelimit-remaining"] === "0" || page.headers["retry-after"] !== undefined));
	if (limited) {
		const said = /available in (\d{1,9}) seconds/.exec(page.body.subarray(0, 2048).toString("utf8"))?.[1];
		const wait =
			retryAfterMs(page.headers) ??
			resetWait(page.headers["x-ratelimit-reset"], options.now ?? Date.now) ??
			(said === undefined ? undefined : Number(said) * 1000);
		const retryAfter = wait ?? API_DEFAULTS.rateLimitWaitMs;
		return new WebAccessError(`${options.reader}: HTTP ${page.status} rate limited at ${at}`, {
			...base,
			kind: "rate-limit",
			retryAfterMs: retryAfter,
		});
	}
	if (page.status === 401 || page.status === 403) {
		return new WebAccessError(`${options.reader}: HTTP ${page.status} not allowed at ${at}`, { ...base, kind: "auth" });
	}
	if (page.status === 404 || page.status === 410) {
		return new WebAccessError(`${options.reader}: HTTP ${page.status} not found at ${at}`, {
			...base,
			kind: "bad-request",
		});
	}
	const kind = page.status >= 500 ? "server" : "bad-request";
	return new WebAccessError(`${options.reader}: HTTP ${page.status} at ${at}`, { ...base, kind });
}

/** Milliseconds until an `x-ratelimit-reset` (epoch seconds), or undefined. */
function resetWait(reset: string | undefined, now: () => number): number | undefined {
	if (reset === undefined || !/^\d{1,12}$/.test(reset.trim())) return undefined;
	return Math.max(0, Number(reset) * 1000 - now());
}
