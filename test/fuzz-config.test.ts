// Config fuzzing: thousands of mutated JSON5 configs (from examples/*.json5) through loadConfigText — never a throw,
// every diagnostic located inside the file and reported once, the usable rest compiles and plans, no prototype
// pollution. Bulk cases stay small; 1 MB strings and very deep nesting have their own cases. Soak: test/soak/.

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfigText } from "../schema/load.ts";
import { configTextArb, seedValues } from "./helpers/config-arbitraries.ts";
import { assertNotPolluted, checkConfigText, linesOf } from "./helpers/config-fuzz.ts";
import { type Node, serialize, toNode } from "./helpers/config-text.ts";

const BULK_RUNS = 10_000;
let fuzzed = 0;
const check = (text: string) => {
	fuzzed++;
	checkConfigText(text);
};

// json5 warns on the console about U+2028 in strings; thousands of such lines would drown the report.
beforeAll(() => {
	vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterAll(() => {
	vi.restoreAllMocks();
	console.log(`fuzz-config: ${fuzzed} configs fuzzed`);
});

const style = {
	newline: "\n",
	indent: "  ",
	keys: "double",
	singleQuotedStrings: false,
	trailingCommas: false,
	comments: false,
} as const;
const obj = (entries: Array<[string, Node]>): Node => ({ t: "obj", entries });
const str = (v: string): Node => ({ t: "lit", v });

describe("config fuzzing", () => {
	it(`keeps every invariant over ${BULK_RUNS} mutated configs`, () => {
		fc.assert(
			fc.property(configTextArb({ longChars: 300, maxDepth: 30 }), (text) => check(text)),
			{ numRuns: BULK_RUNS },
		);
	}, 120_000); // ~10 s on an idle 2-core machine; the bound is for a loaded one

	it("keeps the invariants for the examples as shipped, in every newline style", () => {
		for (const seed of seedValues()) {
			for (const newline of ["\n", "\r\n", "\r"] as const) check(serialize(toNode(seed), { ...style, newline }));
		}
	});

	it("survives 1 MB strings as names, keys, values and patterns, and after a syntax error", () => {
		// json5 parses about a megabyte a second on a busy machine: five 1 MB strings, 64 KB for the other places.
		const big = "é".repeat(1 << 19) + "x".repeat(1 << 19);
		const mid = "ß".repeat(1 << 16);
		const one = (name: string, provider: Array<[string, Node]>) => obj([["providers", obj([[name, obj(provider)]])]]);
		const rule = (entries: Array<[string, Node]>) =>
			obj([
				["providers", obj([["p", obj([["type", str("exa")]])]])],
				["rules", { t: "arr", items: [obj([...entries, ["search", { t: "arr", items: [str("p")] }]])] }],
			]);
		const places: Node[] = [
			one(big, [["type", str("exa")]]),
			one("p", [
				["type", str("exa")],
				[big, str("x")],
			]),
			one("p", [
				["type", str("exa")],
				["apiKey", str(big)],
				["baseUrl", str(mid)],
			]),
			rule([
				["name", str(mid)],
				["sites", { t: "arr", items: [str(big), str(`${mid}.com`), str(`x.com/${mid}`)] }],
			]),
			rule([
				["name", str("r")],
				["queryScript", { t: "arr", items: [str(mid)] }],
			]),
			one("p", [["type", str(mid)]]),
			obj([
				["search", { t: "arr", items: [str(mid)] }],
				[mid, str(mid)],
			]),
		];
		for (const node of places) check(serialize(node, style));
		check(`{"providers": ${big}`); // a syntax error after a megabyte
		check(`// ${mid}\n{}`);
	});

	it("survives very deep nesting without a stack overflow escaping", () => {
		for (const depth of [1_000, 10_000, 100_000]) {
			check(`{"providers": {"p": {"type": "exa", "deep": ${"[".repeat(depth)}${"]".repeat(depth)}}}}`);
			check(`{"rules": [${'{"a":'.repeat(depth)}1${"}".repeat(depth)}]}`);
			check(`{"policy": ${"[".repeat(depth)}`); // unterminated
		}
	});

	it("reports nesting too deep to parse instead of throwing (regression: RangeError from 1,550 levels)", () => {
		// Between ~1,550 and ~3,650 levels the parsers coped but the walks after them overflowed the stack and threw.
		for (let depth = 101; depth <= 6_000; depth += depth < 1_000 ? 299 : 250) {
			const texts = [
				`{"providers": {"p": {"type": "exa", "deep": ${"[".repeat(depth)}${"]".repeat(depth)}}}}`,
				`{"rules": [${'{"a":'.repeat(depth)}1${"}".repeat(depth)}]}`,
			];
			for (const text of texts) {
				check(text);
				const loaded = loadConfigText(text, "f.json5");
				expect(loaded.usable).toBe(false);
				expect(loaded.diagnostics[0]?.message).toMatch(/nested more than 100 levels deep/);
			}
		}
		// Brackets inside strings and comments do not count; 100 real levels still load.
		const quoted = `// ${"[".repeat(500)}\n/* ${"{".repeat(500)} */ {"providers": {"p": {"type": "exa", "x": "${"[".repeat(500)}"}}}`;
		expect(loadConfigText(quoted, "f").config.providers).toHaveLength(1);
		expect(loadConfigText(`{"a": ${"[".repeat(99)}${"]".repeat(99)}}`, "f").usable).toBe(true);
	});

	it("never lets __proto__, constructor or prototype keys reach a prototype", () => {
		const attempts = [
			`{"__proto__": {"polluted": "yes", "providers": {"p": {"type": "exa"}}}}`,
			`{"constructor": {"prototype": {"polluted": "yes"}}}`,
			`{"providers": {"__proto__": {"type": "exa", "polluted": 1}, "constructor": {"type": "exa"}, "prototype": {"type": "direct"}}, "search": ["__proto__", "constructor"], "fetch": ["prototype", "toString"]}`,
			`{"providers": {"p": {"type": "exa", "__proto__": {"polluted": 1}, "headers": {"__proto__": {"polluted": "h"}}}}}`,
			`{"rules": [{"name": "__proto__", "sites": ["__proto__.com"], "search": ["__proto__"], "policy": {"__proto__": {"polluted": 1}}}], "providers": {"__proto__": {"type": "exa"}}}`,
			`{"tools": {"__proto__": {"name": "polluted"}}, "output": {"__proto__": {"maxChars": 1}}, "state": {"constructor": {"prototype": {"polluted": 1}}}}`,
		];
		for (const text of attempts) check(text);
		assertNotPolluted();
		// A provider named "__proto__" is refused like every prototype key (one located error each), never merged.
		const loaded = loadConfigText(attempts[2]!, "f.json5");
		expect(loaded.config.providers.map((p) => p.name)).toEqual([]);
		const refused = loaded.diagnostics.filter((d) => d.message.includes("cannot be a key"));
		expect(refused.map((d) => d.path)).toEqual([
			"/providers/__proto__",
			"/providers/constructor",
			"/providers/prototype",
		]);
	});

	it("locates a syntax error on the line an editor shows, whatever the newline style (regression: lone \\r)", () => {
		// json5 counts only \n; the positions of every other diagnostic (momoa) count \r\n, \r and \n.
		for (const newline of ["\n", "\r\n", "\r"]) {
			const text = ["{", '  "providers": {', '    "p": { "type": "exa" ,, }', "  }", "}"].join(newline);
			const [d] = loadConfigText(text, "f.json5").diagnostics;
			expect(d, newline).toMatchObject({ line: 3, col: 27 });
			expect(linesOf(text)[2]?.slice(26, 27)).toBe(",");
			expect(d?.message).not.toMatch(/ at \d+:\d+/);
		}
	});

	it("drops only the provider whose name has whitespace, not all providers (regression: propertyNames)", () => {
		const loaded = loadConfigText(
			`{"providers": {"a b": {"type": "exa"}, "ok": {"type": "exa"}}, "search": ["ok"]}`,
			"f",
		);
		expect(loaded.config.providers.map((p) => p.name)).toEqual(["ok"]);
		expect(loaded.config.search).toEqual(["ok"]);
		expect(loaded.diagnostics).toHaveLength(1);
		expect(loaded.diagnostics[0]).toMatchObject({ line: 1, col: 16, path: "/providers/a b" });
		expect(loaded.diagnostics[0]?.message).toMatch(/provider name "a b" is empty or contains whitespace/);
	});
});
