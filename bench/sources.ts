// Scenario "sources": the characters the model reads for the same facts, a page's HTML extraction against its source
// reader or markdown twin, on the recorded coder pages of bench/fixtures/sources/ (bench/sources-corpus.ts made
// them), served on loopback with a fixed delay per answer standing in for a round trip. Reports the ratio (goal
// ≤ 0.6×, every comment and version kept) and the added latency (goal: at most one round trip over the page's).

import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { withReferenceList } from "../engine/link-references.ts";
import type { CallContext, ProviderFetchResult } from "../providers/contract.ts";
import { parsePage } from "../providers/direct/dom.ts";
import { renderTree } from "../providers/direct/markdown.ts";
import { MarkdownHosts } from "../providers/direct/markdown-twins.ts";
import { createDirectProvider } from "../providers/direct/provider.ts";
import { sourceSettings } from "../providers/sources/settings.ts";
import { SOURCES } from "../providers/sources/source-list.ts";
import { CORPUS_DIR, type CorpusPage } from "./sources-corpus.ts";
import { median, nowMs, round, type ScenarioReport, summarize } from "./stats.ts";

export const SOURCES_BENCH_DEFAULTS = { delayMs: 40, goalRatio: 0.6 };

export interface SourcesNumbers {
	pages: number;
	/** Characters shown (text and link list) by the HTML extraction and by the reader or twin, summed. */
	htmlChars: number;
	sourceChars: number;
	/** Reader or twin against the HTML extraction as it is (which may drop facts). */
	ratioToExtraction: number;
	/** Characters of the HTML's text with every fact kept (sameFactsHtml), summed, and the ratio to them. */
	sameFactsChars: number;
	ratio: number;
	/** Per kind of page: [html chars, source chars]. */
	byKind: Record<string, { pages: number; ratio: number }>;
	/** Facts (comments, versions, answers, sections) found, of all. */
	factsSource: { found: number; of: number };
	factsHtml: { found: number; of: number };
	/** Wall time per page, ms: the page fetch and the reader or twin, with delayMs per answer. */
	latencyHtmlP50: number;
	latencySourceP50: number;
	/** Pages whose reader took more than one round trip beyond the page fetch. */
	overOneExtraRoundTrip: number;
}

export type SourcesReport = ScenarioReport<SourcesNumbers>;

export function loadCorpus(dir = CORPUS_DIR): CorpusPage[] {
	return readdirSync(dir)
		.filter((name) => name.endsWith(".json"))
		.sort()
		.map((name) => JSON.parse(readFileSync(join(dir, name), "utf8")) as CorpusPage);
}

interface Site {
	origin: string;
	host: string;
	close(): Promise<void>;
}

