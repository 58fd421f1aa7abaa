// A batch of heavy pages does not hold a light one behind it: the converter runs CONVERTER_DEFAULTS.workers (2)
// workers and starts queued jobs smallest first. With one worker and a first-come queue, a light page fetched in the
// same turn as four heavy ones waited for all four (and could reach its step's 20 s deadline); now it starts when the
// first worker frees. Counted in completions, not measured in time.

import { afterEach, describe, expect, it } from "vitest";
import type { ConvertJob } from "../providers/direct/convert-jobs.ts";
import { type Converter, createConverter } from "../providers/direct/worker-pool.ts";

const html = (body: string): Extract<ConvertJob, { kind: "html" }> => ({
	kind: "html",
	body: Buffer.from(`<!DOCTYPE html><html><head><title>T</title></head><body><main>${body}</main></body></html>`),
	contentType: "text/html; charset=utf-8",
	baseUrl: "https://example.com/",
});
/** About 3 MB of paragraphs with links: hundreds of milliseconds of conversion each. */
const heavy = () =>
	html(
		Array.from(
			{ length: 12_000 },
			(_, i) => `<p>Paragraph ${i} <a href="/p/${i}">link ${i}</a> ${"text ".repeat(40)}</p>`,
		).join(""),
	);

let pool: Converter | undefined;
afterEach(async () => {
	await pool?.close();
});

describe("a light page among heavy ones", () => {
	it("starts as soon as a worker frees, ahead of the heavy pages still queued before it", async () => {
		pool = createConverter();
		const finished: string[] = [];
		const track = (name: string, job: ConvertJob) => pool!.run(job).then(() => finished.push(name));
		const heavies = Array.from({ length: 4 }, (_, i) => track(`heavy ${i}`, heavy()));
		// Queued after the batch, while both workers are busy.
		await track("light", html("<p>A short page.</p>"));
		const before = finished.indexOf("light");
		await Promise.all(heavies);
		expect(finished).toHaveLength(5);
		// Both workers took a heavy page at once; the light page starts as soon as either frees.
		expect(before).toBeLessThanOrEqual(2);
		expect(pool.stats().started).toBe(2);
	}, 60_000);
});
