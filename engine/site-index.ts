// The routing index over site patterns: a lookup walks the URL host's label suffixes (a.b.c → a.b.c, b.c, c)
// instead of scanning every pattern, then verifies the few candidates with matchSite.
// Values keep insertion order, because rules are first-match-wins.

import { matchSite } from "./site-match.ts";
import { aliasKey, isIpHost, type NormalizedUrl, publicSuffixOf } from "./site-normalize.ts";
import type { SitePattern } from "./site-parse.ts";

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

/**
 * The ids filed under one key, ascending: the one id alone (most keys of a config have one pattern, and a first load
 * made a list of one for each of its thousands), or a list once a second comes.
 */
type Ids = number | number[];

/** `ids` with `id` filed once (ids come in order, so a repeat is the last one: an X post's two other forms). */
function withId(ids: Ids | undefined, id: number): Ids {
	if (ids === undefined) return id;
	if (typeof ids === "number") return ids === id ? ids : [ids, id];
	if (ids[ids.length - 1] !== id) ids.push(id);
	return ids;
}

function add(map: Map<string, Ids>, key: string, id: number): void {
	const ids = map.get(key);
	const next = withId(ids, id);
	if (next !== ids) map.set(key, next);
}

/**
 * A host key's patterns by their leading path segment: the one segment's ids alone (a host most configs name with
 * one path, where a map each cost a first load ~1,300 maps), or a map once a second segment comes.
 */
type Leads = { lead: string; ids: Ids } | Map<string, Ids>;

function leadIds(leads: Leads | undefined, lead: string): Ids | undefined {
	if (leads === undefined) return undefined;
	if (leads instanceof Map) return leads.get(lead);
	return leads.lead === lead ? leads.ids : undefined;
}

