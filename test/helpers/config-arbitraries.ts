// fast-check arbitraries for config fuzzing: the shipped examples (and pieces of them) mutated structurally —
// deleted, replaced, added, duplicated and renamed keys with wrong types, huge numbers, odd strings, prototype keys
// and deep nesting — then written as JSON5 text, some of it damaged, some pure noise.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import JSON5 from "json5";
import { providerTypes } from "../../providers/registry.ts";
import { applyEdits, editArb, type Node, serialize, styleArb, toNode } from "./config-text.ts";

const REPO = join(import.meta.dirname, "..", "..");

/** A config that uses every top-level key, so mutations reach policy, tools, output, fetchGuard and state too. */
const EVERYTHING = {
	$schema: "../schema/pi-web-access.schema.json",
	providers: {
		exa: { type: "exa", apiKey: ["$EXA_KEY", { key: "$$literal", billing: "postpaid", label: "lit" }], maxAgeHours: 1 },
		ds: { type: "deepseek", baseUrl: "https://api.example.org/", timeoutMs: 5000, headers: { "x-a": "b" } },
		grok: { type: "sub2api-grok", provider: "gw", model: "grok-4" },
		sx: { type: "searxng", baseUrl: "http://127.0.0.1:8080" },
		direct: { type: "direct" },
	},
	search: ["exa", "ds", "grok", "sx"],
	fetch: ["exa", "direct"],
	rules: [
		{ name: "X", sites: ["x.com", "twitter.com/jack"], search: ["grok"], fetch: ["grok"] },
		{ name: "Han", queryScript: ["Han"], recency: ["week", "range"], search: ["ds"], policy: { maxAttempts: 2 } },
		{ name: "pdf", fileTypes: [".PDF"], fetch: ["direct"] },
		{ name: "wild", sites: ["*.github.io", "google.*", "=docs.python.org", ".cn"], search: ["exa", "ds"] },
	],
	policy: { onEmpty: "stop", maxAttempts: 3, hedgeAfterMs: 500, fallbackOn: ["timeout"], cooldown: { baseMs: 1 } },
	tools: { web_search: { name: "search_web", enabled: true }, web_fetch: { enabled: false } },
	output: { maxChars: 5000 },
	fetchGuard: { allowedRanges: ["198.18.0.0/15"], allowPrivate: false },
	state: { persist: false },
};

/** The shipped examples plus the everything-config, as parsed values. */
export function seedValues(): unknown[] {
	const dir = join(REPO, "examples");
	const examples = readdirSync(dir)
		.filter((name) => name.endsWith(".json5"))
		.map((name) => JSON5.parse(readFileSync(join(dir, name), "utf8")) as unknown);
	return [...examples, EVERYTHING];
}

/**
 * The seeds and, to keep most cases small, pieces of them: each top-level key alone, each provider alone, each rule
 * with the providers it names. Pieces outnumber whole seeds about ten to one.
 */
export function fuzzSeeds(): unknown[] {
	const seeds = seedValues() as Array<Record<string, unknown>>;
	const pieces = seeds.flatMap((seed) => {
		const providers = (seed.providers ?? {}) as Record<string, unknown>;
		const rules = (Array.isArray(seed.rules) ? seed.rules : []) as Array<Record<string, unknown>>;
		const tops = Object.entries(seed)
			.filter(([key]) => key !== "providers" && key !== "rules")
			.map(([key, value]) => ({ [key]: value }));
		const single = Object.entries(providers).map(([name, value]) => ({ providers: { [name]: value }, search: [name] }));
		const ruled = rules.map((rule) => {
			const names = [...((rule.search as string[] | undefined) ?? []), ...((rule.fetch as string[] | undefined) ?? [])];
			const used = Object.fromEntries(Object.entries(providers).filter(([name]) => names.includes(name)));
			return { providers: used, rules: [rule] };
		});
		return [...tops, ...single, ...ruled];
	});
	return [...seeds, ...pieces];
}

// ---------------------------------------------------------------------------------------------
// Values and keys that break things
// ---------------------------------------------------------------------------------------------

