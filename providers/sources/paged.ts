// Lists an API pages with `?per_page=&page=` and a `Link: <…page=K>; rel="last"` header (GitHub's REST API): the
// first page, then the rest at once in one more round, up to a bound. Page URLs are built from the path given,
// never taken from the header, so a request never leaves the API origin.

import type { SourceApi } from "./contract.ts";

export const PAGED_DEFAULTS = { perPage: 100, maxPages: 10 };

export interface PagedList {
	items: unknown[];
	/** Pages past the bound that were not read (0: the whole list). */
	pagesLeft: number;
}

/** The last page number a Link header names, or 1. */
export function lastPage(link: string | undefined): number {
	if (!link) return 1;
	for (const part of link.split(",")) {
		if (!/rel="?last"?/.test(part)) continue;
		const page = /[?&]page=(\d+)/.exec(part)?.[1];
		if (page) return Math.min(Number(page), 100_000);
	}
	return 1;
}

export async function pagedList(
	api: SourceApi,
	path: string,
	maxPages = PAGED_DEFAULTS.maxPages,
	perPage = PAGED_DEFAULTS.perPage,
): Promise<PagedList> {
	const pageUrl = (page: number) => `${path}${path.includes("?") ? "&" : "?"}per_page=${perPage}&page=${page}`;
	const first = await api.json(pageUrl(1));
	const last = lastPage(first.headers.link);
	const read = Math.min(last, maxPages);
	const rest = await Promise.all(
		Array.from({ length: Math.max(0, read - 1) }, (_, i) => api.json(pageUrl(i + 2)).then((answer) => answer.body)),
	);
	const items = [first.body, ...rest].flatMap((body) => (Array.isArray(body) ? body : []));
	return { items, pagesLeft: last - read };
}
