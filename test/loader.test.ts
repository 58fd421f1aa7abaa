// The config loader: JSON5, located diagnostics (file:line:col), and only the broken part dropped.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile } from "../engine/route.ts";
import { parseSitePattern, type SitePattern } from "../engine/sites.ts";
import { configPath, loadConfig, loadConfigText } from "../schema/load.ts";
import { configTextArb } from "./helpers/config-arbitraries.ts";

const file = "cfg.json5";

function parsed(raw: string): SitePattern {
	const result = parseSitePattern(raw);
	if (!result.ok) throw new Error(result.error);
	return result.pattern;
}

describe("loadConfigText", () => {
	it("accepts JSON5: comments, unquoted keys, trailing commas, single quotes", () => {
		const loaded = loadConfigText(
			`// hi\n{ providers: { exa: { type: 'exa', }, }, search: ['exa',], /* end */ }`,
			file,
		);
		expect(loaded.diagnostics).toEqual([]);
		expect(loaded.config.providers.map((p) => p.name)).toEqual(["exa"]);
		expect(loaded.config.search).toEqual(["exa"]);
	});

	it("reports a syntax error at its position and leaves the whole file unusable", () => {
		const loaded = loadConfigText(`{\n  providers: {\n    exa: { type: "exa" ,, }\n  }\n}`, file);
		expect(loaded.usable).toBe(false);
		expect(loaded.config.providers).toEqual([]);
		expect(loaded.diagnostics).toHaveLength(1);
		expect(loaded.diagnostics[0]).toMatchObject({ severity: "error", file, line: 3 });
		expect(loaded.diagnostics[0]?.message).toMatch(/syntax error/);
	});

	it("gives four located diagnostics for a type error, an unknown key and a dangling chain name, and keeps the rest", () => {
		const text = [
			"{", // 1
			"  providers: {", // 2
			'    exa: { type: "exa", timeoutMs: "fast" },', // 3: type error
			'    ddg: { type: "deepseek", tiemoutMs: 5000 },', // 4: unknown key, did you mean
			"  },", // 5
			'  search: ["exa", "brave", "ddg"],', // 6: dangling name
			"}", // 7
		].join("\n");
		const loaded = loadConfigText(text, file);
		const where = loaded.diagnostics.map((d) => `${d.line}:${d.col} ${d.severity}`);
		expect(where).toEqual(["3:36 error", "4:30 warning", "6:19 warning"]);
		expect(loaded.diagnostics[0]?.message).toMatch(/timeoutMs must be integer/);
		expect(loaded.diagnostics[1]?.message).toMatch(/unknown key "tiemoutMs" \(did you mean "timeoutMs"\?\)/);
		expect(loaded.diagnostics[2]?.message).toMatch(/"brave" is not a configured provider/);
		// The usable remainder: both providers, the bad option defaulted, the dangling name removed.
		expect(loaded.config.providers.map((p) => [p.name, p.timeoutMs])).toEqual([
			["exa", undefined],
			["ddg", undefined],
		]);
		expect(loaded.config.search).toEqual(["exa", "ddg"]);
		// And a syntax error in the same file is the fourth kind: see the test above; together they are four.
		const broken = loadConfigText(`${text.slice(0, -1)}\n,,}`, file);
		expect(broken.diagnostics).toHaveLength(1);
		expect(broken.diagnostics[0]?.line).toBe(8);
	});

	it("drops a provider with an unknown type and names it", () => {
		const loaded = loadConfigText(`{ providers: { a: { type: "bing" }, b: { type: "exa" } } }`, file);
		expect(loaded.config.providers.map((p) => p.name)).toEqual(["b"]);
		expect(loaded.diagnostics).toHaveLength(1);
		expect(loaded.diagnostics[0]?.message).toMatch(/type must be one of/);
		expect(loaded.diagnostics[0]?.col).toBe(27); // the value "bing"
	});

	it("a known option with a bad value gets its one error, not also an unknown-key warning naming itself", () => {
		const loaded = loadConfigText(`{\n  providers: { t: { type: "tavily", searchDepth: "deepest" } },\n}`, file);
		expect(loaded.diagnostics.map((d) => `${d.line}:${d.col} ${d.severity}`)).toEqual(["2:50 error"]);
		expect(loaded.diagnostics[0]?.message).toMatch(/searchDepth must be one of "basic", "advanced"/);
	});

	it("puts a missing-key error on the name of the object that lacks it, where editors put it", () => {
		const loaded = loadConfigText(`{\n  providers: {\n    s: { type: "searxng" },\n    n: { model: "x" } } }`, file);
		expect(loaded.diagnostics.map((d) => `${d.line}:${d.col} ${d.message.split(";")[0]}`)).toEqual([
			'3:5 /providers/s is missing "baseUrl"',
			'4:5 /providers/n is missing "type"',
		]);
	});

	it("drops rules without a name, without conditions, with an invalid pattern only, or left with no provider", () => {
		const loaded = loadConfigText(
			`{
  providers: { exa: { type: "exa" } },
  rules: [
    { sites: ["x.com"], search: ["exa"] },
    { name: "none", search: ["exa"] },
    { name: "bad", sites: ["https://x.com"], search: ["exa"] },
    { name: "empty", sites: ["x.com"], search: ["nobody"] },
    { name: "ok", sites: ["go.dev", "a..b"], search: ["exa"] },
  ],
}`,
			file,
		);
		expect(loaded.config.rules.map((r) => [r.name, r.index, r.sites])).toEqual([["ok", 4, ["go.dev"]]]);
		const lines = loaded.diagnostics.map((d) => d.line);
		expect(lines).toEqual([4, 5, 6, 6, 7, 7, 8]);
	});

	it("warns about duplicate keys, public-suffix patterns and shadowed rules", () => {
		const loaded = loadConfigText(
			`{
  providers: { exa: { type: "exa" }, exa: { type: "exa" } },
  rules: [
    { name: "all github", sites: ["github.com"], search: ["exa"] },
    { name: "golang", sites: ["github.com/golang"], search: ["exa"] },
    { name: "pages", sites: ["github.io"], search: ["exa"] },
  ],
}`,
			file,
		);
		const messages = loaded.diagnostics.map((d) => `${d.line}:${d.severity}:${d.message}`);
		expect(messages.some((m) => /^2:warning:duplicate key "exa"/.test(m))).toBe(true);
		expect(messages.some((m) => /^5:warning:rule "golang" can never match/.test(m))).toBe(true);
		expect(messages.some((m) => /^6:warning:.*"github.io" matches every site under this suffix/.test(m))).toBe(true);
		expect(loaded.config.rules).toHaveLength(3);
	});

	it("finds shadowing through suffixes and siteless rules, and not across capabilities", () => {
		const loaded = loadConfigText(
			`{
  providers: { exa: { type: "exa" } },
  rules: [
    { name: "cn", sites: [".cn"], search: ["exa"] },
    { name: "han", queryScript: ["Han"], search: ["exa"] },
    { name: "zhihu", sites: ["www.zhihu.cn", "zhihu.cn/q"], search: ["exa"] },
    { name: "han-go", sites: ["go.dev"], queryScript: ["Han"], search: ["exa"] },
    { name: "fetch-cn", sites: ["a.cn"], fetch: ["exa"] },
    { name: "go", sites: ["go.dev"], search: ["exa"] },
  ],
}`,
			file,
		);
		const shadowed = loaded.diagnostics.filter((d) => /can never match/.test(d.message)).map((d) => d.message);
		expect(shadowed).toEqual([
			'rule "zhihu" can never match: rule "cn" before it covers it',
			'rule "han-go" can never match: rule "han" before it covers it',
		]);
	});

	it("plain JSON takes the fast path with the same located diagnostics, duplicates included", () => {
		const text =
			'{\n  "providers": { "exa": { "type": "exa" }, "exa": { "type": "exa", "bogus": 1 } },\n  "search": ["exa", "x"]\n}';
		const loaded = loadConfigText(text, file);
		const where = (d: { line: number; col: number; severity: string; message: string }, shift = 0) =>
			`${d.line - shift}:${d.col} ${d.severity} ${d.message.split(";")[0]}`;
		expect(loaded.diagnostics.map((d) => where(d))).toEqual([
			'2:44 warning duplicate key "exa"',
			'2:68 warning unknown key "bogus"',
			'3:21 warning "x" is not a configured provider',
		]);
		expect(loaded.config.providers.map((p) => p.name)).toEqual(["exa"]);
		// A leading comment forces the JSON5 path: same diagnostics, one line further down.
		const slow = loadConfigText(`// comment\n${text}`, file);
		expect(slow.diagnostics.map((d) => where(d, 1))).toEqual(loaded.diagnostics.map((d) => where(d)));
	});

	it("the JSON fast path finds duplicate keys around strings with escapes (quotes and backslashes inside)", () => {
		const text = [
			"{",
			'  "policy": { "maxAttempts": 2 },',
			'  "tools": { "a\\"b": "c\\\\", "d": "\\"", "a\\"b": "x", "e\\\\": 1, "e\\\\": 2 },',
			'  "output": { "f": "no escape", "f": "g" }',
			"}",
		].join("\n");
		const duplicates = (loaded: ReturnType<typeof loadConfigText>) =>
			loaded.diagnostics.filter((d) => d.message.startsWith("duplicate")).map((d) => `${d.line}:${d.col} ${d.path}`);
		const fast = duplicates(loadConfigText(text, file));
		const line3 = text.split("\n")[2] ?? "";
		const second = (key: string) => line3.indexOf(key, line3.indexOf(key) + 1) + 1;
		expect(fast).toEqual([`3:${second('"a\\"b"')} /tools/a"b`, `3:${second('"e\\\\"')} /tools/e\\`, "4:33 /output/f"]);
		const slow = duplicates(loadConfigText(`// comment\n${text}`, file));
		expect(slow).toEqual(fast.map((d) => d.replace(/^(\d+)/, (line) => String(Number(line) + 1))));
	});

	it("the JSON fast path and the JSON5 path agree on every JSON text (value, diagnostics and positions)", () => {
		let json = 0;
		fc.assert(
			fc.property(configTextArb({ longChars: 200, maxDepth: 4 }), (text) => {
				try {
					JSON.parse(text);
				} catch {
					return; // JSON5-only text always takes the located path
				}
				json++;
				const fast = loadConfigText(text, file);
				const slow = loadConfigText(`//\n${text}`, file);
				expect(slow.config).toEqual(fast.config);
				const shifted = slow.diagnostics.map((d) => ({ ...d, line: d.line - 1 }));
				expect(shifted).toEqual(fast.diagnostics);
			}),
			{ numRuns: 1500 },
		);
		expect(json).toBeGreaterThan(100);
	});

	it("refuses __proto__ and constructor keys, once each, without touching prototypes", () => {
		const loaded = loadConfigText(`{ "__proto__": { "polluted": true }, constructor: 1, providers: {} }`, file);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(loaded.diagnostics.map((d) => d.message)).toEqual([
			`"__proto__" cannot be a key (it names JavaScript's object prototype); it is ignored`,
			`"constructor" cannot be a key (it names JavaScript's object prototype); it is ignored`,
		]);
	});

	it("compile takes each rule's sites as the loader parsed them, and parses again a list changed since", () => {
		const text = JSON.stringify({
			providers: { exa: { type: "exa" } },
			rules: [
				{ name: "docs", sites: ["docs.example.com/guide", "*.example.org"], search: ["exa"] },
				{ name: "code", sites: ["github.com/golang"], search: ["exa"] },
			],
		});
		const loaded = loadConfigText(text, file);
		expect(loaded.diagnostics).toEqual([]);
		const [docs, code] = loaded.config.rules;
		code!.sites![0] = "=go.dev"; // an edit in place after the load: the loader's parse no longer holds
		const table = compile(loaded.config);
		expect(table.rules[0]!.sites).toEqual(docs!.sites!.map((raw) => parsed(raw)));
		expect(table.rules[1]!.sites).toEqual([parsed("=go.dev")]);
		expect(table.rules[1]!.sites[0]).toMatchObject({ kind: "exact", host: "go.dev" });
	});

	it("parses key pools into labelled specs", () => {
		const loaded = loadConfigText(
			`{ providers: { d: { type: "doubao", apiKey: ["$A", { key: "!pass x", billing: "subscription", label: "plan" }] } } }`,
			file,
		);
		expect(loaded.config.providers[0]?.apiKey).toEqual([
			{ expression: "$A", label: "key1" },
			{ expression: "!pass x", billing: "subscription", label: "plan" },
		]);
	});

	it("a root that is not an object is one error and an empty config", () => {
		const loaded = loadConfigText(`[1, 2]`, file);
		expect(loaded.usable).toBe(false);
		expect(loaded.diagnostics).toHaveLength(1);
		expect(loaded.config.providers).toEqual([]);
	});
});

