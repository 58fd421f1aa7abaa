// The conversion worker's life: started on the first page and reused, replaced after a deadline, an abort or its
// memory cap (each a clear failure, the next page converting again), ended when idle and at close, and found beside
// its module with the module's own extension (.ts sources, .js in dist/).

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isWebAccessError } from "../engine/errors.ts";
import { convertFragments } from "../providers/direct/convert-fragments.ts";
import { type ConvertJob, TEXT_PART_CHARS } from "../providers/direct/convert-jobs.ts";
import { pdfToText } from "../providers/direct/pdf.ts";
import { type Converter, createConverter, WORKER_URL, workerUrl } from "../providers/direct/worker-pool.ts";
import { makePdf } from "./direct-helpers.ts";

const page = (text: string): Extract<ConvertJob, { kind: "html" }> => ({
	kind: "html",
	body: Buffer.from(
		`<!DOCTYPE html><html><head><title>T</title></head><body><main><p>${text}</p></main></body></html>`,
	),
	contentType: "text/html; charset=utf-8",
	baseUrl: "https://example.com/",
});

const opened: Converter[] = [];
function converter(settings: Parameters<typeof createConverter>[0] = {}): Converter {
	const made = createConverter(settings);
	opened.push(made);
	return made;
}
afterEach(async () => {
	for (const made of opened.splice(0)) await made.close();
});

async function failure(promise: Promise<unknown>): Promise<{ kind: string; code: string; message: string }> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	if (!isWebAccessError(error)) throw new Error(`expected a WebAccessError, got ${String(error)}`);
	return { kind: error.kind, code: error.code, message: error.message };
}

