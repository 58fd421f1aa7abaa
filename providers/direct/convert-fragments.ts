// Several HTML fragments an API returned (a question and its answers) converted to markdown in ONE conversion job:
// a thread costs one worker round trip, not one per post (posts converted at once each took a worker, and a second
// worker's start alone was ~100 ms).

import { WebAccessError } from "../../engine/errors.ts";
import type { LinkStyle } from "./convert-jobs.ts";
import type { Converter } from "./worker-pool.ts";

export interface FragmentOptions {
	converter: Converter;
	/** Links in the fragments are made absolute against it. */
	baseUrl: string;
	links?: LinkStyle;
	signal?: AbortSignal;
	deadlineMs?: number;
}

/** Each fragment's markdown, in order; a failure of the job (deadline, memory, cancellation) fails them all. */
export async function convertFragments(fragments: readonly string[], options: FragmentOptions): Promise<string[]> {
	if (fragments.length === 0) return [];
	const job = {
		kind: "fragments" as const,
		fragments: [...fragments],
		baseUrl: options.baseUrl,
		...(options.links ? { links: options.links } : {}),
	};
	const { text, ends } = await options.converter.run(job, {
		...(options.signal ? { signal: options.signal } : {}),
		...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}),
	});
	if (ends.length !== fragments.length) {
		throw new WebAccessError(`conversion returned ${ends.length} of ${fragments.length} fragments`, {
			kind: "bad-request",
			code: "html-conversion",
		});
	}
	return ends.map((end, i) => text.slice(ends[i - 1] ?? 0, end));
}
