// Site-grouped evaluation of the extraction scenario (bench/extract.ts): pages are grouped by the registrable domain
// of their annotated URL, a frozen test split of whole sites is set apart by a hash of the domain, and the other
// sites are dealt into k folds. A heuristic is judged by every fold (mean and worst), never by the pages it was for.

import { delimiter } from "node:path";
import { parse } from "tldts";
import { addCounts, type Counts, emptyCounts, type Scores, scores } from "./extract-score.ts";
import { round } from "./stats.ts";

/** The corpus folders EXTRACT_CORPUS names (one or more, joined by the path delimiter); none by default. */
export function corpusDirs(): string[] {
	return process.env.EXTRACT_CORPUS?.split(delimiter).filter(Boolean) ?? [];
}

export const CV_DEFAULTS = {
	/** Share of sites (by a hash of the domain) in the frozen test split, in percent. */
	frozenPercent: 20,
	folds: 5,
};

/** One page's counts and the site it belongs to. */
export interface SitePage {
	site: string;
	counts: Counts;
}

export interface FoldScores extends Scores {
	sites: number;
	pages: number;
}

export interface CrossValidation {
	folds: FoldScores[];
	meanF1: number;
	worstF1: number;
	meanPrecision: number;
	worstPrecision: number;
	meanRecall: number;
	worstRecall: number;
}

/** The frozen split's figure: sites and pages in it, and its scores over all of its pages. */
export interface FrozenSplit extends FoldScores {}

/**
 * The site a page belongs to: the registrable domain of its URL (private suffixes count, so two blogs on
 * github.io are two sites), the archived page's own for a web.archive.org copy, and for an annotation named
 * `source::host-slug.html` the host it names. Anything else is a site of its own.
 */
export function siteOf(url: string): string {
	const archived = /^https?:\/\/web\.archive\.org\/web\/[^/]+\/(.+)$/i.exec(url);
	if (archived) return siteOf(/^[a-z]+:\/\//i.test(archived[1]!) ? archived[1]! : `http://${archived[1]}`);
	const direct = parse(url, { allowPrivateDomains: true });
	if (direct.domain && (direct.isIcann || direct.isPrivate)) return direct.domain;
	const named = /^[\w-]+::(.+)$/.exec(url)?.[1];
	if (named) {
		const labels = named.split("-")[0]!.toLowerCase().split(".");
		for (let n = labels.length; n >= 2; n--) {
			const host = parse(labels.slice(0, n).join("."), { allowPrivateDomains: true });
			if (host.domain && (host.isIcann || host.isPrivate)) return host.domain;
		}
	}
	return url;
}

/** FNV-1a of a string, with a seed so that the frozen split and the folds are independent draws. */
function hash(text: string, seed: number): number {
	let value = (0x811c9dc5 ^ seed) >>> 0;
	for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193) >>> 0;
	return value;
}

/** True for a site of the frozen test split: fixed by its domain, so adding pages or corpora never moves a site. */
export function isFrozenSite(site: string): boolean {
	return hash(site, 0) % 100 < CV_DEFAULTS.frozenPercent;
}

/**
 * The fold of each site outside the frozen split: sites ordered by a second hash of the domain and dealt in turn,
 * so folds hold as many sites as one another (±1) and a site's pages never straddle two folds.
 */
export function assignFolds(sites: Iterable<string>, folds = CV_DEFAULTS.folds): Map<string, number> {
	const open = [...new Set(sites)].filter((site) => !isFrozenSite(site));
	open.sort((a, b) => hash(a, 1) - hash(b, 1) || (a < b ? -1 : a > b ? 1 : 0));
	return new Map(open.map((site, i) => [site, i % folds]));
}

function fixed(counts: Counts, sites: number, pages: number): FoldScores {
	const s = scores(counts);
	return { sites, pages, precision: round(s.precision), recall: round(s.recall), f1: round(s.f1) };
}

/** Scores every fold of the open sites (counts summed per fold, as the corpus's method sums per run). */
export function crossValidate(pages: readonly SitePage[], folds = CV_DEFAULTS.folds): CrossValidation {
	const foldOf = assignFolds(
		pages.map((page) => page.site),
		folds,
	);
	const counts = Array.from({ length: folds }, emptyCounts);
	const sites = Array.from({ length: folds }, () => new Set<string>());
	const sizes = new Array<number>(folds).fill(0);
	for (const page of pages) {
		const fold = foldOf.get(page.site);
		if (fold === undefined) continue;
		addCounts(counts[fold]!, page.counts);
		sites[fold]!.add(page.site);
		sizes[fold]!++;
	}
	const scored = counts.map((c, i) => fixed(c, sites[i]!.size, sizes[i]!)).filter((fold) => fold.pages > 0);
	const mean = (key: keyof Scores) => round(scored.reduce((sum, fold) => sum + fold[key], 0) / (scored.length || 1));
	const worst = (key: keyof Scores) => (scored.length ? Math.min(...scored.map((fold) => fold[key])) : 0);
	return {
		folds: scored,
		meanF1: mean("f1"),
		worstF1: worst("f1"),
		meanPrecision: mean("precision"),
		worstPrecision: worst("precision"),
		meanRecall: mean("recall"),
		worstRecall: worst("recall"),
	};
}

/** The frozen split's scores: one figure, reported, never tuned on. */
export function frozenSplit(pages: readonly SitePage[]): FrozenSplit {
	const counts = emptyCounts();
	const sites = new Set<string>();
	let size = 0;
	for (const page of pages) {
		if (!isFrozenSite(page.site)) continue;
		addCounts(counts, page.counts);
		sites.add(page.site);
		size++;
	}
	return fixed(counts, sites.size, size);
}