const PROTO_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];
const KNOWN_KEYS = [
	...Object.keys(EVERYTHING),
	...Object.keys(EVERYTHING.providers.exa),
	"provider",
	"model",
	"baseUrl",
	"timeoutMs",
	"headers",
	"name",
	"sites",
	"queryScript",
	"fileTypes",
	"recency",
	"onEmpty",
	"maxAttempts",
	"hedgeAfterMs",
	"fallbackOn",
	"cooldown",
	"cacheTtlMs",
	"key",
	"billing",
	"label",
	"allowPrivate",
	"allowedRanges",
	"persist",
	"maxChars",
	"enabled",
];
const ODD_STRINGS = [
	"",
	" ",
	"a b",
	"exa",
	"ds",
	"grok",
	"direct",
	"nobody",
	...Object.keys(providerTypes),
	"*.*",
	"*",
	"=",
	".",
	"..",
	"a..b",
	".cn",
	"google.*",
	"*.github.io",
	"=docs.python.org",
	"github.com/golang",
	"github.com/*/*/issues",
	"https://x.com/path?q=1#f",
	"http://",
	"[::1]",
	"[fe80::1%eth0]",
	"127.0.0.1:99999",
	"xn--",
	"例え.テスト",
	"مثال.إختبار",
	"\u202etxt.exe",
	"🦀.rs",
	"Han",
	"Cyrillic",
	"Nope",
	"]",
	"\\p{L}",
	"(a+)+$",
	"day",
	"range",
	"2024-01-01..2024-13-01",
	"$EXA_KEY",
	"$" + "{X}",
	"$$",
	"$!x",
	"!",
	"!false",
	"\u0000",
	"\ud800",
	"\u2028",
	"polluted",
	...PROTO_KEYS,
];

const HUGE_NUMBERS = [
	"1e308",
	"-1e308",
	"1e-320",
	"9007199254740993",
	"-0",
	"NaN",
	"Infinity",
	"-Infinity",
	"0x7fffffff",
];

const keyArb: fc.Arbitrary<string> = fc.oneof(
	{ weight: 3, arbitrary: fc.constantFrom(...KNOWN_KEYS) },
	{ weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS) },
	{ weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
	{ weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 8 }) },
	{ weight: 1, arbitrary: fc.constantFrom(...ODD_STRINGS) },
);

/** A prototype-pollution attempt: `{__proto__: {polluted: …}}`, `{constructor: {prototype: {polluted: …}}}`. */
const pollutionArb: fc.Arbitrary<Node> = fc.constantFrom<Node>(
	{ t: "obj", entries: [["__proto__", { t: "obj", entries: [["polluted", { t: "lit", v: "yes" }]] }]] },
	{
		t: "obj",
		entries: [
			[
				"constructor",
				{ t: "obj", entries: [["prototype", { t: "obj", entries: [["polluted", { t: "lit", v: 1 }]] }]] },
			],
		],
	},
	{ t: "obj", entries: [["prototype", { t: "obj", entries: [["polluted", { t: "lit", v: true }]] }]] },
);

function nest(depth: number, leaf: Node, asArray: boolean): Node {
	let node = leaf;
	for (let i = 0; i < depth; i++) node = asArray ? { t: "arr", items: [node] } : { t: "obj", entries: [["a", node]] };
	return node;
}

/** Replacement values: wrong types, huge numbers, odd strings, pollution attempts, deep nesting, long strings. */
export function valueArb(options: { longChars: number; maxDepth: number }): fc.Arbitrary<Node> {
	const leaf: fc.Arbitrary<Node> = fc.oneof(
		{ weight: 3, arbitrary: fc.constantFrom(...ODD_STRINGS).map((v): Node => ({ t: "lit", v })) },
		{ weight: 2, arbitrary: fc.string({ maxLength: 20 }).map((v): Node => ({ t: "lit", v })) },
		{ weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 10 }).map((v): Node => ({ t: "lit", v })) },
		{ weight: 2, arbitrary: fc.integer().map((v): Node => ({ t: "lit", v })) },
		{ weight: 1, arbitrary: fc.double().map((v) => toNode(v)) },
		{ weight: 1, arbitrary: fc.constantFrom(...HUGE_NUMBERS).map((text): Node => ({ t: "raw", text })) },
		{
			weight: 1,
			arbitrary: fc.constantFrom<Node>({ t: "lit", v: true }, { t: "lit", v: false }, { t: "lit", v: null }),
		},
		{ weight: 1, arbitrary: fc.constant<Node>({ t: "lit", v: "x".repeat(options.longChars) }) },
	);
	const container: fc.Arbitrary<Node> = fc.oneof(
		fc.array(leaf, { maxLength: 4 }).map((items): Node => ({ t: "arr", items })),
		fc.array(fc.tuple(keyArb, leaf), { maxLength: 4 }).map((entries): Node => ({ t: "obj", entries })),
		pollutionArb,
		fc
			.tuple(fc.integer({ min: 2, max: options.maxDepth }), leaf, fc.boolean())
			.map(([depth, node, asArray]) => nest(depth, node, asArray)),
	);
	return fc.oneof({ weight: 4, arbitrary: leaf }, { weight: 1, arbitrary: container });
}

// ---------------------------------------------------------------------------------------------
// Structural mutations
// ---------------------------------------------------------------------------------------------

