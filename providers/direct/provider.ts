// The keyless default fetcher: GETs the page itself (redirects re-checked by the private-network guard), and returns
// readable markdown, PDF text per page, or text/JSON as is. HTML and PDF are converted in a worker thread (heavy
// modules load there on the first page, never on import), under a heap cap and a deadline. JS-only and challenge
// pages fail so the chain moves on.

import type { FetchRequest } from "../../engine/request-types.ts";
import type {
	CallContext,
	Classification,
	HttpRequestSpec,
	ProviderDefinition,
	ProviderFetchResult,
} from "../contract.ts";
import { classifyError } from "../http/classify.ts";
import { noNativeFilters } from "../params/filters.ts";
import { numberOption, stringOption } from "../params/options.ts";
import type { SourceReader } from "../sources/contract.ts";
import { readSource } from "../sources/read.ts";
import { DEFAULT_SOURCES } from "../sources/settings.ts";
import { definitionFacts } from "../type-facts.ts";
import { convertPage } from "./convert.ts";
import { convertFragments } from "./convert-fragments.ts";
import facts, { DIRECT_USER_AGENT } from "./facts.ts";
import { FETCH_DEFAULTS, type FetchPageOptions, fetchPage, type RawPage } from "./fetch-page.ts";
import { type GithubOrigins, githubRawUrl } from "./github-urls.ts";
import type { HostLookup } from "./guard.ts";
import { type MarkdownHosts, sharedMarkdownHosts } from "./markdown-twins.ts";
import { fetchNegotiated } from "./negotiate.ts";
import type { PdfLimits } from "./pdf.ts";
import { type Converter, sharedConverter } from "./worker-pool.ts";

export const DIRECT_DEFAULTS = {
	timeoutMs: facts.defaults.timeoutMs,
	maxBytes: FETCH_DEFAULTS.maxBytes,
	userAgent: DIRECT_USER_AGENT,
};

/** Injectable pieces (tests answer DNS themselves, and bound conversions tighter). */
export interface DirectDependencies {
	lookup?: HostLookup;
	/** Where HTML and PDF are converted; the process-wide worker by default. */
	converter?: Converter;
	pdfLimits?: Partial<PdfLimits>;
	/** Where GitHub files, READMEs and gists are fetched raw (tests point them at a loopback server). */
	githubOrigins?: GithubOrigins;
	/** The source readers tried before the page (providers/sources/readers.ts by default). */
	readers?: readonly SourceReader[];
	/** What each host was found to publish (llms.txt, twins); the process-wide record by default. */
	markdownHosts?: MarkdownHosts;
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
	request: FetchRequest,
	call: CallContext,
	dependencies: DirectDependencies = {},
): Promise<ProviderFetchResult> {
	const converter = dependencies.converter ?? sharedConverter();
	return convertPage(page, call.config.name, {
		converter,
		signal: call.signal,
		// The step's time bound applies to the conversion too (a longer-running one is ended, not awaited).
		deadlineMs: Math.min(call.timeoutMs, converter.stats().settings.deadlineMs),
		...(request.format ? { format: request.format === "markdown" ? undefined : request.format } : {}),
		...(request.links ? { links: request.links } : {}),
		...(dependencies.pdfLimits ? { pdfLimits: dependencies.pdfLimits } : {}),
	});
}

/** Guard refusals, unsupported types, JS-only and challenge pages are bad-request: about this URL, no cooldown. */
export function classifyDirect(error: unknown): Classification {
	// No key is involved, so the default key verdicts do not apply; the code stays (an escalation step waits for it).
	const { keyVerdict: _, ...classification } = classifyError(error);
	return classification;
}

export function createDirectProvider(dependencies: DirectDependencies = {}): ProviderDefinition {
	return {
		...definitionFacts(facts),
		perSite: true,
		native: noNativeFilters(0),
		async fetch(request, call) {
			const spec = buildFetchRequest(request, call);
			const options: FetchPageOptions = {
				provider: call.config.name,
				signal: call.signal,
				userAgent: userAgentOf(call),
				maxBytes: maxBytesOf(call),
				headers: call.config.headers,
				guard: call.fetchGuard,
				lookup: dependencies.lookup,
				...(call.proxy ? { proxy: call.proxy } : {}),
			};
			// A page a source reader serves is read through its API (markdown asked for, not the page's HTML or text);
			// when the reader fails, the page is read and says why.
			const sourced =
				request.format === undefined || request.format === "markdown"
					? await readSource(spec.url, call, {
							fetch: options,
							readers: dependencies.readers,
							convert: (page) =>
								parseFetchResponse(page, { ...request, format: "markdown", links: "inline" }, call, dependencies),
							fragments: (htmls, baseUrl) => {
								const converter = dependencies.converter ?? sharedConverter();
								const deadlineMs = Math.min(call.timeoutMs, converter.stats().settings.deadlineMs);
								return convertFragments(htmls, {
									converter,
									baseUrl,
									links: "inline",
									signal: call.signal,
									deadlineMs,
								});
							},
						})
					: undefined;
			if (sourced?.result) return sourced.result;
			// GitHub file views, repository roots and gists are fetched raw, unless the page's HTML is asked for.
			const raw = request.format === "html" ? undefined : githubRawUrl(spec.url, dependencies.githubOrigins);
			// Markdown is asked for (Accept), and a markdown twin or declared alternate read instead of the HTML,
			// unless the page's HTML or text is asked for or the option is off.
			const negotiate =
				raw === undefined &&
				(request.format === undefined || request.format === "markdown") &&
				(call.sources ?? DEFAULT_SOURCES).byName.markdown?.enabled !== false;
			let page = negotiate
				? await fetchNegotiated(spec.url, options, dependencies.markdownHosts ?? sharedMarkdownHosts)
				: await fetchPage(raw?.url ?? spec.url, options);
			if (raw?.fallback && page.status === 404) page = await fetchPage(spec.url, options);
			const result = await parseFetchResponse(page, request, call, dependencies);
			if (sourced?.warning) result.warnings = [sourced.warning, ...(result.warnings ?? [])];
			return result;
		},
		classify: classifyDirect,
	};
}

export default createDirectProvider();