/** A loopback server answering `routes` by path and query, else by path alone, after `delayMs`. */
async function serve(routes: Map<string, { type: string; body: string }>, delayMs: number): Promise<Site> {
	const server: Server = createServer((req, res) => {
		const url = new URL(req.url ?? "/", "http://x");
		const route = routes.get(`${url.pathname}${url.search}`) ?? routes.get(url.pathname);
		setTimeout(() => {
			if (route) res.writeHead(200, { "content-type": route.type }).end(route.body);
			else res.writeHead(404, { "content-type": "text/plain" }).end("not found");
		}, delayMs);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		host: `127.0.0.1:${port}`,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

const shown = (result: ProviderFetchResult) => withReferenceList(result.content, result.references);
const flat = (text: string) => text.replace(/\s+/g, " ");
const keepsAll = (text: string, facts: readonly string[]) => facts.every((fact) => flat(text).includes(flat(fact)));

/**
 * The HTML's text with every fact kept: the extraction when it keeps them all, else the whole page rendered by the
 * same renderer (main-content selection drops GitHub's comment threads and registries' version tables as chrome).
 */
function sameFactsHtml(page: CorpusPage, extracted: string, url: string): string {
	if (keepsAll(extracted, page.facts)) return extracted;
	const parsed = parsePage(page.html);
	const whole = renderTree(parsed.body, { format: "markdown", links: "references", baseUrl: url, pageUrl: url });
	return withReferenceList(whole.text, whole.references);
}

export async function benchSources(options: { pages?: number; delayMs?: number } = {}): Promise<SourcesReport> {
	const delayMs = options.delayMs ?? SOURCES_BENCH_DEFAULTS.delayMs;
	const corpus = loadCorpus().slice(0, options.pages);
	const api = new Map<string, { type: string; body: string }>();
	const pages = new Map<string, { type: string; body: string }>();
	const docs = new Map<string, { type: string; body: string }>([
		["/llms.txt", { type: "text/plain", body: "# Example docs\n\n- [Docs](/docs/warm.md)\n" }],
		["/docs/warm", { type: "text/html", body: "<html><body><p>warm</p></body></html>" }],
	]);
	for (const page of corpus) {
		for (const [path, body] of Object.entries(page.api)) {
			const html = typeof body === "string";
			api.set(
				path,
				html ? { type: "text/html; charset=utf-8", body } : { type: "application/json", body: JSON.stringify(body) },
			);
		}
		const target = page.kind === "docs" ? docs : pages;
		target.set(page.path, { type: "text/html; charset=utf-8", body: page.html });
		if (page.twin) docs.set(`${page.path}.md`, { type: "text/markdown; charset=utf-8", body: page.twin });
	}
	const [apiSite, pageSite, docsSite] = await Promise.all([
		serve(api, delayMs),
		serve(pages, delayMs),
		serve(docs, delayMs),
	]);
	try {
		const off = Object.fromEntries(SOURCES.map((s) => [s.name, { enabled: false }]));
		const on = Object.fromEntries(
			SOURCES.filter((s) => s.origin).map((s) => [
				s.name,
				{
					[s.origin!.option]: apiSite.origin,
					...(s.second ? { [s.second.option]: apiSite.origin } : {}),
					hosts: [pageSite.host],
				},
			]),
		);
		const call = (sources: ReturnType<typeof sourceSettings>): CallContext => ({
			config: { name: "direct", type: "direct", options: {} },
			signal: new AbortController().signal,
			timeoutMs: 30_000,
			onProgress: () => {},
			fetchGuard: { allowRanges: ["127.0.0.0/8"] },
			sources,
		});
		const before = call(sourceSettings(off));
		const after = call(sourceSettings(on));
		const hosts = new MarkdownHosts();
		const provider = createDirectProvider({ markdownHosts: hosts });
		// The docs host's llms.txt is learnt once, as a first page of the host would.
		await provider.fetch!({ kind: "fetch", url: `${docsSite.origin}/docs/warm`, offset: 0, maxChars: 20_000 }, after);

		let htmlChars = 0;
		let sameFactsChars = 0;
		let sourceChars = 0;
		const byKind: Record<string, { pages: number; html: number; source: number }> = {};
		const facts = { source: 0, html: 0, of: 0 };
		const latencyHtml: number[] = [];
		const latencySource: number[] = [];
		let over = 0;
		for (const page of corpus) {
			const origin = page.kind === "docs" ? docsSite.origin : pageSite.origin;
			const request = { kind: "fetch" as const, url: `${origin}${page.path}`, offset: 0, maxChars: 20_000 };
			let started = nowMs();
			const html = shown(await provider.fetch!(request, before));
			const htmlMs = nowMs() - started;
			started = nowMs();
			const source = shown(await provider.fetch!(request, after));
			const sourceMs = nowMs() - started;
			latencyHtml.push(htmlMs);
			latencySource.push(sourceMs);
			// One round trip more than the page's, with half a round trip of slack for conversion and scheduling.
			if (sourceMs > htmlMs + delayMs * 1.5) over++;
			const same = sameFactsHtml(page, html, request.url);
			htmlChars += html.length;
			sameFactsChars += same.length;
			sourceChars += source.length;
			const kind = byKind[page.kind] ?? { pages: 0, html: 0, source: 0 };
			byKind[page.kind] = kind;
			kind.pages++;
			kind.html += same.length;
			kind.source += source.length;
			const [flatHtml, flatSource] = [flat(html), flat(source)];
			for (const fact of page.facts) {
				facts.of++;
				if (flatSource.includes(flat(fact))) facts.source++;
				if (flatHtml.includes(flat(fact))) facts.html++;
			}
		}
		const ratio = sourceChars / sameFactsChars;
		const numbers: SourcesNumbers = {
			pages: corpus.length,
			htmlChars,
			sourceChars,
			ratioToExtraction: round(sourceChars / htmlChars),
			sameFactsChars,
			ratio: round(ratio),
			byKind: Object.fromEntries(
				Object.entries(byKind).map(([kind, k]) => [kind, { pages: k.pages, ratio: round(k.source / k.html) }]),
			),
			factsSource: { found: facts.source, of: facts.of },
			factsHtml: { found: facts.html, of: facts.of },
			latencyHtmlP50: round(median(latencyHtml)),
			latencySourceP50: round(median(latencySource)),
			overOneExtraRoundTrip: over,
		};
		const kinds = Object.entries(numbers.byKind)
			.map(([kind, k]) => `${kind} ${k.ratio}× (${k.pages})`)
			.join(", ");
		return {
			numbers,
			rows: [
				{
					label: `sources: one coder page, ${delayMs} ms a round trip`,
					unit: "ms",
					oursName: "reader or twin",
					ours: summarize(latencySource),
					baseName: "page + HTML extraction",
					base: summarize(latencyHtml),
				},
			],
			goals: [
				{
					goal: `characters read ≤ ${SOURCES_BENCH_DEFAULTS.goalRatio}× the HTML extraction's, every fact kept`,
					measured: `${numbers.ratio}× (${sourceChars} / ${sameFactsChars} characters on ${corpus.length} pages); facts ${facts.source}/${facts.of}`,
					met: ratio <= SOURCES_BENCH_DEFAULTS.goalRatio && facts.source === facts.of,
				},
				{
					goal: "a reader takes at most one round trip more than the page",
					measured: `${over} of ${corpus.length} pages over; p50 ${numbers.latencySourceP50} ms against ${numbers.latencyHtmlP50} ms`,
					met: over === 0,
				},
			],
			notes: [
				`by kind, against the HTML's text with every fact kept: ${kinds}`,
				`against the HTML extraction as it is: ${numbers.ratioToExtraction}× (${htmlChars} characters), which keeps ${facts.html} of the ${facts.of} facts`,
			],
		};
	} finally {
		await Promise.all([apiSite.close(), pageSite.close(), docsSite.close()]);
	}
}