describe("loadConfig", () => {
	it("resolves --config, then PI_WEB_ACCESS_CONFIG, then <agentDir>/pi-web-access.json", () => {
		expect(configPath({ explicit: "/a.json", env: { PI_WEB_ACCESS_CONFIG: "/b.json" } })).toBe("/a.json");
		expect(configPath({ env: { PI_WEB_ACCESS_CONFIG: "/b.json", PI_CODING_AGENT_DIR: "/d" } })).toBe("/b.json");
		expect(configPath({ env: { PI_CODING_AGENT_DIR: "/d" } })).toBe(join("/d", "pi-web-access.json"));
		expect(configPath({ env: { HOME: "/h" } })).toBe(join("/h", ".pi", "agent", "pi-web-access.json"));
	});

	it("treats a missing default file as zero-config, a missing --config file as an error", () => {
		const dir = mkdtempSync(join(tmpdir(), "pwa-"));
		const missing = loadConfig({ env: { PI_CODING_AGENT_DIR: dir } });
		expect(missing).toMatchObject({ exists: false, usable: true, diagnostics: [] });
		const explicit = loadConfig({ explicit: join(dir, "nope.json"), env: {} });
		expect(explicit.usable).toBe(false);
		expect(explicit.diagnostics[0]?.message).toBe("file not found");
		writeFileSync(join(dir, "pi-web-access.json"), `{ providers: { e: { type: "exa" } } }`);
		expect(loadConfig({ env: { PI_CODING_AGENT_DIR: dir } }).config.providers).toHaveLength(1);
	});

	it("reads pi-web-access.jsonc or .json5 as well; with several, reads the first by name and warns once naming them", () => {
		const dir = mkdtempSync(join(tmpdir(), "pwa-names-"));
		const env = { PI_CODING_AGENT_DIR: dir };
		const json = join(dir, "pi-web-access.json");
		const jsonc = join(dir, "pi-web-access.jsonc");
		const json5 = join(dir, "pi-web-access.json5");
		writeFileSync(json5, `{ providers: { five: { type: "exa" } }, }`);
		expect(loadConfig({ env })).toMatchObject({ file: json5, diagnostics: [] });
		writeFileSync(jsonc, `{ "providers": { "c": { "type": "exa" } } }`);
		const two = loadConfig({ env });
		expect(two.file).toBe(jsonc);
		expect(two.config.providers.map((p) => p.name)).toEqual(["c"]);
		expect(two.diagnostics).toHaveLength(1);
		expect(two.diagnostics[0]).toMatchObject({ severity: "warning", file: jsonc, line: 1, col: 1 });
		expect(two.diagnostics[0]?.message).toBe(
			`2 config files: found ${jsonc} and ${json5}; ${jsonc} is read, ${json5} is ignored`,
		);
		writeFileSync(json, `{ "providers": { "j": { "type": "exa" } } }`);
		const three = loadConfig({ env });
		expect(three.config.providers.map((p) => p.name)).toEqual(["j"]);
		expect(three.diagnostics.map((d) => d.message)).toEqual([
			`3 config files: found ${json}, ${jsonc} and ${json5}; ${json} is read, ${jsonc} and ${json5} are ignored`,
		]);
		// --config and PI_WEB_ACCESS_CONFIG name one file: nothing else is looked for.
		expect(loadConfig({ explicit: json5, env }).diagnostics).toEqual([]);
	});
});
