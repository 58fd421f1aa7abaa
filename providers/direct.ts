// The keyless default fetcher: GETs the page itself (redirects re-checked by the private-network guard), and returns
// readable markdown, PDF text per page, or text/JSON as is. Heavy modules (linkedom, readability, turndown, unpdf,
// iconv-lite) load on the first fetch, never on import. JS-only and challenge pages fail so the chain moves on.

import { createRequire } from "node:module";
import type {
	CallContext,
	Classification,
	FetchRequest,
	HttpRequestSpec,
	ProviderDefinition,
	ProviderFetchResult,
} from "../engine/types.ts";
import { convertPage } from "./direct/convert.ts";
import { FETCH_DEFAULTS, fetchPage, type RawPage } from "./direct/fetch-page.ts";
import type { HostLookup } from "./direct/guard.ts";
import { classifyError } from "./shared/classify.ts";
import { noNativeFilters } from "./shared/family.ts";
import { numberOption, stringOption } from "./shared/options.ts";

const VERSION: string = createRequire(import.meta.url)("../package.json").version;

export const DIRECT_DEFAULTS = {
	timeoutMs: 20_000,
	maxBytes: FETCH_DEFAULTS.maxBytes,
	userAgent: `pi-web-access-router/${VERSION}`,
};

/** Injectable pieces (tests answer DNS themselves). */
export interface DirectDependencies {
	lookup?: HostLookup;
}

function userAgentOf(call: CallContext): string {
	return stringOption(call.config.options, "userAgent") ?? DIRECT_DEFAULTS.userAgent;
}

function maxBytesOf(call: CallContext): number {
	const value = numberOption(call.config.options, "maxBytes");
	return value !== undefined && value > 0 ? Math.floor(value) : DIRECT_DEFAULTS.maxBytes;
}

/** The first request of a fetch (later hops follow redirects with the same headers). */
export function buildFetchRequest(request: FetchRequest, call: CallContext): HttpRequestSpec {
	const headers: Record<string, string> = { "user-agent": userAgentOf(call), accept: FETCH_DEFAULTS.accept };
	for (const [name, value] of Object.entries(call.config.headers ?? {})) headers[name.toLowerCase()] = value;
	headers["accept-encoding"] = FETCH_DEFAULTS.acceptEncoding;
	return { method: "GET", url: request.url, headers };
}

/** Turns a fetched answer into the result (or the failure: status, challenge, JS-only, unsupported type). */
export function parseFetchResponse(
	page: RawPage,
	_request: FetchRequest,
	call: CallContext,
): Promise<ProviderFetchResult> {
	return convertPage(page, call.config.name);
}

/** Guard refusals, unsupported types, JS-only and challenge pages are bad-request: about this URL, no cooldown. */
export function classifyDirect(error: unknown): Classification {
	// No key is involved, so the default key verdicts do not apply.
	const { errorClass, reason, retryAfterMs } = classifyError(error);
	return retryAfterMs === undefined ? { errorClass, reason } : { errorClass, reason, retryAfterMs };
}

export function createDirectProvider(dependencies: DirectDependencies = {}): ProviderDefinition {
	return {
		type: "direct",
		cost: { basis: "free" },
		capabilities: { search: false, fetch: true },
		optionsSchema: {
			maxBytes: {
				type: "integer",
				minimum: 1024,
				description:
					"Cap on a response after decompression, in bytes; longer pages are cut there. Default: 10485760 (10 MB).",
			},
			userAgent: {
				type: "string",
				description: `User-Agent header. Default: "${DIRECT_DEFAULTS.userAgent}".`,
			},
		},
		defaults: { timeoutMs: DIRECT_DEFAULTS.timeoutMs },
		needsKey: false,
		perSite: true,
		extraction: "verbatim",
		native: noNativeFilters(0),
		async fetch(request, call) {
			const spec = buildFetchRequest(request, call);
			const page = await fetchPage(spec.url, {
				provider: call.config.name,
				signal: call.signal,
				userAgent: userAgentOf(call),
				maxBytes: maxBytesOf(call),
				headers: call.config.headers,
				guard: call.fetchGuard,
				lookup: dependencies.lookup,
			});
			return parseFetchResponse(page, request, call);
		},
		classify: classifyDirect,
	};
}

export default createDirectProvider();
