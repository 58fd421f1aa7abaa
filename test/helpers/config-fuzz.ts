// The invariants every fuzzed config text must keep (test/fuzz-config.test.ts and its soak variant): no throw,
// diagnostics located inside the file and reported once, the usable rest compiles, plans and reports status, and
// no built-in prototype polluted.

import { explain, planToJson } from "../../engine/explain.ts";
import { plan } from "../../engine/plan.ts";
import type { WebRequest } from "../../engine/request-types.ts";
import { fetchRequest, searchRequest } from "../../engine/requests.ts";
import { compile } from "../../engine/route.ts";
import { providerTypes } from "../../providers/registry.ts";
import { KeyResolver } from "../../runtime/key-expressions.ts";
import { createPlanContext } from "../../runtime/plan-context.ts";
import { formatStatus, statusReport } from "../../runtime/status.ts";
import { loadConfigText } from "../../schema/load.ts";

const PROTOTYPES: Array<[string, object]> = [
	["Object.prototype", Object.prototype],
	["Array.prototype", Array.prototype],
	["Function.prototype", Function.prototype],
	["String.prototype", String.prototype],
];
const ORIGINAL = new Map(PROTOTYPES.map(([name, proto]) => [name, Object.getOwnPropertyNames(proto).length]));

/** Throws when any built-in prototype gained a property (or `{}` inherits one called "polluted"). */
export function assertNotPolluted(): void {
	for (const [name, proto] of PROTOTYPES) {
		if (Object.getOwnPropertyNames(proto).length !== ORIGINAL.get(name)) throw new Error(`${name} was polluted`);
	}
	if ((Object.create(Object.prototype) as Record<string, unknown>).polluted !== undefined) {
		throw new Error("Object.prototype.polluted is set");
	}
}

/** Lines as editors count them (\r\n, \r and \n each end a line). */
export function linesOf(text: string): string[] {
	return text.split(/\r\n|\r|\n/);
}

const context = createPlanContext({
	keys: new KeyResolver({
		env: {},
		run: () => Promise.reject(new Error("fuzzing never runs key commands")),
	}),
	env: {},
});

/** Built once: the requests every usable config is planned with (plus one naming its first provider). */
let fixedRequests: WebRequest[] | undefined;

function requestsFor(names: string[], sites: string[]): WebRequest[] {
	fixedRequests ??= [
		searchRequest({ query: "x site:github.com/golang -site:gist.github.com", recency: "2024-01-01..2024-02-01" }),
		fetchRequest({ url: "https://github.com/golang/go/blob/master/doc.PDF" }),
		fetchRequest({ url: "https://x.com/jack/status/20", provider: "nobody" }),
	];
	const site = sites.find((s) => !/[\s*=]/.test(s) && s.length < 200);
	return [
		...fixedRequests,
		searchRequest({ query: "中文 查询", recency: "week", domains: site ? [site] : [] }),
		...(names[0] ? [searchRequest({ query: "named", provider: names[0] })] : []),
	];
}

/**
 * Loads one text and checks: no throw; every diagnostic located inside the text; no diagnostic twice; chains
 * name configured providers only; the usable remainder compiles, plans, explains and reports status.
 */
export function checkConfigText(text: string): void {
	const loaded = loadConfigText(text, "fuzz.json5");
	const lines = linesOf(text);
	const seen = new Set<string>();
	for (const d of loaded.diagnostics) {
		const line = lines[d.line - 1];
		const where = `${d.line}:${d.col} (${lines.length} lines) ${d.message.slice(0, 200)}`;
		if (!Number.isInteger(d.line) || !Number.isInteger(d.col) || line === undefined) {
			throw new Error(`diagnostic line outside the file: ${where}`);
		}
		if (d.col < 1 || d.col > line.length + 1) throw new Error(`diagnostic column outside line ${d.line}: ${where}`);
		// Past a syntax error every diagnostic points at a key or value, never at the blank or punctuation around it.
		if (loaded.usable && /^$|[\s,:}\]]/.test(line[d.col - 1] ?? "")) {
			throw new Error(`diagnostic points between tokens: ${where}`);
		}
		if (d.file !== "fuzz.json5" || (d.severity !== "error" && d.severity !== "warning") || !d.message) {
			throw new Error(`malformed diagnostic: ${JSON.stringify(d).slice(0, 300)}`);
		}
		const identity = JSON.stringify([d.line, d.col, d.severity, d.path, d.message]);
		if (seen.has(identity)) throw new Error(`diagnostic reported twice: ${where}`);
		seen.add(identity);
	}
	const { config } = loaded;
	if (!loaded.usable && (config.providers.length > 0 || config.rules.length > 0)) {
		throw new Error("an unusable file still yields providers or rules");
	}
	const names = config.providers.map((p) => p.name);
	if (new Set(names).size !== names.length) throw new Error(`provider named twice: ${names.join(", ")}`);
	for (const p of config.providers) {
		if (!Object.hasOwn(providerTypes, p.type)) throw new Error(`provider ${p.name} has unknown type ${p.type}`);
	}
	const chains = [config.search, config.fetch, ...config.rules.flatMap((r) => [r.search, r.fetch])];
	for (const chain of chains) {
		for (const name of chain ?? []) if (!names.includes(name)) throw new Error(`chain names unknown "${name}"`);
	}
	const table = compile(config);
	const sites = config.rules.flatMap((r) => r.sites ?? []);
	for (const request of requestsFor(names, sites)) {
		const planned = plan(table, request, context);
		explain(planned);
		planToJson(planned);
	}
	const setup = { loaded, zeroConfig: false, table, context, deps: { keys: new KeyResolver({ env: {} }), env: {} } };
	formatStatus(statusReport(setup, { version: 1, cooldowns: [], keys: [] }));
	assertNotPolluted();
}
