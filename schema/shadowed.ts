// Shadowed rules: a later rule that an earlier one covers entirely can never match. Earlier rules' patterns are
// indexed by host key and first path segment, so a rule is compared only with rules that could cover it.

import type { Rule } from "../engine/config-types.ts";
import { ShardedMap } from "../engine/sharded-map.ts";
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
 * A pattern whose paths start with a known segment (a literal path, or a glob starting with a literal segment) is
 * filed under that segment, so a later pattern on a shared host meets only those that could match its path; one
 * without a path, or with a glob that may start anywhere, meets all.
 */
interface Bucket {
	/** Positions of rules with a pattern here that has no path. */
	wild: number[] | undefined;
	/** Positions of rules with a glob here whose first segment holds a `*`: any literal path may meet them. */
	globs: number[] | undefined;
	/** The same by canonical glob text: a glob is covered by another glob only when the two are equal. */
	globsBySource: Map<string, number[]> | undefined;
	/** Positions by the first segment of the paths a pattern matches (`github.com/golang/*` → "golang"). */
	byLead: Map<string, number[]> | undefined;
}

interface Index {
	/** A 1,000-rule file has ~5,000 host keys: small maps (engine/sharded-map.ts says why). */
	hosts: ShardedMap<Bucket>;
	anySuffix: Map<string, Bucket>;
}

function mapFor(index: Index, kind: SitePattern["kind"], key: string): Map<string, Bucket> {
	return kind === "any-suffix" ? index.anySuffix : index.hosts.shard(key);
}

/** Appends a position once (rules are filed in order, so a repeat is the last one); creates the list if needed. */
function pushOnce(list: number[] | undefined, position: number): number[] {
	if (list === undefined) return [position];
	if (list.at(-1) !== position) list.push(position);
	return list;
}

function fileUnder(map: Map<string, number[]>, key: string, position: number): void {
	const list = map.get(key);
	if (list === undefined) map.set(key, [position]);
	else pushOnce(list, position);
}

// Every pattern of every rule is filed once per load, and most hosts have one pattern: a bucket is one object
// of one shape, and its lists and maps exist only once something goes in them.
function file(index: Index, a: SitePattern, position: number): void {
	const map = mapFor(index, a.kind, a.key);
	let bucket = map.get(a.key);
	if (bucket === undefined) {
		bucket = { wild: undefined, globs: undefined, globsBySource: undefined, byLead: undefined };
		map.set(a.key, bucket);
	}
	if (a.path === undefined) {
		bucket.wild = pushOnce(bucket.wild, position);
		return;
	}
	const lead = a.glob ? literalFirst(a) : (a.path[0] ?? "");
	if (lead === undefined) {
		bucket.globs = pushOnce(bucket.globs, position);
		bucket.globsBySource ??= new Map();
		fileUnder(bucket.globsBySource, a.globSource ?? "", position);
		return;
	}
	bucket.byLead ??= new Map();
	fileUnder(bucket.byLead, lead, position);
	const alts = a.glob ? undefined : a.altPaths;
	if (alts !== undefined) for (let i = 0; i < alts.length; i++) fileUnder(bucket.byLead, alts[i]?.[0] ?? "", position);
}

/** A glob's first segment when it is one literal piece (no `*`): every path it matches starts with it. */
function literalFirst(pattern: SitePattern): string | undefined {
	const first = pattern.globSegments?.[0];
	return first?.kind === "segment" && first.pieces.length === 1 ? first.pieces[0] : undefined;
}

/** The first segment any pattern with a lead that covers `b` must have (see coversPath); undefined: none can. */
function leadSegment(b: SitePattern): string | undefined {
	if (b.path === undefined) return undefined;
	return b.glob ? literalFirst(b) : b.path[0];
}

/** Appends to `out` the lists of the bucket at `key` that may hold a cover of `b` (lead: leadSegment(b)). */
function read(map: Map<string, Bucket>, key: string, b: SitePattern, lead: string | undefined, out: number[][]): void {
	const bucket = map.get(key);
	if (bucket === undefined) return;
	if (bucket.wild !== undefined) out.push(bucket.wild);
	// A path-less `b` is covered by no glob; a glob `b` only by an equal glob; a literal path by any glob here.
	if (b.glob) {
		const same = bucket.globsBySource?.get(b.globSource ?? "");
		if (same !== undefined) out.push(same);
	} else if (b.path !== undefined && bucket.globs !== undefined) out.push(bucket.globs);
	const led = lead === undefined ? undefined : bucket.byLead?.get(lead);
	if (led !== undefined) out.push(led);
}

