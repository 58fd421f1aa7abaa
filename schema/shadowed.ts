// Shadowed rules: a later rule that an earlier one covers entirely can never match. Earlier rules' patterns are
// found through the routing index (engine/site-index.ts), filled rule by rule, so a rule is compared only with rules
// that could cover it; the filled index is then the one compile routes with (engine/route.ts handOverRules).

import type { Rule } from "../engine/config-types.ts";
import { GrowingSiteIndex } from "../engine/site-index.ts";
import { covers, type SitePattern } from "../engine/sites.ts";
import type { NormalizeIssue } from "./validate.ts";

const subset = (inner: string[] | undefined, outer: string[] | undefined) =>
	outer === undefined || (inner?.every((x) => outer.includes(x)) ?? false);

/**
 * The rule positions of sorted id lists (and the siteless rules' positions) in ascending order, each once, merged
 * lazily: a search that stops at the first shadowing rule reads only up to it (a shared host's long list is not
 * copied and sorted for every later rule). Ids ascend with positions: rules are added to the index in order.
 */
function* ascending(index: GrowingSiteIndex<number>, siteless: number[], lists: number[][]): Generator<number> {
	const at = lists.map(() => 0);
	let nextSiteless = 0;
	let last = -1;
	for (;;) {
		let min = siteless[nextSiteless] ?? Number.POSITIVE_INFINITY;
		let from = -1;
		for (let i = 0; i < lists.length; i++) {
			const id = (lists[i] as number[])[at[i] as number];
			const position = id === undefined ? undefined : index.valueAt(id);
			if (position !== undefined && position < min) {
				min = position;
				from = i;
			}
		}
		if (from >= 0) at[from] = (at[from] as number) + 1;
		else if (nextSiteless < siteless.length) nextSiteless++;
		else return;
		if (min !== last) yield min;
		last = min;
	}
}

/** The first earlier rule at `positions` (ascending) that covers `later` (its patterns `inner`) for all it serves. */
function firstCover(
	rules: Rule[],
	patterns: readonly SitePattern[][],
	later: Rule,
	inner: SitePattern[],
	positions: Iterable<number>,
): Rule | undefined {
	for (const position of positions) {
		const earlier = rules[position] as Rule;
		if ((later.search && !earlier.search) || (later.fetch && !earlier.fetch)) continue;
		if (!subset(later.queryScript, earlier.queryScript)) continue;
		if (!subset(later.fileTypes, earlier.fileTypes)) continue;
		if (!subset(later.recency, earlier.recency)) continue;
		const outer = patterns[position];
		if (earlier.sites) {
			if (!later.sites || !outer) continue;
			if (!inner.every((b) => outer.some((a) => covers(a, b)))) continue;
		}
		return earlier;
	}
	return undefined;
}

const NO_PATTERNS: SitePattern[] = [];
const NO_LISTS: number[][] = [];

/**
 * A later rule is shadowed when an earlier one matches everything it matches, for every capability it serves;
 * the first such earlier rule is named. Candidates are the earlier siteless rules plus those filed where a cover
 * of the later rule's most selective site must be, compared in rule order (the same answer as comparing all).
 * `patterns` holds each rule's parsed sites by its position in `rules`. Returns the index of every rule's patterns,
 * valued by the rule's position.
 */
export function reportShadowed(
	rules: Rule[],
	patterns: readonly SitePattern[][],
	issues: NormalizeIssue[],
): GrowingSiteIndex<number> {
	const index = new GrowingSiteIndex<number>();
	const siteless: number[] = [];
	// Indexed loops, and no iterator for a rule that meets no earlier rule: every rule and pattern of a load passes
	// here once, in code not yet optimised. The search's list of lists is reused until one is kept.
	let lists: number[][] = [];
	for (let j = 0; j < rules.length; j++) {
		const later = rules[j] as Rule;
		const inner = patterns[j] ?? NO_PATTERNS;
		let found = NO_LISTS;
		let bestSize = 0;
		if (later.sites && inner.length > 0) {
			bestSize = Number.POSITIVE_INFINITY;
			for (let k = 0; k < inner.length; k++) {
				lists.length = 0;
				index.coverCandidates(inner[k] as SitePattern, lists);
				let size = 0;
				for (let l = 0; l < lists.length; l++) size += (lists[l] as number[]).length;
				if (size === 0) {
					found = NO_LISTS;
					bestSize = 0;
					break;
				}
				if (size < bestSize) {
					found = lists;
					lists = [];
					bestSize = size;
				}
			}
		}
		// Most rules meet no earlier rule at all (bestSize counts the site candidates; siteless ones are added here).
		const earlier =
			bestSize === 0 && siteless.length === 0
				? undefined
				: firstCover(rules, patterns, later, inner, ascending(index, siteless, found));
		if (earlier !== undefined) {
			issues.push({
				severity: "warning",
				at: ["rules", later.index, "name"],
				message: `rule "${later.name}" can never match: rule "${earlier.name}" before it covers it`,
				fix: `move "${later.name}" above "${earlier.name}" or narrow "${earlier.name}"`,
			});
		}
		if (!later.sites) siteless.push(j);
		else for (let k = 0; k < inner.length; k++) index.add(inner[k] as SitePattern, j);
	}
	return index;
}