describe("conversion worker", () => {
	it("starts one worker on the first page and reuses it for the next ones", async () => {
		const pool = converter();
		expect(pool.stats()).toMatchObject({ started: 0, running: false });
		for (const text of ["one", "two", "three"]) {
			const { page: converted } = await pool.run(page(text));
			expect(converted.markdown).toBe(text);
		}
		expect(pool.stats()).toMatchObject({ started: 1, terminated: 0, running: true });
	});

	it("runs pages given at once on at most `workers` workers, each answered", async () => {
		const pool = converter();
		const results = await Promise.all(["a", "b", "c", "d"].map((text) => pool.run(page(text))));
		expect(results.map((r) => r.page.markdown)).toEqual(["a", "b", "c", "d"]);
		expect(pool.stats().started).toBe(2);
		const single = converter({ workers: 1 });
		await Promise.all(["a", "b", "c"].map((text) => single.run(page(text))));
		expect(single.stats().started).toBe(1);
	});

	it("terminates a job past its deadline, says so, and converts the next page in a fresh worker", async () => {
		const pool = converter();
		expect(await failure(pool.run(page("slow"), { deadlineMs: 1 }))).toEqual({
			kind: "timeout",
			code: "convert-deadline",
			message: "conversion exceeded the 1 ms deadline",
		});
		expect(pool.stats()).toMatchObject({ started: 1, terminated: 1 });
		expect((await pool.run(page("after"))).page.markdown).toBe("after");
		expect(pool.stats()).toMatchObject({ started: 2, terminated: 1 });
	});

	it("ends the worker when the call is aborted, and fails a queued job without starting it", async () => {
		const pool = converter({ workers: 1 });
		const controller = new AbortController();
		const running = pool.run(page("running"), { signal: controller.signal });
		const queued = pool.run(page("queued"), { signal: controller.signal });
		controller.abort();
		expect((await failure(running)).kind).toBe("cancelled");
		expect((await failure(queued)).kind).toBe("cancelled");
		expect(pool.stats()).toMatchObject({ started: 1, terminated: 1, running: false });
		expect(await failure(pool.run(page("x"), { signal: controller.signal }))).toMatchObject({ kind: "cancelled" });
	});

	it("fails a page past the memory cap with a clear message (no crash) and converts the next one", async () => {
		const pool = converter({ maxHeapMb: 16, pollMs: 10 });
		const huge = page(`${"<b>word</b> ".repeat(600_000)}`);
		expect(await failure(pool.run(huge))).toEqual({
			kind: "bad-request",
			code: "convert-memory",
			message: "page too large to convert within 16 MB",
		});
		const roomy = converter();
		expect((await roomy.run(page("fine"))).page.markdown).toBe("fine");
	});

	it("ends an idle worker after idleMs and at close; a later page starts a fresh one", async () => {
		const pool = converter({ idleMs: 20 });
		await pool.run(page("x"));
		await vi.waitFor(() => expect(pool.stats().running).toBe(false), { timeout: 5000, interval: 20 });
		await pool.run(page("y"));
		expect(pool.stats().started).toBe(2);
		await pool.close();
		expect(pool.stats().running).toBe(false);
		expect((await pool.run(page("z"))).page.markdown).toBe("z");
	});

	it("moves a body that fills its buffer to the worker (the caller's copy is emptied); a pooled slice is copied", async () => {
		const pool = converter();
		const big = page("moved ".repeat(2000));
		expect(big.body.byteLength).toBe(big.body.buffer.byteLength);
		expect((await pool.run(big, { transferBody: true })).page.markdown).toBe("moved ".repeat(2000).trim());
		expect(big.body.byteLength).toBe(0);
		const small = { ...page("pooled"), body: Buffer.from("<p>pooled</p>") };
		expect(small.body.byteLength).toBeLessThan(small.body.buffer.byteLength);
		expect((await pool.run(small, { transferBody: true })).page.markdown).toBe("pooled");
		expect(small.body.toString()).toBe("<p>pooled</p>");
		const kept = page("kept");
		await pool.run(kept);
		expect(kept.body.byteLength).toBeGreaterThan(0);
		// CPU time is counted in scheduler ticks, so a tiny job may show 0.
		expect(pool.stats().lastJobCpuMs).toBeGreaterThanOrEqual(0);
	});

	it("returns a text longer than one message's part whole, a surrogate pair at a cut included", async () => {
		// Markdown of exactly this text: a letter, then 😀 (two UTF-16 units) straddling the first part's end.
		const text = `${"a".repeat(TEXT_PART_CHARS - 1)}😀${"b".repeat(TEXT_PART_CHARS * 2)}`;
		const pool = converter();
		const { page: converted } = await pool.run(page(text));
		expect(converted.markdown.length).toBe(text.length);
		expect(converted.markdown).toBe(text);
		// A PDF's text crosses back the same way: 20 pages of 300 short lines, compared with a read on this thread.
		const line = (page: number, i: number) => `page ${page} line ${i} ${"x".repeat(40)}`;
		const pages = Array.from({ length: 20 }, (_, p) => Array.from({ length: 300 }, (_, i) => line(p, i)));
		// makePdf writes one text operator per page; these close it and move down a line between lines.
		const pdf = makePdf(
			pages.map((lines) => lines.join(") Tj 0 -2 Td (")),
			"Long",
		);
		const here = await pdfToText(pdf);
		expect(here.content.length).toBeGreaterThan(TEXT_PART_CHARS);
		expect((await pool.run({ kind: "pdf", body: pdf })).content).toBe(here.content);
	});

	it("converts several fragments in one job, each split back whole when their text crosses message parts", async () => {
		const pool = converter();
		// Three fragments whose markdown together spans three message parts, the cuts inside the second.
		const texts = ["first", `${"m".repeat(TEXT_PART_CHARS)} ${"n".repeat(TEXT_PART_CHARS)}`, "last"];
		const fragments = texts.map((text) => `<p>${text}</p>`);
		const out = await convertFragments(fragments, { converter: pool, baseUrl: "https://example.com/" });
		expect(out).toEqual(texts);
		expect(pool.stats()).toMatchObject({ jobs: 1, started: 1 });
		expect(await convertFragments([], { converter: pool, baseUrl: "https://example.com/" })).toEqual([]);
		expect(pool.stats().jobs).toBe(1);
	});

	it("renders a fragment whole: an answer's list of links and its closing line are its content, not a page's chrome", async () => {
		const links = Array.from(
			{ length: 6 },
			(_, i) => `<li><a href="/doc${i}">Option number ${i} explained in the docs</a></li>`,
		);
		const fragment = `<p>You can solve this with a resolver hook; the docs cover each option. Here is the reasoning in two sentences so the prose is longer than a label.</p><ul>${links.join("")}</ul><p>Pick the second one when the module is ESM, the first otherwise.</p>`;
		const [out] = await convertFragments([fragment], {
			converter: converter(),
			baseUrl: "https://example.com/",
			links: "inline",
		});
		expect(out).toContain("[Option number 5 explained in the docs](https://example.com/doc5)");
		expect(out).toContain("Pick the second one when the module is ESM, the first otherwise.");
	});

	it("finds the worker script beside its module, with the module's own extension", () => {
		expect(WORKER_URL.href.endsWith("/providers/direct/convert-worker.ts")).toBe(true);
		expect(existsSync(fileURLToPath(WORKER_URL))).toBe(true);
		expect(workerUrl("file:///app/dist/providers/direct/worker-pool.js").href).toBe(
			"file:///app/dist/providers/direct/convert-worker.js",
		);
		// Installed, pi runs the TypeScript sources but a worker cannot: the shipped dist/ copy runs.
		expect(workerUrl("file:///a/node_modules/pi-web-access-router/providers/direct/worker-pool.ts").href).toBe(
			"file:///a/node_modules/pi-web-access-router/dist/providers/direct/convert-worker.js",
		);
	});
});
