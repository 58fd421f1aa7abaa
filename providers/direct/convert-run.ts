// What a conversion job does, wherever it runs: in the worker thread (convert-worker.ts, the default) or inline on
// the calling thread (`inlineConverter`, for tests that change a converter's module-level settings).

import { decodeBody } from "./charset.ts";
import type { ConvertJob, FragmentsOutcome, HtmlOutcome, JobResult } from "./convert-jobs.ts";
import type { Converter } from "./worker-pool.ts";

/** Characters of decoded HTML sent back for the challenge check (page-checks.ts scans only this much). */
const HEAD_CHARS = 64 * 1024;

export async function runJob(job: ConvertJob): Promise<unknown> {
	if (job.kind === "pdf") {
		const { pdfToText } = await import("./pdf.ts");
		return pdfToText(job.body, job.limits);
	}
	const { fragmentToMarkdown, htmlToMarkdown } = await import("./html-to-markdown.ts");
	// The options parameter is the converter's contract (format, links); a converter without it ignores them.
	const convert = htmlToMarkdown as (
		html: string,
		baseUrl?: string,
		options?: object,
	) => ReturnType<typeof htmlToMarkdown>;
	if (job.kind === "fragments") {
		const outcome: FragmentsOutcome = { text: "", ends: [] };
		const options = job.links ? { links: job.links } : {};
		for (const fragment of job.fragments) {
			outcome.text += await fragmentToMarkdown(fragment, job.baseUrl, options);
			outcome.ends.push(outcome.text.length);
		}
		return outcome;
	}
	const decoded = await decodeBody(job.body, job.contentType, true);
	const options = { ...(job.format ? { format: job.format } : {}), ...(job.links ? { links: job.links } : {}) };
	const page = await convert(decoded.text, job.baseUrl, options);
	const outcome: HtmlOutcome = { page, head: decoded.text.slice(0, HEAD_CHARS) };
	if (decoded.warning) outcome.decodeWarning = decoded.warning;
	return outcome;
}

/** Runs jobs on the calling thread: no isolation, no deadline, no heap cap. Never the provider's default. */
export function inlineConverter(): Converter {
	let jobs = 0;
	return {
		run: async <J extends ConvertJob>(job: J) => {
			jobs++;
			return (await runJob(job)) as JobResult<J>;
		},
		stats: () => ({ jobs, started: 0, terminated: 0, peakMb: 0, running: false, settings: { ...INLINE_SETTINGS } }),
		close: async () => {},
	};
}

const INLINE_SETTINGS = {
	workers: 0,
	maxHeapMb: 0,
	heapHeadroomMb: 0,
	maxYoungMb: 0,
	pollMs: 0,
	deadlineMs: Number.MAX_SAFE_INTEGER,
	idleMs: 0,
};
