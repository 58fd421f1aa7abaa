// The routing index over site patterns: a lookup walks the URL host's label suffixes (a.b.c → a.b.c, b.c, c)
// instead of scanning every pattern, then verifies the few candidates with matchSite.
// Values keep insertion order, because rules are first-match-wins.

import { matchSite } from "./site-match.ts";
import { aliasKey, isIpHost, type NormalizedUrl, publicSuffixOf } from "./site-normalize.ts";
import type { SitePattern } from "./site-parse.ts";

export interface SiteIndexEntry<T> {
	pattern: SitePattern;
	value: T;
}

/** One value whose pattern matched, with its first matching pattern (in entry order). */
export interface SiteMatch<T> {
	value: T;
	pattern: SitePattern;
}

export interface SiteIndex<T> {
	/**
	 * Values with at least one pattern that matches `url` (verified, not mere candidates), each once with its
	 * first matching pattern, ordered by the value's first insertion. Several entries may share a value
	 * (a rule with several `sites`).
	 */
	candidates(url: NormalizedUrl): SiteMatch<T>[];
	/** Number of entries indexed. */
	readonly size: number;
}

/** Files `id` under `key` once (ids come in order, so a repeat is the last one: an X post's two other forms). */
function add(map: Map<string, number[]>, key: string, id: number): void {
	const ids = map.get(key);
	if (ids === undefined) map.set(key, [id]);
	else if (ids.at(-1) !== id) ids.push(id);
}

/** The `name` label a `name.*` host is filed under: the label just left of the host's public suffix. */
function nameLabel(host: string): string | undefined {
	const suffix = publicSuffixOf(host);
	if (suffix === null || suffix === host || !host.endsWith(`.${suffix}`)) return undefined;
	const rest = host.slice(0, -(suffix.length + 1));
	return rest.slice(rest.lastIndexOf(".") + 1);
}

/**
 * The first path segment every URL the pattern matches starts with (matchPath: a literal path is a segment prefix;
 * a glob's literal first segment must equal the URL's), or undefined when any may. X-post forms (altPaths) add
 * their own first segments, filed as well.
 */
function leadOf(pattern: SitePattern): string | undefined {
	if (pattern.path === undefined) return undefined;
	if (pattern.globSegments === undefined) return pattern.path[0] ?? "";
	const first = pattern.globSegments[0];
	return first?.kind === "segment" && first.pieces.length === 1 ? first.pieces[0]! : undefined;
}

/** Builds the index; entries are not copied, so patterns must not be mutated afterwards. */
export function createSiteIndex<T>(entries: Array<SiteIndexEntry<T>>): SiteIndex<T> {
	/** host and *.host patterns without a leading path segment to file by, by alias key (the host's suffixes). */
	const bySuffix = new Map<string, number[]>();
	/**
	 * host and *.host patterns whose every match starts with a known first path segment, by alias key and then that
	 * segment: a URL on a host many rules put paths under (github.com/<org>) meets only its own org's patterns.
	 */
	const bySuffixLead = new Map<string, Map<string, number[]>>();
	/** =host and IP patterns by their one host. */
	const byHost = new Map<string, number[]>();
	/** name.* patterns by the last label of `name`. */
	const byName = new Map<string, number[]>();
	const valueRank = new Map<T, number>();
	const rank: number[] = [];
	let lastValue: T | undefined;
	let lastRank = -1;
	for (let id = 0; id < entries.length; id++) {
		const { pattern, value } = entries[id]!;
		// A rule's patterns are adjacent: only a new value costs map lookups.
		if (id === 0 || value !== lastValue) {
			lastValue = value;
			lastRank = valueRank.get(value) ?? valueRank.size;
			if (lastRank === valueRank.size) valueRank.set(value, lastRank);
		}
		rank.push(lastRank);
		if (pattern.kind === "host" || pattern.kind === "subdomains") {
			const lead = leadOf(pattern);
			if (lead === undefined) add(bySuffix, pattern.key, id);
			else {
				let byLead = bySuffixLead.get(pattern.key);
				if (byLead === undefined) {
					byLead = new Map();
					bySuffixLead.set(pattern.key, byLead);
				}
				add(byLead, lead, id);
				const alts = pattern.altPaths;
				if (alts !== undefined) for (let k = 0; k < alts.length; k++) add(byLead, alts[k]?.[0] ?? "", id);
			}
		} else if (pattern.kind === "any-suffix") add(byName, pattern.host.slice(pattern.host.lastIndexOf(".") + 1), id);
		else add(byHost, pattern.key, id);
	}
	// Entries in value order (a compiled table files rules in rule order): sorted ids then give ranks in order, so
	// one pass finds each value's first match with no map and no second sort.
	const ordered = rank.every((r, id) => id === 0 || r >= rank[id - 1]!);

	function push(ids: number[], list: number[] | undefined): void {
		if (list !== undefined) for (const id of list) ids.push(id);
	}

	/** Some label of the host left of its last one is the last label of a `name.*` name (before asking tldts). */
	function mayHaveName(host: string): boolean {
		for (let start = 0, dot = host.indexOf("."); dot >= 0; start = dot + 1, dot = host.indexOf(".", start)) {
			if (byName.has(host.slice(start, dot))) return true;
		}
		return false;
	}

	function collect(url: NormalizedUrl): number[] {
		const ids: number[] = [];
		const key = aliasKey(url.host);
		push(ids, byHost.get(key));
		if (isIpHost(url.host)) return ids;
		const lead = url.path[0] ?? "";
		for (let suffix = key; ; ) {
			push(ids, bySuffix.get(suffix));
			if (bySuffixLead.size > 0) push(ids, bySuffixLead.get(suffix)?.get(lead));
			const dot = suffix.indexOf(".");
			if (dot < 0) break;
			suffix = suffix.slice(dot + 1);
		}
		if (byName.size > 0 && mayHaveName(url.host)) {
			const label = nameLabel(url.host);
			if (label !== undefined) push(ids, byName.get(label));
		}
		return ids;
	}

	return {
		size: entries.length,
		candidates(url) {
			const ids = collect(url);
			if (ids.length > 1) ids.sort((x, y) => x - y);
			if (ordered) {
				const out: SiteMatch<T>[] = [];
				let last = -1;
				for (const id of ids) {
					// Equal ranks are adjacent here: skip the value once one of its patterns matched.
					if (rank[id] === last) continue;
					const entry = entries[id]!;
					if (!matchSite(entry.pattern, url)) continue;
					out.push({ value: entry.value, pattern: entry.pattern });
					last = rank[id]!;
				}
				return out;
			}
			const found = new Map<number, SiteMatch<T>>();
			for (const id of ids) {
				const entry = entries[id]!;
				if (found.has(rank[id]!) || !matchSite(entry.pattern, url)) continue;
				found.set(rank[id]!, { value: entry.value, pattern: entry.pattern });
			}
			return [...found.entries()].sort(([x], [y]) => x - y).map(([, match]) => match);
		},
	};
}
