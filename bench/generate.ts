// Generated routing data for the route and load benchmarks: configs of N rules (5 site patterns each, a seeded
// mix of hosts, suffixes, exact hosts, paths, globs, name.* and IPs, some under shared hosts) and request streams.

import type { Config, Rule } from "../engine/config-types.ts";
import type { WebRequest } from "../engine/request-types.ts";
import { newRule } from "../schema/rules.ts";
import { createRandom, pick } from "./stats.ts";

/** The config as a user writes it (providers keyed by name), ready for JSON.stringify and the loader. */
export interface RawConfig {
	providers: Record<string, { type: string }>;
	search: string[];
	fetch: string[];
	rules: Array<Omit<Rule, "index">>;
	policy: Record<string, unknown>;
}

const PROVIDERS: Record<string, { type: string }> = {
	exa: { type: "exa" },
	brave: { type: "brave" },
	deepseek: { type: "deepseek" },
	jina: { type: "jina" },
	direct: { type: "direct" },
};
const SEARCHERS = ["exa", "brave", "deepseek"];
const FETCHERS = ["exa", "jina", "direct", "deepseek"];
const TLDS = ["com", "org", "io", "dev", "co.uk", "de", "cn", "com.au"];
/** Hosts many rules put paths under (github.com/<org>): their index bucket grows with the rule count. */
const SHARED_HOSTS = ["github.com", "gitlab.com", "huggingface.co", "medium.com", "docs.google.com"];

type Kind = "host" | "subdomains" | "exact" | "dotted" | "path" | "shared-path" | "glob" | "any-suffix" | "ip";
const KIND_WEIGHTS: Array<[Kind, number]> = [
	["host", 28],
	["subdomains", 14],
	["exact", 9],
	["dotted", 9],
	["path", 14],
	["shared-path", 5],
	["glob", 12],
	["any-suffix", 5],
	["ip", 4],
];

/** One generated site pattern and the inputs that hit it: a `domains` entry and a URL. */
interface Site {
	pattern: string;
	domain: string;
	url: string;
}

function weighted(random: () => number): Kind {
	const total = KIND_WEIGHTS.reduce((sum, [, w]) => sum + w, 0);
	let roll = random() * total;
	for (const [kind, weight] of KIND_WEIGHTS) {
		roll -= weight;
		if (roll < 0) return kind;
	}
	return "host";
}

function site(random: () => number, rule: number, k: number): Site {
	const id = `r${rule}k${k}`;
	const tld = pick(random, TLDS);
	switch (weighted(random)) {
		case "subdomains":
			return { pattern: `*.${id}.net`, domain: `api.${id}.net`, url: `https://api.${id}.net/v1/items` };
		case "exact":
			return { pattern: `=${id}.${tld}`, domain: `${id}.${tld}`, url: `https://${id}.${tld}/` };
		case "dotted":
			return { pattern: `.${id}.org`, domain: `${id}.org`, url: `https://www.${id}.org/about` };
		case "path":
			return {
				pattern: `${id}.${tld}/team${k}/repo`,
				domain: `${id}.${tld}/team${k}/repo/wiki`,
				url: `https://${id}.${tld}/team${k}/repo/issues/12`,
			};
		case "shared-path": {
			const host = pick(random, SHARED_HOSTS);
			return { pattern: `${host}/${id}`, domain: `${host}/${id}`, url: `https://${host}/${id}/project/blob/main/x.md` };
		}
		case "glob":
			return {
				pattern: `${id}.io/docs/*/page-${k}*`,
				domain: `${id}.io/docs/v2/page-${k}a`,
				url: `https://${id}.io/docs/v2/page-${k}b/more`,
			};
		case "any-suffix":
			return { pattern: `${id}.*`, domain: `${id}.${tld}`, url: `https://shop.${id}.${tld}/cart` };
		case "ip": {
			const ip = `10.${(rule >> 8) & 255}.${rule & 255}.${k + 1}`;
			return { pattern: ip, domain: ip, url: `http://${ip}/status` };
		}
		default:
			return { pattern: `${id}.${tld}`, domain: `${id}.${tld}`, url: `https://docs.${id}.${tld}/guide/intro` };
	}
}