type Mutation =
	| { kind: "delete"; at: number }
	| { kind: "replace"; at: number; value: Node }
	| { kind: "add"; at: number; key: string; value: Node }
	| { kind: "duplicate"; at: number; pick: number; value: Node | null }
	| { kind: "rename"; at: number; pick: number; key: string };

interface Slot {
	node: Node;
	parent?: Node;
	/** Index of the node in its parent's entries or items. */
	index?: number;
}

function slots(root: Node): Slot[] {
	const out: Slot[] = [{ node: root }];
	for (let i = 0; i < out.length; i++) {
		const { node } = out[i]!;
		const children = node.t === "obj" ? node.entries.map(([, child]) => child) : node.t === "arr" ? node.items : [];
		for (const [index, child] of children.entries()) out.push({ node: child, parent: node, index });
	}
	return out;
}

function set(slot: Slot, value: Node | undefined): void {
	const { parent, index } = slot;
	if (parent === undefined || index === undefined) return;
	if (parent.t === "obj") {
		if (value === undefined) parent.entries.splice(index, 1);
		else parent.entries[index]![1] = value;
	} else if (parent.t === "arr") {
		if (value === undefined) parent.items.splice(index, 1);
		else parent.items[index] = value;
	}
}

/** Applies mutations in order to a copy of `root` (slots are recomputed after each). */
export function mutate(root: Node, mutations: Mutation[]): Node {
	const copy = structuredClone(root);
	for (const mutation of mutations) {
		const all = slots(copy);
		const slot = all[mutation.at % all.length]!;
		const { node } = slot;
		if (mutation.kind === "delete") set(slot, undefined);
		// Values are copied in: generated values (constants above all) may be shared, and a shared node mutated
		// later in the same list could end up inside itself.
		else if (mutation.kind === "replace") set(slot, structuredClone(mutation.value));
		else if (mutation.kind === "add" && node.t === "obj")
			node.entries.push([mutation.key, structuredClone(mutation.value)]);
		else if (mutation.kind === "add" && node.t === "arr") node.items.push(structuredClone(mutation.value));
		else if (mutation.kind === "duplicate" && node.t === "obj" && node.entries.length > 0) {
			const [key, value] = node.entries[mutation.pick % node.entries.length]!;
			node.entries.push([key, structuredClone(mutation.value ?? value)]);
		} else if (mutation.kind === "rename" && node.t === "obj" && node.entries.length > 0) {
			node.entries[mutation.pick % node.entries.length]![0] = mutation.key;
		}
	}
	return copy;
}

function mutationArb(values: fc.Arbitrary<Node>): fc.Arbitrary<Mutation> {
	const at = fc.nat();
	return fc.oneof(
		at.map((n): Mutation => ({ kind: "delete", at: n })),
		fc.record({ kind: fc.constant("replace" as const), at, value: values }),
		fc.record({ kind: fc.constant("add" as const), at, key: keyArb, value: values }),
		fc.record({ kind: fc.constant("duplicate" as const), at, pick: fc.nat(), value: fc.option(values) }),
		fc.record({ kind: fc.constant("rename" as const), at, pick: fc.nat(), key: keyArb }),
	);
}

export interface FuzzOptions {
	/** Length of the long-string value (1 MB in the dedicated test; small in the bulk runs). */
	longChars: number;
	/** Deepest nesting generated in bulk runs. */
	maxDepth: number;
}

/** Config texts: mostly structurally mutated examples, some with character damage, some pure noise. */
export function configTextArb(options: FuzzOptions): fc.Arbitrary<string> {
	const seeds = fuzzSeeds().map(toNode);
	const values = valueArb(options);
	const structural = fc
		.tuple(fc.constantFrom(...seeds), fc.array(mutationArb(values), { minLength: 1, maxLength: 6 }), styleArb)
		.map(([seed, mutations, style]) => serialize(mutate(seed, mutations), style));
	const damaged = fc
		.tuple(structural, fc.array(editArb, { minLength: 1, maxLength: 4 }))
		.map(([text, edits]) => applyEdits(text, edits));
	const noise = fc.oneof(
		fc.string({ maxLength: 60 }),
		fc.string({ unit: "binary", maxLength: 60 }),
		fc.uint8Array({ maxLength: 80 }).map((bytes) => Buffer.from(bytes).toString("utf8")),
		fc.uint8Array({ maxLength: 80 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
	);
	const randomJson = fc
		.tuple(
			fc.jsonValue({ maxDepth: 4 }),
			fc.constantFrom("providers", "rules", "policy", "search", "tools", "fetchGuard"),
		)
		.map(([value, key]) => JSON.stringify({ [key]: value }));
	return fc.oneof(
		{ weight: 12, arbitrary: structural },
		{ weight: 4, arbitrary: damaged },
		{ weight: 1, arbitrary: noise },
		{ weight: 2, arbitrary: randomJson },
	);
}
