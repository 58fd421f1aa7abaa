// Numbered link references (`[3]: https://…`) that follow the text a model is shown. The keyless converter numbers
// link targets in order of first use (providers/direct/markdown-links.ts); the executor (executor/results.ts) lists
// after each window of a long page just the references that window's text cites, so a window cut from the middle
// of a page still says where its links go. Pure.

export interface LinkReferences {
	/** The target of reference n, at index n − 1. */
	urls: string[];
	/** The page's http(s) origin: same-site targets may be shown as paths under one line naming it. */
	origin?: string;
}

export const LINK_LIST_DEFAULTS = {
	/**
	 * Same-site targets are shown as paths under one line naming the site when that saves more than this many times
	 * the line's own length: on a short list the extra line is more to read than it saves.
	 */
	pathsPayOff: 2,
};

/** The line that names the site the list's paths are on, and a pattern that finds it in markdown. */
export const pathsLine = (origin: string) => `Paths are on ${origin}:`;
export const PATHS_LINE = /^Paths are on (https?:\/\/[^\s/]+):$/;

/** A link or image as the converter writes it cites its reference as `[text][n]` / `![alt][n]`. */
const CITATION = /\]\[(\d{1,9})\]/g;

/** The reference numbers `text` cites, ascending, each once (numbers outside the list are ignored). */
export function citedIn(text: string, refs: LinkReferences): number[] {
	const count = refs.urls.length;
	const seen = new Uint8Array(count + 1);
	const out: number[] = [];
	for (const match of text.matchAll(CITATION)) {
		const n = Number(match[1]);
		if (n >= 1 && n <= count && seen[n] === 0) {
			seen[n] = 1;
			out.push(n);
		}
	}
	return out.sort((a, b) => a - b);
}

/** `text` as one window: followed by every reference of the list (the whole page, as a benchmark scores it). */
export function withReferenceList(text: string, refs: LinkReferences | undefined): string {
	const list = refs ? formatReferences(refs, allReferences(refs)) : "";
	return list === "" ? text : `${text}\n\n${list}`;
}

/** Every reference number of the list, 1 to its length. */
export function allReferences(refs: LinkReferences): number[] {
	return Array.from({ length: refs.urls.length }, (_, i) => i + 1);
}

/** The list lines for `numbers` (`[n]: url`, or a path under the site's line when that pays off); "" for none. */
export function formatReferences(refs: LinkReferences, numbers: readonly number[]): string {
	if (numbers.length === 0) return "";
	const { origin, urls } = refs;
	const onSite = (url: string) =>
		origin !== undefined && url.startsWith(`${origin}/`) && url[origin.length + 1] !== "/";
	const head = origin === undefined ? "" : pathsLine(origin);
	let saved = 0;
	if (origin !== undefined) for (const n of numbers) if (onSite(urls[n - 1]!)) saved += origin.length;
	const paths = saved > LINK_LIST_DEFAULTS.pathsPayOff * (head.length + 1);
	const lines = numbers.map((n) => {
		const url = urls[n - 1]!;
		return `[${n}]: ${paths && onSite(url) ? url.slice(origin!.length) : url}`;
	});
	return (paths ? [head, ...lines] : lines).join("\n");
}
