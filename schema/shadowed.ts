// Shadowed rules: a later rule that an earlier one covers entirely can never match. Earlier rules' patterns are
// indexed by host key and first path segment, so a rule is compared only with rules that could cover it.

import type { Rule } from "../engine/config-types.ts";
import { publicSuffixOf } from "../engine/site-normalize.ts";
import { covers, type SitePattern } from "../engine/sites.ts";
import type { NormalizeIssue } from "./validate.ts";

const subset = (inner: string[] | undefined, outer: string[] | undefined) =>
	outer === undefined || (inner?.every((x) => outer.includes(x)) ?? false);

/** The key and its parent-domain suffixes (`a.b.c` → a.b.c, b.c, c): where a covering pattern's key can be. */
function suffixKeys(key: string): string[] {
	const out = [key];
	for (let dot = key.indexOf("."); dot >= 0; dot = key.indexOf(".", dot + 1)) out.push(key.slice(dot + 1));
	return out;
}

/**
 * Earlier rules' patterns that may cover others, by host key (`name.*` patterns apart: their key is a bare name).
 * A pattern with a literal path is filed under its paths' first segments too, so a later pattern on a shared host
 * meets only those that could be a prefix of its path; one without a path, or with a glob path, meets all.
 */
interface Bucket {
	/** Positions of rules with a pattern here that has no path or a glob path. */
	wild: number[];
	/** Positions by the first segment of a literal path (`github.com/golang` → "golang"). */
	byLead?: Map<string, number[]>;
}

interface Index {
	hosts: Map<string, Bucket>;
	anySuffix: Map<string, Bucket>;
}

function pushOnce(list: number[], position: number): void {
	if (list.at(-1) !== position) list.push(position);
}

function file(index: Index, a: SitePattern, position: number): void {
	const map = a.kind === "any-suffix" ? index.anySuffix : index.hosts;
	let bucket = map.get(a.key);
	if (bucket === undefined) {
		bucket = { wild: [] };
		map.set(a.key, bucket);
	}
	if (a.path === undefined || a.glob) {
		pushOnce(bucket.wild, position);
		return;
	}
	bucket.byLead ??= new Map();
	for (const path of a.altPaths ? [a.path, ...a.altPaths] : [a.path]) {
		const lead = path[0] ?? "";
		const list = bucket.byLead.get(lead);
		if (list === undefined) bucket.byLead.set(lead, [position]);
		else pushOnce(list, position);
	}
}

/** First path segment every pattern covering `b` with a literal path must start with (see coversPath). */
function leadSegment(b: SitePattern): string | undefined {
	if (b.path === undefined) return undefined;
	if (!b.glob) return b.path[0];
	const first = b.path[0] ?? "";
	return first.includes("*") ? undefined : first;
}

/** Position lists where any pattern that covers `b` must be filed (a superset: covers() decides). */
function lookupsFor(index: Index, b: SitePattern): number[][] {
	const lead = leadSegment(b);
	const out: number[][] = [];
	const read = (map: Map<string, Bucket>, key: string) => {
		const bucket = map.get(key);
		if (bucket === undefined) return;
		if (bucket.wild.length > 0) out.push(bucket.wild);
		const led = lead === undefined ? undefined : bucket.byLead?.get(lead);
		if (led !== undefined) out.push(led);
	};
	for (const key of suffixKeys(b.key)) read(b.kind === "any-suffix" ? index.anySuffix : index.hosts, key);
	if (b.kind === "exact" && index.anySuffix.size > 0) {
		// `name.*` covers an exact host when name is a label-suffix of the host without its public suffix.
		const suffix = publicSuffixOf(b.key);
		if (suffix !== null && suffix !== b.key && b.key.endsWith(`.${suffix}`)) {
			for (const key of suffixKeys(b.key.slice(0, -(suffix.length + 1)))) read(index.anySuffix, key);
		}
	}
	return out;
}

/**
 * A later rule is shadowed when an earlier one matches everything it matches, for every capability it serves;
 * the first such earlier rule is named. Candidates are the earlier siteless rules plus those filed where a cover
 * of the later rule's most selective site must be, compared in rule order (the same answer as comparing all).
 */
export function reportShadowed(rules: Rule[], patterns: Map<number, SitePattern[]>, issues: NormalizeIssue[]): void {
	const index: Index = { hosts: new Map(), anySuffix: new Map() };
	const siteless: number[] = [];
	rules.forEach((later, j) => {
		const inner = patterns.get(later.index) ?? [];
		let candidates: number[] = siteless;
		if (later.sites && inner.length > 0) {
			let best: number[][] | undefined;
			let bestSize = Number.POSITIVE_INFINITY;
			for (const b of inner) {
				const lists = lookupsFor(index, b);
				let size = 0;
				for (const list of lists) size += list.length;
				if (size < bestSize) {
					best = lists;
					bestSize = size;
					if (size === 0) break;
				}
			}
			if (best && bestSize > 0) {
				const merged = new Set<number>(siteless);
				for (const list of best) for (const position of list) merged.add(position);
				candidates = [...merged].sort((x, y) => x - y);
			}
		}
		for (const position of candidates) {
			const earlier = rules[position] as Rule;
			if ((later.search && !earlier.search) || (later.fetch && !earlier.fetch)) continue;
			if (!subset(later.queryScript, earlier.queryScript)) continue;
			if (!subset(later.fileTypes, earlier.fileTypes)) continue;
			if (!subset(later.recency, earlier.recency)) continue;
			const outer = patterns.get(earlier.index);
			if (earlier.sites) {
				if (!later.sites || !outer) continue;
				if (!inner.every((b) => outer.some((a) => covers(a, b)))) continue;
			}
			issues.push({
				severity: "warning",
				at: ["rules", later.index, "name"],
				message: `rule "${later.name}" can never match: rule "${earlier.name}" before it covers it`,
				fix: `move "${later.name}" above "${earlier.name}" or narrow "${earlier.name}"`,
			});
			break;
		}
		if (!later.sites) siteless.push(j);
		else {
			for (const pattern of inner) file(index, pattern, j);
		}
	});
}
