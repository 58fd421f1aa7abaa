// Doubao (Volcengine) search, Custom edition: `POST /search_api/web_search` with SearchType "web".
// Sites/BlockHosts/TimeRange are applied by the backend; Summary (the LLM-sized extract) becomes the snippet.
// Subscription keys are used before postpaid ones (docs/providers/doubao.md, "Key pools and billing").

import { recencyBounds } from "../../engine/recency.ts";
import type { Recency, SearchRequest } from "../../engine/request-types.ts";
import type { SearchResultItem } from "../../engine/result-types.ts";
import { matchesUrl, type SitePattern } from "../../engine/sites.ts";
import type { CallContext, ProviderSearchResult } from "../contract.ts";
import { asArray, asNumber, asRecord, isoDate } from "../http/json.ts";
import {
	callSites,
	excludeFilters,
	excludesExactly,
	hostAndDateFilters,
	includeFilters,
	resultCount,
} from "../params/filters.ts";
import { booleanOption, enumOption, numberOption } from "../params/options.ts";
import { createDoubaoEdition, type DoubaoEdition, doubaoQuery, type JsonObject, text } from "./edition.ts";
import facts from "./facts.ts";

const LIMITS = { count: 50, sites: 20, blockHosts: 5 } as const;

/** Filter.Sites and Filter.BlockHosts take bare hosts: no paths, no `*.` wildcard. */
const HOSTS_ONLY = { paths: false };

/** The filters the backend applies itself; the rest the executor applies, so more results are asked for then. */
const NATIVE = hostAndDateFilters(LIMITS.count);

const RECENCY: Record<string, string> = { day: "OneDay", week: "OneWeek", month: "OneMonth", year: "OneYear" };

/** `OneDay`… or the documented `YYYY-MM-DD..YYYY-MM-DD`; an open end is closed with the epoch or today. */
export function doubaoTimeRange(recency: Recency | undefined, today = new Date()): string | undefined {
	if (recency === undefined) return undefined;
	if (Object.hasOwn(RECENCY, recency)) return RECENCY[recency];
	const { from = "1970-01-01", to = today.toISOString().slice(0, 10) } = recencyBounds(recency, today.getTime());
	return `${from}..${to}`;
}

function body(request: SearchRequest, call: CallContext): Record<string, unknown> {
	const options = call.config.options;
	const parsed = callSites(request, call);
	const sites = (includeHosts(parsed.domains) ?? []).slice(0, LIMITS.sites);
	const blocked = excludeFilters(parsed.excludeDomains, HOSTS_ONLY).values.slice(0, LIMITS.blockHosts);
	const filter: Record<string, unknown> = {
		NeedContent: booleanOption(options, "needContent") ?? false,
		NeedUrl: true,
	};
	if (sites.length > 0) filter.Sites = sites.join("|");
	if (blocked.length > 0) filter.BlockHosts = blocked.join("|");
	filter.AuthInfoLevel = numberOption(options, "authInfoLevel") ?? 0;
	const out: Record<string, unknown> = {
		Query: doubaoQuery(request.query),
		SearchType: "web",
		Count: resultCount(request, NATIVE, parsed),
		Filter: filter,
	};
	const timeRange = doubaoTimeRange(request.recency);
	if (timeRange !== undefined) out.TimeRange = timeRange;
	const queryRewrite = booleanOption(options, "queryRewrite");
	if (queryRewrite !== undefined) out.QueryControl = { QueryRewrite: queryRewrite };
	const industry = enumOption(options, "industry", ["finance", "game", "gov"]);
	if (industry !== undefined) out.Industry = industry;
	out.ContentFormats = enumOption(options, "contentFormat", ["markdown", "text"]) ?? "markdown";
	return out;
}

function parse(result: JsonObject, request: SearchRequest, call: CallContext): ProviderSearchResult {
	const parsed = callSites(request, call);
	const items = asArray(result.WebResults)
		.map(asRecord)
		.filter((item) => item !== undefined);
	const results: SearchResultItem[] = [];
	// BlockHosts takes five hosts; further whole-host exclusions are dropped here.
	const blocked = blockedPatterns(parsed.excludeDomains);
	for (const item of items) {
		const url = text(item.Url);
		if (url === undefined || blocked.some((pattern) => matchesUrl(pattern, url))) continue;
		const entry: SearchResultItem = {
			title: text(item.Title) ?? url,
			url,
			snippet: text(item.Summary) ?? text(item.Snippet) ?? "",
		};
		const content = text(item.Content);
		if (content !== undefined && request.includeContent) entry.content = content;
		const publishedAt = isoDate(item.PublishTime);
		if (publishedAt !== undefined) entry.publishedAt = publishedAt;
		const score = asNumber(item.RankScore);
		if (score !== undefined) entry.score = score;
		results.push(entry);
	}
	const warnings: string[] = [];
	const sites = includeHosts(parsed.domains);
	if (sites === undefined)
		warnings.push("doubao: a `name.*` site pattern cannot be sent as Filter.Sites; searched all sites");
	else if (sites.length > LIMITS.sites) {
		warnings.push(`doubao: Filter.Sites takes ${LIMITS.sites} hosts; searched only the first ${LIMITS.sites}`);
	}
	const details: Record<string, unknown> = {};
	for (const [from, to] of [
		["ResultCount", "resultCount"],
		["TimeCost", "timeCostMs"],
		["LogId", "logId"],
	] as const) {
		if (result[from] !== undefined && result[from] !== null) details[to] = result[from];
	}
	return { results, ...(warnings.length > 0 ? { warnings } : {}), details };
}

/** Hosts for Filter.Sites (widened: the executor narrows), or undefined when a pattern has no host (`name.*`). */
function includeHosts(domains: readonly SitePattern[]): readonly string[] | undefined {
	const { values } = includeFilters(domains, HOSTS_ONLY);
	return domains.length > 0 && values.length === 0 ? undefined : values;
}

/** Exclusions that mean "this host and its subdomains, any path, any port": the only ones BlockHosts may take. */
function blockedPatterns(excludeDomains: readonly SitePattern[]): SitePattern[] {
	return excludeDomains.filter((pattern) => excludesExactly(pattern, HOSTS_ONLY));
}

const edition: DoubaoEdition = {
	type: "doubao",
	path: "/search_api/web_search",
	facts,
	native: NATIVE,
	body,
	parse,
};

const doubaoEdition = createDoubaoEdition(edition);

export const { buildSearchRequest, parseSearchResponse } = doubaoEdition;

export default doubaoEdition.definition;
