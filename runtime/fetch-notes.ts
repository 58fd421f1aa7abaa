// What explain adds for a fetch that the plan alone cannot show: a keyless fetcher the private-network guard will
// refuse for this address (a literal IP or localhost, checked as providers/direct/guard.ts checks it), and the
// GitHub page that direct fetches as its raw file instead (providers/direct/github-urls.ts).

import type { Plan } from "../engine/request-types.ts";
import { githubRawUrl } from "../providers/direct/github-urls.ts";
import { bareHost, checkAddress } from "../providers/direct/guard.ts";
import { parseIp } from "../providers/direct/ip.ts";
import type { Setup } from "./setup.ts";

/** Types that fetch through the guard themselves (the direct fetcher and the local browser). */
const GUARDED = new Set(["direct", "browser"]);
const KIND: Record<string, string> = { file: "the raw file", readme: "the README", gist: "the raw gist" };

/** The address a guarded fetch would check, when it is known without DNS: an IP literal, or localhost. */
function literalAddress(url: URL): string | undefined {
	const host = bareHost(url).toLowerCase();
	if (parseIp(host)) return host;
	return host === "localhost" || host.endsWith(".localhost") ? "127.0.0.1" : undefined;
}

/** `note:` lines for explain, one per ready step they concern; none for a search. */
export function fetchNotes(plan: Plan, setup: Setup): string[] {
	const request = plan.request;
	if (request.kind !== "fetch") return [];
	let url: URL;
	try {
		url = new URL(request.url);
	} catch {
		return [];
	}
	const notes: string[] = [];
	const address = literalAddress(url);
	const verdict = address === undefined ? undefined : checkAddress(address, setup.table.config.fetchGuard);
	const rewrite = request.format === "html" ? undefined : githubRawUrl(request.url);
	for (const step of plan.steps) {
		if (step.status !== "ready" || !GUARDED.has(step.type)) continue;
		if (verdict !== undefined && !verdict.allowed) {
			const host = bareHost(url);
			const is = host === address ? host : `${host} (${address})`;
			notes.push(
				`${step.provider} will be refused by the private-network guard: ${is} is ${verdict.category} (${verdict.range}); to allow it, add the range to fetchGuard.allowRanges in ${setup.loaded.file}`,
			);
		}
		if (step.type === "direct" && rewrite !== undefined) {
			const fallback = rewrite.fallback ? "; the page itself when that is missing" : "";
			notes.push(
				`${step.provider} fetches ${rewrite.url} instead (${KIND[rewrite.kind]} of this GitHub page${fallback})`,
			);
		}
	}
	return notes;
}
