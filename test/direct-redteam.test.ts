// Red-team pages for the keyless fetcher, each served by a loopback server and fetched through the direct provider:
// every one settles within the conversion deadline with a clear failure or a cut-and-warned result, pi's process
// grows by less than 500 MB meanwhile (sampled RSS), and the worker's heap limit is set. Outcomes, not timings.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isWebAccessError } from "../engine/errors.ts";
import type { ProviderFetchResult } from "../providers/contract.ts";
import { createDirectProvider } from "../providers/direct/provider.ts";
import { createConverter } from "../providers/direct/worker-pool.ts";
import { callContext, fetchWith, send, startServer, type TestServer } from "./direct-helpers.ts";
import { redteamHtml as html, inflateBombPdf, manyPagesPdf, REDTEAM_HTML_SHAPES } from "./helpers/redteam-shapes.ts";

const MB = 1024 * 1024;
/** Small so that a shape our converter is still slow on costs seconds, not the real 20 s. */
const DEADLINE_MS = 4000;
const MAX_GROWTH_MB = 500;

let server: TestServer;
const converter = createConverter({ deadlineMs: DEADLINE_MS });
const direct = createDirectProvider({ converter, pdfLimits: { maxMs: 1000 } });

beforeAll(async () => {
	server = await startServer();
});
afterAll(async () => {
	await converter.close();
	await server.close();
});

type Outcome = { ok: ProviderFetchResult } | { failure: { kind: string; code: string; message: string } };

/** Fetches one shape, sampling the process's RSS meanwhile; returns the outcome and the growth in MB. */
async function fetchShape(path: string, body: Buffer, type: string): Promise<{ outcome: Outcome; growthMb: number }> {
	server.route(path, send(body, { "content-type": type }));
	const before = process.memoryUsage.rss();
	let peak = before;
	const sampler = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage.rss());
	}, 20);
	try {
		const ok = await fetchWith(`${server.origin}${path}`, callContext(), direct);
		return { outcome: { ok }, growthMb: (peak - before) / MB };
	} catch (error) {
		if (!isWebAccessError(error)) throw error;
		const failure = { kind: error.kind, code: error.code, message: error.message };
		return { outcome: { failure }, growthMb: (peak - before) / MB };
	} finally {
		clearInterval(sampler);
	}
}

/**
 * A clear failure about this page, or a result that says it was cut — or, for a page under the HTML cap that the
 * converter can take whole (`whole`), the full text within the same bounds.
 */
function expectBounded(outcome: Outcome, whole = false): void {
	if ("ok" in outcome) {
		expect(outcome.ok.content.trim()).not.toBe("");
		if (!whole) expect(outcome.ok.warnings?.length ?? 0).toBeGreaterThan(0);
		return;
	}
	expect(["timeout", "bad-request"]).toContain(outcome.failure.kind);
	expect(outcome.failure.message).toMatch(
		/conversion exceeded the 4 s deadline|page too large to convert within 320 MB|could not convert the page|larger than/,
	);
}

describe("red-team pages end within the deadline, bounded", () => {
	for (const { name, make, type, whole } of REDTEAM_HTML_SHAPES) {
		it(`${name}: a clear failure or a cut-and-warned result, under ${MAX_GROWTH_MB} MB`, async () => {
			const { outcome, growthMb } = await fetchShape(`/${encodeURIComponent(name)}`, await make(), type);
			// 1.6 MB is under the 4 MB HTML cap: converted whole (bounded in time and memory) is a right answer too.
			expectBounded(outcome, whole === true);
			expect(growthMb).toBeLessThan(MAX_GROWTH_MB);
		});
	}

	it("a 1 MB PDF whose stream inflates to 1 GB is refused before PDF.js decodes it", async () => {
		const pdf = await inflateBombPdf();
		expect(pdf.length).toBeLessThan(1.1 * MB);
		const { outcome, growthMb } = await fetchShape("/bomb.pdf", pdf, "application/pdf");
		expect("failure" in outcome && outcome.failure).toMatchObject({
			kind: "bad-request",
			code: "pdf-too-large",
			message: "PDF streams inflate to more than 128 MB: not read",
		});
		expect(growthMb).toBeLessThan(MAX_GROWTH_MB);
	});

	it("a PDF of 15,000 pages is read in part, with a warning saying how much", async () => {
		const pdf = manyPagesPdf();
		const { outcome, growthMb } = await fetchShape("/many.pdf", pdf, "application/pdf");
		expectBounded(outcome);
		if ("ok" in outcome) {
			expect(outcome.ok.content).toMatch(/^--- page 1 ---\nPage text 1$/m);
			expect(outcome.ok.warnings?.join()).toMatch(/^PDF has 15000 pages: read the first \d+ only/);
			expect(outcome.ok.content).not.toContain("Page text 15000");
		}
		expect(growthMb).toBeLessThan(MAX_GROWTH_MB);
	});

	it("converts in a worker whose V8 heap limit is set (the cap plus headroom)", async () => {
		server.route("/small", send(html("<p>small page</p>")));
		await fetchWith(`${server.origin}/small`, callContext(), direct);
		const stats = converter.stats();
		expect(stats.running).toBe(true);
		expect(stats.resourceLimits?.maxOldGenerationSizeMb).toBe(320 + 128);
	});
});
