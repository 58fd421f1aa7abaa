// Slow, obviously-correct planner: scans every rule in order with the string-based site oracle.
// The compiled index (engine/route.ts + engine/plan.ts) must agree with it on every config and request.

import type { Config } from "../../engine/config-types.ts";
import type { WebRequest } from "../../engine/request-types.ts";
import { oracleMatch } from "./sites-oracle.ts";

export interface OracleDecision {
	source: "provider" | "rule" | "default";
	ruleIndex: number | null;
	chain: string[];
}

/** A domains entry as a representative URL: `*.h` → sub.h, `.s` → s, `=h` → h, `name.*` → name.com. */
export function oracleEntryUrl(entry: string): string {
	let text = entry.trim();
	if (text.startsWith("*.")) text = `sub.${text.slice(2)}`;
	else if (text.startsWith("=") || text.startsWith(".")) text = text.slice(1);
	const slash = text.indexOf("/");
	let host = slash === -1 ? text : text.slice(0, slash);
	const path = slash === -1 ? "" : text.slice(slash);
	if (host.endsWith(".*")) host = `${host.slice(0, -2)}.com`;
	return `https://${host}${path}`;
}

function scriptHolds(scripts: string[] | undefined, query: string | undefined): boolean {
	if (!scripts) return true;
	if (query === undefined) return false;
	return [...query].some((ch) => scripts.some((s) => new RegExp(`^\\p{Script=${s}}$`, "u").test(ch)));
}

export function oraclePlan(config: Config, request: WebRequest, canServe: (name: string) => boolean): OracleDecision {
	if (request.provider !== undefined) return { source: "provider", ruleIndex: null, chain: [request.provider] };
	const configured = (names: string[]) => names.filter((n) => config.providers.some((p) => p.name === n));
	for (const rule of config.rules) {
		const chain = configured((request.kind === "search" ? rule.search : rule.fetch) ?? []);
		if (chain.length === 0) continue;
		if (rule.sites) {
			const targets = request.kind === "search" ? request.domains.map(oracleEntryUrl) : [request.url];
			if (!rule.sites.some((site) => targets.some((t) => oracleMatch(site, t)))) continue;
		}
		if (!scriptHolds(rule.queryScript, request.kind === "search" ? request.query : undefined)) continue;
		if (rule.fileTypes) {
			if (request.kind !== "fetch") continue;
			const last = new URL(request.url).pathname.split("/").at(-1)?.toLowerCase() ?? "";
			if (!rule.fileTypes.some((t) => last.endsWith(`.${t}`))) continue;
		}
		if (rule.recency) {
			const recency = request.kind === "search" ? request.recency : undefined;
			if (!recency || !rule.recency.includes(recency.includes("..") ? "range" : recency)) continue;
		}
		return { source: "rule", ruleIndex: rule.index, chain: [...new Set(chain)] };
	}
	const given = request.kind === "search" ? config.search : config.fetch;
	const chain = given ? configured(given) : config.providers.filter((p) => canServe(p.name)).map((p) => p.name);
	return { source: "default", ruleIndex: null, chain: [...new Set(chain)] };
}
