// Claude's web_fetch returns a PDF as a document block we do not read: its types refuse PDFs before any request.
// Pure and light, so the planner can skip the step (facts) and the family can refuse the call (the same test).

import type { WebRequest } from "../../engine/request-types.ts";

/** True when the fetch URL's path ends in `.pdf` (any case); an unparsable URL is left to the call. */
export function isPdfUrl(url: string): boolean {
	try {
		return /\.pdf$/i.test(new URL(url).pathname);
	} catch {
		return false;
	}
}

/** The reason a Claude type cannot serve `request`, or undefined. */
export function claudeCannotServe(request: WebRequest): string | undefined {
	return request.kind === "fetch" && isPdfUrl(request.url) ? "cannot fetch PDFs" : undefined;
}
