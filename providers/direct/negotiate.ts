// A page fetched in its best form: its `.md` twin first on a host known to publish them (llms.txt), else the page
// (Accept names text/markdown beside HTML, so a server that negotiates answers markdown), then its declared markdown
// alternate when the HTML names one. A host's llms.txt is probed beside its first page (markdown-twins.ts).

import { isWebAccessError } from "../../engine/errors.ts";
import { type FetchPageOptions, fetchPage, type RawPage } from "./fetch-page.ts";
import { defaultLookup, type HostLookup, type LookupAddress } from "./guard.ts";
import {
	asMarkdown,
	declaredAlternate,
	isLlmsTxt,
	isMarkdownAnswer,
	type MarkdownHosts,
	TWIN_DEFAULTS,
	twinUrl,
} from "./markdown-twins.ts";

/** The page, or a markdown form of it (its content type then says text/markdown). */
export async function fetchNegotiated(
	url: string,
	pageOptions: FetchPageOptions,
	hosts: MarkdownHosts,
): Promise<RawPage> {
	// One DNS answer per host for the page and its markdown forms (the page's own connection stays pinned to it).
	const options = { ...pageOptions, lookup: sharedLookup(pageOptions.lookup ?? defaultLookup) };
	let origin: string;
	try {
		origin = new URL(url).origin;
	} catch {
		return fetchPage(url, options);
	}
	const known = hosts.twins(origin);
	const twin = twinUrl(url);
	if (known === true && twin !== undefined && twin !== url) {
		const page = await tryFetch(twin, options);
		const found = page !== undefined && isMarkdownAnswer(page);
		hosts.record(origin, found);
		if (found) return asMarkdown(page);
	}
	const probe = known === undefined ? hosts.probe(origin, () => probeLlmsTxt(origin, options)) : undefined;
	const [page] = await Promise.all([fetchPage(url, options), probe]);
	const alternate = page.status >= 200 && page.status < 300 ? declaredAlternate(page) : undefined;
	if (alternate !== undefined && alternate !== url && alternate !== page.finalUrl) {
		const markdown = await tryFetch(alternate, options);
		if (markdown !== undefined && isMarkdownAnswer(markdown)) return asMarkdown(markdown);
	}
	return page;
}

/** A markdown form's answer, or undefined when it failed (the page is read instead); a cancellation or refusal ends it. */
async function tryFetch(url: string, options: FetchPageOptions): Promise<RawPage | undefined> {
	try {
		return await fetchPage(url, { ...options, accept: "text/markdown, text/plain;q=0.9, */*;q=0.1" });
	} catch (error) {
		if (options.signal.aborted || (isWebAccessError(error) && error.kind === "guard")) throw error;
		return undefined;
	}
}

/** A lookup asking each host once; a failed answer is not kept. */
function sharedLookup(lookup: HostLookup): HostLookup {
	const answers = new Map<string, Promise<LookupAddress[]>>();
	return (host) => {
		let answer = answers.get(host);
		if (!answer) {
			answer = lookup(host);
			answers.set(host, answer);
			answer.catch(() => answers.delete(host));
		}
		return answer;
	};
}

/** Whether the origin publishes an llms.txt, asked with its own small byte cap and time bound. */
async function probeLlmsTxt(origin: string, options: FetchPageOptions): Promise<boolean> {
	const signal = AbortSignal.any([options.signal, AbortSignal.timeout(TWIN_DEFAULTS.probeTimeoutMs)]);
	const page = await fetchPage(`${origin}/llms.txt`, {
		...options,
		signal,
		maxBytes: TWIN_DEFAULTS.probeBytes,
		accept: "text/plain, text/markdown;q=0.9, */*;q=0.1",
	});
	return isLlmsTxt(page);
}