/** The `name` label a `name.*` host is filed under: the label just left of the host's public suffix. */
function nameLabel(host: string): string | undefined {
	const suffix = publicSuffixOf(host);
	if (suffix === null || suffix === host || !host.endsWith(`.${suffix}`)) return undefined;
	return lastLabel(host.slice(0, -(suffix.length + 1)));
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

/**
 * The index filled one pattern at a time, answerable at any point: candidates() for routing, and coverCandidates()
 * for the patterns added so far that may cover another (the loader's shadowed-rule check, schema/shadowed.ts, which
 * then hands the same index to compile: engine/route.ts handOverRules). Patterns must not be mutated once added.
 */
export class GrowingSiteIndex<T> implements SiteIndex<T> {
	private readonly patterns: SitePattern[] = [];
	private readonly values: T[] = [];
	/** Each entry's value rank: the order of the value's first insertion. */
	private readonly rank: number[] = [];
	private readonly valueRank = new Map<T, number>();
	private lastRank = -1;
	/** Entries in value order (a compiled table files rules in rule order): sorted ids then give ranks in order. */
	private ordered = true;
	/** host and *.host patterns without a leading path segment to file by, by alias key (the host's suffixes). */
	private readonly bySuffix = new Map<string, Ids>();
	/**
	 * host and *.host patterns whose every match starts with a known first path segment, by alias key and then that
	 * segment: a URL on a host many rules put paths under (github.com/<org>) meets only its own org's patterns.
	 */
	private readonly bySuffixLead = new Map<string, Leads>();
	/** =host and IP patterns by their one host. */
	private readonly byHost = new Map<string, Ids>();
	/** name.* patterns by the last label of `name`. */
	private readonly byName = new Map<string, Ids>();

	get size(): number {
		return this.patterns.length;
	}

	/** The value of entry `id` (ids are given in the order entries were added, from 0). */
	valueAt(id: number): T {
		return this.values[id] as T;
	}

	add(pattern: SitePattern, value: T): void {
		const id = this.patterns.length;
		this.patterns.push(pattern);
		// A rule's patterns are adjacent: only a new value costs map lookups.
		if (id === 0 || value !== this.values[id - 1]) {
			const known = this.valueRank.get(value);
			const rank = known ?? this.valueRank.size;
			if (known === undefined) this.valueRank.set(value, rank);
			if (rank < this.lastRank) this.ordered = false;
			this.lastRank = rank;
		}
		this.values.push(value);
		this.rank.push(this.lastRank);
		if (pattern.kind === "host" || pattern.kind === "subdomains") {
			const lead = leadOf(pattern);
			if (lead === undefined) add(this.bySuffix, pattern.key, id);
			else {
				this.addLead(pattern.key, lead, id);
				const alts = pattern.altPaths;
				if (alts !== undefined) for (let k = 0; k < alts.length; k++) this.addLead(pattern.key, alts[k]?.[0] ?? "", id);
			}
		} else if (pattern.kind === "any-suffix") add(this.byName, lastLabel(pattern.host), id);
		else add(this.byHost, pattern.key, id);
	}

	private addLead(key: string, lead: string, id: number): void {
		const leads = this.bySuffixLead.get(key);
		if (leads === undefined) this.bySuffixLead.set(key, { lead, ids: id });
		else if (leads instanceof Map) add(leads, lead, id);
		else if (leads.lead === lead) leads.ids = withId(leads.ids, id);
		else
			this.bySuffixLead.set(
				key,
				new Map([
					[leads.lead, leads.ids],
					[lead, id],
				]),
			);
	}

	/**
	 * Appends to `out` the id lists (ascending) where every pattern added so far that may cover `b` (covers(a, b):
	 * engine/site-covers.ts) is filed: a superset, covers() decides. A host or *.host pattern covers only patterns
	 * whose key is its own or under it, and one with a leading path segment only paths starting with it; =host and
	 * IPs only their one host; name.* only name.* patterns under its name and exact hosts under the name.
	 */
	coverCandidates(b: SitePattern, out: number[][]): void {
		const key = b.key;
		if (b.kind === "ip" || b.kind === "any-suffix") {
			pushList(out, b.kind === "ip" ? this.byHost.get(key) : this.byName.get(lastLabel(b.host)));
			return;
		}
		if (b.kind === "exact") {
			pushList(out, this.byHost.get(key));
			// The label left of the host's public suffix is the last of any name that covers it (tldts only when some
			// label of the host names a name.* pattern).
			if (this.byName.size > 0 && this.mayHaveName(key)) {
				const label = nameLabel(key);
				if (label !== undefined) pushList(out, this.byName.get(label));
			}
		}
		const lead = b.path === undefined ? undefined : leadOf(b);
		for (let suffix = key; ; ) {
			pushList(out, this.bySuffix.get(suffix));
			if (lead !== undefined && this.bySuffixLead.size > 0) pushList(out, leadIds(this.bySuffixLead.get(suffix), lead));
			const dot = suffix.indexOf(".");
			if (dot < 0) return;
			suffix = suffix.slice(dot + 1);
		}
	}

	/** Some label of the host left of its last one is the last label of a `name.*` name (before asking tldts). */
	private mayHaveName(host: string): boolean {
		for (let start = 0, dot = host.indexOf("."); dot >= 0; start = dot + 1, dot = host.indexOf(".", start)) {
			if (this.byName.has(host.slice(start, dot))) return true;
		}
		return false;
	}

	private collect(url: NormalizedUrl): number[] {
		const ids: number[] = [];
		const key = aliasKey(url.host);
		push(ids, this.byHost.get(key));
		if (isIpHost(url.host)) return ids;
		const lead = url.path[0] ?? "";
		for (let suffix = key; ; ) {
			push(ids, this.bySuffix.get(suffix));
			if (this.bySuffixLead.size > 0) push(ids, leadIds(this.bySuffixLead.get(suffix), lead));
			const dot = suffix.indexOf(".");
			if (dot < 0) break;
			suffix = suffix.slice(dot + 1);
		}
		if (this.byName.size > 0 && this.mayHaveName(url.host)) {
			const label = nameLabel(url.host);
			if (label !== undefined) push(ids, this.byName.get(label));
		}
		return ids;
	}

	candidates(url: NormalizedUrl): SiteMatch<T>[] {
		const ids = this.collect(url);
		if (ids.length > 1) ids.sort((x, y) => x - y);
		const rank = this.rank;
		if (this.ordered) {
			// One pass finds each value's first match with no map and no second sort.
			const out: SiteMatch<T>[] = [];
			let last = -1;
			for (const id of ids) {
				// Equal ranks are adjacent here: skip the value once one of its patterns matched.
				if (rank[id] === last) continue;
				const pattern = this.patterns[id]!;
				if (!matchSite(pattern, url)) continue;
				out.push({ value: this.values[id] as T, pattern });
				last = rank[id]!;
			}
			return out;
		}
		const found = new Map<number, SiteMatch<T>>();
		for (const id of ids) {
			const pattern = this.patterns[id]!;
			if (found.has(rank[id]!) || !matchSite(pattern, url)) continue;
			found.set(rank[id]!, { value: this.values[id] as T, pattern });
		}
		return [...found.entries()].sort(([x], [y]) => x - y).map(([, match]) => match);
	}
}

function push(ids: number[], list: Ids | undefined): void {
	if (typeof list === "number") ids.push(list);
	else if (list !== undefined) for (const id of list) ids.push(id);
}

/** A one-id key's list is made here, for the few patterns a loader's check meets under an earlier one's key. */
function pushList(out: number[][], list: Ids | undefined): void {
	if (typeof list === "number") out.push([list]);
	else if (list !== undefined) out.push(list);
}

/** The last label of a host or name (`maps.google` → google). */
function lastLabel(host: string): string {
	return host.slice(host.lastIndexOf(".") + 1);
}