function chain(random: () => number, from: string[]): string[] {
	const count = 1 + Math.floor(random() * 3);
	return [...new Set(Array.from({ length: count }, () => pick(random, from)))];
}

/** A generated config and, per rule, the inputs that hit its sites (for request streams). */
export interface Generated {
	raw: RawConfig;
	config: Config;
	sites: Site[][];
}

export function generateConfig(ruleCount: number, seed = 1): Generated {
	const random = createRandom(seed);
	const rules: RawConfig["rules"] = [];
	const sites: Site[][] = [];
	for (let i = 0; i < ruleCount; i++) {
		const own = Array.from({ length: 5 }, (_, k) => site(random, i, k));
		sites.push(own);
		const rule: RawConfig["rules"][number] = { name: `rule-${i}`, sites: own.map((s) => s.pattern) };
		const roll = random();
		if (roll < 0.7 || roll >= 0.85) rule.search = chain(random, SEARCHERS);
		if (roll >= 0.7) rule.fetch = chain(random, FETCHERS);
		const condition = random();
		if (condition < 0.05) rule.recency = ["week", "month"];
		else if (condition < 0.08) rule.queryScript = ["Han"];
		else if (condition < 0.11) {
			rule.fileTypes = ["pdf"];
			rule.fetch ??= chain(random, FETCHERS);
		}
		if (random() < 0.05) rule.policy = { hedgeAfterMs: 3000, maxAttempts: 2 };
		rules.push(rule);
	}
	// Rules without sites are candidates for every call: a real file has a few, not a share of N.
	rules.push({ name: "chinese", queryScript: ["Han"], search: ["deepseek", "exa"] });
	rules.push({ name: "pdf", fileTypes: ["pdf"], fetch: ["jina", "direct"] });
	const raw: RawConfig = {
		providers: PROVIDERS,
		search: ["exa", "brave"],
		fetch: ["exa", "jina", "direct"],
		rules,
		policy: { onEmpty: "next-if-filtered", maxAttempts: 4 },
	};
	const config: Config = {
		providers: Object.entries(PROVIDERS).map(([name, p]) => ({ name, type: p.type, options: {} })),
		search: raw.search,
		fetch: raw.fetch,
		// Rules shaped as the loader makes them: a process that compiled other shapes reads rules more slowly after.
		rules: rules.map((rule, index) => Object.assign(newRule(rule.name, index), rule)),
		policy: { onEmpty: "next-if-filtered", maxAttempts: 4 },
	};
	return { raw, config, sites };
}

/** A request stream: about 2/3 hit some rule's site, the rest miss (unknown hosts, unknown paths on shared hosts). */
export function generateRequests(generated: Generated, count: number, seed = 2): WebRequest[] {
	const random = createRandom(seed);
	const hit = (): Site => pick(random, pick(random, generated.sites));
	const miss = (j: number): Site => {
		const host = random() < 0.5 ? pick(random, SHARED_HOSTS) : `miss${j}.example.${pick(random, TLDS)}`;
		return { pattern: host, domain: `${host}/nobody${j}`, url: `https://${host}/nobody${j}/page` };
	};
	const target = (j: number): Site => (random() < 0.67 ? hit() : miss(j));
	const requests: WebRequest[] = [];
	for (let j = 0; j < count; j++) {
		if (random() < 0.5) {
			const domains = Array.from({ length: 1 + Math.floor(random() * 3) }, () => target(j).domain);
			const han = random() < 0.05;
			requests.push({
				kind: "search",
				query: han ? `如何 使用 ${j}` : `how to configure thing ${j}`,
				domains,
				excludeDomains: [],
				...(random() < 0.1 ? { recency: "week" as const } : {}),
				maxResults: 5,
				includeContent: false,
			});
		} else {
			const url = target(j).url;
			requests.push({
				kind: "fetch",
				url: random() < 0.05 ? `${url.replace(/\/$/, "")}/paper.pdf` : url,
				offset: 0,
				maxChars: 20000,
			});
		}
	}
	return requests;
}
