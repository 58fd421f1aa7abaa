// Links as numbered references: the converter returns the text and the targets; the executor shows after each
// window the references that window cites — none from elsewhere, all of its own — within maxChars, and paging
// through the windows gives back the whole text.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { citedIn, formatReferences, type LinkReferences, pathsLine } from "../engine/link-references.ts";
import type { FetchRequest } from "../engine/request-types.ts";
import { createExecutor } from "../executor/index.ts";
import { windowFetch } from "../executor/results.ts";
import type { ProviderFetchResult } from "../providers/contract.ts";
import directDefault from "../providers/direct/provider.ts";
import { windowHeader } from "../runtime/format.ts";
import { LOOPBACK, startServer, type TestServer } from "./direct-helpers.ts";

const fetchOf = (offset: number, maxChars: number): FetchRequest => ({
	kind: "fetch",
	url: "https://site.example/a",
	offset,
	maxChars,
});

/** `paragraphs` paragraphs of about 250 characters, paragraph i citing reference i + 1. */
function page(paragraphs: number, urls = (i: number) => `https://elsewhere.example/target/${i}`): ProviderFetchResult {
	const text: string[] = [];
	const list: string[] = [];
	for (let i = 0; i < paragraphs; i++) {
		text.push(`Paragraph ${i} ${"tide ".repeat(45)}ends with [a link][${i + 1}].`);
		list.push(urls(i));
	}
	return { content: text.join("\n\n"), extraction: "verbatim", references: { urls: list } };
}

/** The `[n]: …` lines of a window, by number. */
const listed = (content: string) => [...content.matchAll(/^\[(\d+)\]: /gm)].map((m) => Number(m[1]));

describe("a window's reference list", () => {
	it("lists exactly the references the window's text cites, inside maxChars, and pages through the whole text", () => {
		const raw = page(40);
		const maxChars = 1_000;
		let offset = 0;
		let text = "";
		for (let windows = 0; windows < 100; windows++) {
			const win = windowFetch(raw, fetchOf(offset, maxChars));
			expect(win.content.length).toBeLessThanOrEqual(maxChars);
			const body = raw.content.slice(offset, win.nextOffset ?? raw.content.length);
			expect(win.content.startsWith(body)).toBe(true);
			const cited = citedIn(body, raw.references!);
			expect(cited.length).toBeGreaterThan(0);
			expect(listed(win.content)).toEqual(cited);
			for (const n of cited) expect(win.content).toContain(`[${n}]: ${raw.references!.urls[n - 1]}`);
			expect(win.totalChars).toBe(raw.content.length);
			text += body;
			if (!win.truncated) break;
			offset = win.nextOffset!;
		}
		expect(text).toBe(raw.content);
	});

	it("counts the text only on both sides of the window header, the reference list after it on neither", () => {
		const raw = page(3);
		const total = raw.content.length;
		for (const offset of [0, 300]) {
			const window = windowFetch(raw, fetchOf(offset, 20_000));
			expect(window.content.length).toBeGreaterThan(total - offset);
			const result = { ...window, url: "https://site.example/a", provider: "direct", extraction: "verbatim" as const };
			const header = windowHeader({ ...result, attempts: [], latencyMs: 1 }, offset);
			expect(header).toBe(`characters ${offset}–${total} of ${total}`);
		}
	});

	it("leaves the window as it was when its text cites nothing, and without references", () => {
		const raw: ProviderFetchResult = { content: "plain words ".repeat(300), extraction: "verbatim" };
		const plain = windowFetch(raw, fetchOf(0, 1_000));
		expect(plain.content).toBe(raw.content.slice(0, 1_000));
		const quiet = windowFetch({ ...raw, references: { urls: ["https://x.example/"] } }, fetchOf(0, 1_000));
		expect(quiet.content).toBe(plain.content);
		expect(quiet.nextOffset).toBe(1_000);
	});

	it("keeps at least half the window as text when the targets are very long, so paging moves on", () => {
		const raw = page(10, (i) => `https://elsewhere.example/${"x".repeat(900)}/${i}`);
		const win = windowFetch(raw, fetchOf(0, 1_000));
		expect(win.nextOffset).toBeGreaterThanOrEqual(500);
	});

	it("shows same-site targets as paths under the site's line when the window's list pays for it", () => {
		const refs: LinkReferences = {
			urls: Array.from({ length: 6 }, (_, i) => `https://docs.site.example/guide/part-${i}`),
			origin: "https://docs.site.example",
		};
		const all = formatReferences(refs, [1, 2, 3, 4, 5, 6]).split("\n");
		expect(all[0]).toBe(pathsLine("https://docs.site.example"));
		expect(all[1]).toBe("[1]: /guide/part-0");
		expect(formatReferences(refs, [2])).toBe("[2]: https://docs.site.example/guide/part-1");
		expect(citedIn("see [a][2], ![img][9] and [b][2] and [c] [3]", refs)).toEqual([2]);
	});
});

describe("through the executor and the keyless fetcher", () => {
	let server: TestServer;
	beforeAll(async () => {
		server = await startServer();
		const paragraphs = Array.from(
			{ length: 60 },
			(_, i) =>
				`<p>Section ${i} of the harbour log. ${"The tide rose and fell. ".repeat(8)}` +
				`Read <a href="/log/${i}">entry ${i}</a>.</p>`,
		).join("");
		server.route("/log", (_req, res) => {
			res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
			res.end(`<html><head><title>Harbour log</title></head><body><article>${paragraphs}</article></body></html>`);
		});
	});
	afterAll(() => server.close());

	it("gives a later window the targets of its own links", async () => {
		const executor = createExecutor({
			bindings: new Map([
				[
					"direct",
					{
						config: { name: "direct", type: "direct", options: {} },
						definition: directDefault,
						resolveKeys: async () => [],
					},
				],
			]),
			fetchGuard: () => LOOPBACK,
		});
		const plan = (offset: number) => ({
			capability: "fetch" as const,
			request: { kind: "fetch" as const, url: `${server.origin}/log`, offset, maxChars: 2_000 },
			source: "default" as const,
			rule: null,
			chain: ["direct"],
			steps: [{ provider: "direct", type: "direct", status: "ready" as const }],
			policy: { cacheTtlMs: 60_000 },
			warnings: [],
		});
		const first = await executor.fetch(plan(0));
		const second = await executor.fetch(plan(first.nextOffset!));
		expect(second.cached).toBe(true);
		for (const win of [first, second]) {
			expect(win.content.length).toBeLessThanOrEqual(2_000);
			const numbers = listed(win.content);
			expect(numbers.length).toBeGreaterThan(0);
			for (const n of numbers) {
				const entry = new RegExp(`\\]\\[${n}\\]`);
				expect(win.content).toMatch(entry);
			}
		}
		const later = listed(second.content);
		expect(later.some((n) => !listed(first.content).includes(n))).toBe(true);
		expect(second.content).toMatch(
			new RegExp(`^\\[${later.at(-1)}\\]: /log/\\d+$|^\\[${later.at(-1)}\\]: ${server.origin}/log/\\d+$`, "m"),
		);
	});
});
