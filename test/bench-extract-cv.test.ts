// The extraction bench's site-grouped evaluation (bench/extract-cv.ts, bench/extract.ts): pages grouped by
// registrable domain, a frozen split of whole sites, k folds over the rest, and any number of corpus folders in the
// corpus's format (annotations.json + html/) scored in one run. Corpora here are made up in temp folders.

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { benchExtract, type ExtractNumbers } from "../bench/extract.ts";
import { assignFolds, CV_DEFAULTS, isFrozenSite, siteOf } from "../bench/extract-cv.ts";

const words = (seed: string, n: number) => Array.from({ length: n }, (_, i) => `${seed}${i}`).join(" ");

function page(keep: string, drop: string): string {
	return `<html><head><title>T</title></head><body><nav><a href="/a">${drop}</a> <a href="/b">Home</a></nav>
<article><h1>T</h1><p>${keep}. ${words("w", 120)}.</p></article><footer>${drop}</footer></body></html>`;
}

/** A corpus folder with one page per site; `broken` sites are annotated with a snippet their page lacks. */
function corpus(sites: string[], broken: Set<string>, gzip: boolean): string {
	const dir = mkdtempSync(join(tmpdir(), "extract-corpus-"));
	mkdirSync(join(dir, "html"));
	const annotations: Record<string, { url: string; with: string[]; without: string[] }> = {};
	sites.forEach((site, i) => {
		const name = `${String(i).padStart(4, "0")}.html${gzip ? ".gz" : ""}`;
		const keep = `Kept sentence of ${site.replace(/\W/g, "")}`;
		const html = page(keep, `Chrome of ${site.replace(/\W/g, "")}`);
		writeFileSync(join(dir, "html", name), gzip ? gzipSync(html) : html);
		const missing = broken.has(site) ? ["A sentence this page never had"] : [];
		annotations[name] = { url: `https://www.${site}/post/${i}`, with: [keep, ...missing], without: [] };
	});
	writeFileSync(join(dir, "annotations.json"), JSON.stringify(annotations));
	return dir;
}

describe("sites of the extraction corpus", () => {
	it("groups a page by its registrable domain, a hosted blog by its own, an archived copy by the page archived", () => {
		const sites: [string, string][] = [
			["https://www.example.co.uk/a", "example.co.uk"],
			["https://news.example.co.uk/b", "example.co.uk"],
			["https://alice.github.io/x", "alice.github.io"],
			["https://bob.github.io/x", "bob.github.io"],
			["https://web.archive.org/web/2016/http://www.blog.example.de/p", "example.de"],
			["https://web.archive.org/web/2013/the-pain.net/2008/05/x", "the-pain.net"],
			["hard::jamaicaobserver.com-attacks.html", "jamaicaobserver.com"],
			["hard::iwr.de.IWR-Pressedienst.html", "iwr.de"],
		];
		for (const [url, site] of sites) expect(siteOf(url), url).toBe(site);
	});

	it("deals every open site into exactly one fold, folds even to one site, and keeps frozen sites out", () => {
		const sites = Array.from({ length: 103 }, (_, i) => `site${i}.example.com`);
		const folds = assignFolds([...sites, ...sites]);
		const frozen = sites.filter(isFrozenSite);
		// About a fifth of the sites, by hash: fixed, and neither empty nor most.
		expect(frozen.length).toBeGreaterThan(10);
		expect(frozen.length).toBeLessThan(35);
		for (const site of frozen) expect(folds.has(site)).toBe(false);
		expect(folds.size).toBe(sites.length - frozen.length);
		const sizes = new Array<number>(CV_DEFAULTS.folds).fill(0);
		for (const fold of folds.values()) sizes[fold]!++;
		expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
		// A site's fold does not depend on which other sites are there beyond its order: frozen ones never move.
		expect(sites.slice(0, 50).filter(isFrozenSite)).toEqual(frozen.filter((site) => sites.indexOf(site) < 50));
	});
});

describe("the extract scenario on corpus folders", () => {
	it("scores several corpus folders in one run and reports folds by site and the frozen split apart", async () => {
		const sites = Array.from({ length: 40 }, (_, i) => `corp${i}.org`);
		const open = sites.filter((site) => !isFrozenSite(site));
		// One open site's page misses a snippet: its fold alone loses recall.
		const broken = new Set([open[0]!]);
		const first = corpus(sites.slice(0, 25), broken, true);
		const second = corpus(sites.slice(25), broken, false);
		const report = await benchExtract({ dirs: [first, second], baseline: false });
		const n = report.numbers as ExtractNumbers;
		expect(n.pages).toBe(40);
		expect(n.corpora).toEqual([
			{ dir: first, pages: 25 },
			{ dir: second, pages: 15 },
		]);
		const { cv, frozen } = n.ours;
		expect(cv.folds).toHaveLength(CV_DEFAULTS.folds);
		expect(frozen.sites).toBe(sites.length - open.length);
		expect(cv.folds.reduce((sum, fold) => sum + fold.pages, 0) + frozen.pages).toBe(40);
		expect(frozen.f1).toBe(1);
		expect(cv.folds.filter((fold) => fold.recall < 1)).toHaveLength(1);
		expect(cv.worstF1).toBeLessThan(1);
		expect(cv.meanF1).toBeGreaterThan(cv.worstF1);
		expect(cv.worstPrecision).toBe(1);
		expect(n.ours.holdout.f1).toBe(frozen.f1);
		expect(n.convertSeconds).toBeGreaterThan(0);
		expect(report.notes.join("\n")).toMatch(/by site, 5-fold: F1 mean [\d.]+ worst [\d.]+/);
		expect(report.goals.map((goal) => goal.goal)).toContain("extraction F1 ≥ 0.94, mean of the folds by site");
	});

	it("judges the F1 goal held out: each fold scored with block weights fit on the other folds only", async () => {
		const sites = Array.from({ length: 40 }, (_, i) => `held${i}.org`);
		const open = sites.filter((site) => !isFrozenSite(site));
		const report = await benchExtract({ dirs: [corpus(sites, new Set([open[0]!]), true)], baseline: false });
		const n = report.numbers as ExtractNumbers;
		// The open sites' folds, scored again by bench/extract-blocks.ts's fit (the frozen split is never read there).
		expect(n.heldOut.folds).toHaveLength(CV_DEFAULTS.folds);
		expect(n.heldOut.worstF1).toBe(Math.min(...n.heldOut.folds));
		expect(n.heldOut.folds.filter((f1) => f1 < 1)).toHaveLength(1);
		const goal = report.goals.find((g) => g.goal.startsWith("extraction F1 ≥ 0.94, mean of the folds"))!;
		expect(goal.measured).toContain(`held out (block weights fit without the fold): mean ${n.heldOut.meanF1}`);
		expect(goal.met).toBe(n.heldOut.meanF1 >= 0.94);
	});
});