/**
 * Position lists where any pattern that covers `b` must be filed (a superset: covers() decides). The key's suffixes
 * are walked in place: every rule of a load asks this, in code not yet optimised.
 */
function lookupsFor(index: Index, b: SitePattern): number[][] {
	const lead = leadSegment(b);
	const out: number[][] = [];
	const key = b.key;
	for (let from = 0; from >= 0; ) {
		const suffix = from === 0 ? key : key.slice(from);
		read(mapFor(index, b.kind, suffix), suffix, b, lead, out);
		const dot = key.indexOf(".", from);
		from = dot < 0 ? -1 : dot + 1;
	}
	if (b.kind === "exact" && index.anySuffix.size > 0) {
		// `name.*` covers an exact host when name is a label-suffix of the host without its public suffix.
		const suffix = publicSuffixOf(key);
		if (suffix !== null && suffix !== key && key.endsWith(`.${suffix}`)) {
			for (const name of suffixKeys(key.slice(0, -(suffix.length + 1)))) read(index.anySuffix, name, b, lead, out);
		}
	}
	return out;
}

/**
 * The positions of sorted lists in ascending order, each once, merged lazily: a search that stops at the first
 * shadowing rule reads only up to it (a shared host's long list is not copied and sorted for every later rule).
 */
function* ascending(lists: number[][]): Generator<number> {
	const at = lists.map(() => 0);
	let last = -1;
	for (;;) {
		let min = Number.POSITIVE_INFINITY;
		let from = -1;
		lists.forEach((list, i) => {
			const value = list[at[i] as number];
			if (value !== undefined && value < min) {
				min = value;
				from = i;
			}
		});
		if (from < 0) return;
		at[from] = (at[from] as number) + 1;
		if (min !== last) yield min;
		last = min;
	}
}

/** The first earlier rule at `positions` (ascending) that covers `later` (its patterns `inner`) for all it serves. */
function firstCover(
	rules: Rule[],
	patterns: Map<number, SitePattern[]>,
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
		const outer = patterns.get(earlier.index);
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
 */
export function reportShadowed(rules: Rule[], patterns: Map<number, SitePattern[]>, issues: NormalizeIssue[]): void {
	const index: Index = { hosts: new ShardedMap(), anySuffix: new Map() };
	const siteless: number[] = [];
	// Indexed loops, and no iterator or list for a rule that meets no earlier rule: every rule and pattern of a load
	// passes here once, in code not yet optimised.
	for (let j = 0; j < rules.length; j++) {
		const later = rules[j] as Rule;
		const inner = patterns.get(later.index) ?? NO_PATTERNS;
		let found = NO_LISTS;
		let bestSize = siteless.length;
		if (later.sites && inner.length > 0) {
			bestSize = Number.POSITIVE_INFINITY;
			for (let k = 0; k < inner.length; k++) {
				const lists = lookupsFor(index, inner[k] as SitePattern);
				let size = 0;
				for (let l = 0; l < lists.length; l++) size += (lists[l] as number[]).length;
				if (size < bestSize) {
					found = lists;
					bestSize = size;
					if (size === 0) break;
				}
			}
		}
		// Most rules meet no earlier rule at all (bestSize counts the site candidates; siteless ones are added here).
		const earlier =
			bestSize === 0 && siteless.length === 0
				? undefined
				: firstCover(rules, patterns, later, inner, ascending([siteless, ...found]));
		if (earlier !== undefined) {
			issues.push({
				severity: "warning",
				at: ["rules", later.index, "name"],
				message: `rule "${later.name}" can never match: rule "${earlier.name}" before it covers it`,
				fix: `move "${later.name}" above "${earlier.name}" or narrow "${earlier.name}"`,
			});
		}
		if (!later.sites) siteless.push(j);
		else for (let k = 0; k < inner.length; k++) file(index, inner[k] as SitePattern, j);
	}
}
