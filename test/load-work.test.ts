// What loading a big config does beside its result: the work a first load in a fresh process pays per rule and per
// site pattern, guarded by what it leaves behind (bench/load-first.ts times it).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ErrorObject } from "ajv";
import { describe, expect, it, vi } from "vitest";
import { generateConfig } from "../bench/generate.ts";
import { compile } from "../engine/route.ts";
import { normalizeUrl } from "../engine/site-normalize.ts";
import { parseSitePattern } from "../engine/sites.ts";
import { createSetup } from "../runtime/setup.ts";
import { validate as compiledValidate } from "../schema/config-validator.js";
import { loadConfigText } from "../schema/load.ts";
import { projectConfigPath } from "../schema/project.ts";

describe("loading a big config", () => {
	it("leaves the memo of requests' site patterns as it was: a config's patterns are parsed once, not memoised", () => {
		const domain = parseSitePattern("docs.example.org/guide");
		// 20,000 patterns: more than the memo holds, so memoising them evicted every earlier entry; and each of a first
		// load's patterns paid the memo's hash and two map operations, in code not yet optimised.
		const text = JSON.stringify(generateConfig(4000, 99).raw);
		const loaded = loadConfigText(text, "big.json");
		expect(loaded.diagnostics).toEqual([]);
		expect(loaded.config.rules).toHaveLength(4002);
		expect(parseSitePattern("docs.example.org/guide")).toBe(domain);
		const site = loaded.config.rules[0]?.sites?.[0] ?? "";
		const again = parseSitePattern(site);
		expect(again.ok && again.pattern).not.toBe(compile(loaded.config).rules[0]?.sites[0]);
	});

	it("reuses a file's parsed sites when it is loaded again, rule by rule while their sites are the same", () => {
		const raw = generateConfig(50, 7).raw;
		raw.rules[3]!.sites = ["co.uk", "ok.example"];
		const sitesOf = (text: string) => compile(loadConfigText(text, "again.json").config).rules.map((r) => r.sites);
		const first = sitesOf(JSON.stringify(raw));
		const second = sitesOf(JSON.stringify(raw));
		expect(second[0]).toBe(first[0]);
		expect(second[10]).toBe(first[10]);
		// A rule whose site had a warning is parsed again, and says it again.
		expect(second[3]).not.toBe(first[3]);
		expect(loadConfigText(JSON.stringify(raw), "again.json").diagnostics.map((d) => d.path)).toEqual([
			"/rules/3/sites/0",
		]);
		raw.rules[10]!.sites = [...(raw.rules[10]!.sites ?? []).slice(1), "new.example"];
		const edited = sitesOf(JSON.stringify(raw));
		expect(edited[0]).toBe(first[0]);
		expect(edited[10]?.map((p) => p.raw)).toEqual(raw.rules[10]!.sites);
		// Another name for the same text, or the text of another file, parses afresh: the same patterns, new objects.
		expect(sitesOf(JSON.stringify(raw).replace("ok.example", "fine.example"))[0]).toBe(first[0]);
		const elsewhere = compile(loadConfigText(JSON.stringify(raw), "other.json").config).rules[0]?.sites;
		expect(elsewhere).toEqual(first[0]);
		expect(elsewhere).not.toBe(first[0]);
	});

	it("walks a file without a prototype key's name once: its own keys are read once per object", () => {
		const raw = generateConfig(1000, 4242).raw;
		const text = JSON.stringify(raw, null, "\t");
		let objects = 0;
		const count = (value: unknown): void => {
			if (value === null || typeof value !== "object") return;
			if (!Array.isArray(value)) objects++;
			for (const child of Object.values(value)) count(child);
		};
		count(raw);
		const keys = vi.spyOn(Object, "keys");
		try {
			expect(loadConfigText(text, "big.json").diagnostics).toEqual([]);
			// The proof that no key repeats (schema/json-duplicates.ts provenClean) reads each object's keys; the search
			// for prototype keys read them all again.
			expect(keys.mock.calls.length).toBeLessThanOrEqual(objects + 10);
		} finally {
			keys.mockRestore();
		}
		const named = text.replace('"name": "rule-7",', '"name": "rule-7", "constructor": 1,');
		expect(loadConfigText(named, "big.json").diagnostics.map((d) => d.message)).toEqual([
			'"constructor" cannot be a key (it names JavaScript\'s object prototype); it is ignored',
		]);
		// Spelt with escapes, in JSON and as a JSON5 name, the names are still found.
		for (const escaped of ['{"\\u005f_proto__": {"polluted": 1}}', "{ \\u0063onstructor: 1 }"]) {
			expect(loadConfigText(escaped, "esc.json5").diagnostics.map((d) => d.message.split(" cannot")[0])).toEqual([
				escaped.includes("proto") ? '"__proto__"' : '"constructor"',
			]);
		}
	});

	it("calls no array callback per rule or site pattern while loading and compiling a 1,000-rule file", () => {
		const text = JSON.stringify(generateConfig(1000, 4242).raw, null, "\t");
		const spies = (["every", "some", "forEach", "map"] as const).map((method) => vi.spyOn(Array.prototype, method));
		try {
			compile(loadConfigText(text, "big.json").config);
			// Each pattern's segments were searched with some(), each rule's handed-over sites checked with every() and
			// each chain read with forEach(): 5,000, 1,001 and 1,167 callbacks' calls, and as many closures, run cold. A
			// glob's segments and their pieces were mapped, and each rule's scripts: map() ran 5,112 times.
			expect(spies.map((spy) => spy.mock.calls.length).slice(0, 2)).toEqual([0, 0]);
			expect(spies[2]?.mock.calls.length).toBeLessThan(10);
			expect(spies[3]?.mock.calls.length).toBeLessThan(100);
		} finally {
			for (const spy of spies) spy.mockRestore();
		}
	});

	it("runs no Ajv validator for a clean 1,000-rule file: its providers, chains, policies and rules are checked by hand", () => {
		const text = JSON.stringify(generateConfig(1000, 4242).raw, null, "\t");
		// Every run of the shipped validator sets its `errors` (null when the value is valid): a mark left there survives
		// only a load that never ran it. Its first run compiled its 230 KB of code, cold.
		const untouched: ErrorObject[] = [];
		compiledValidate.errors = untouched;
		expect(loadConfigText(text, "big.json").diagnostics).toEqual([]);
		expect(compiledValidate.errors).toBe(untouched);
		// A part the hand check does not vouch for still goes to Ajv, which words the problem.
		const broken = text.replace('"maxAttempts": 4', '"maxAttempts": 40');
		expect(loadConfigText(broken, "big.json").diagnostics.map((d) => d.path)).toEqual(["/policy/maxAttempts"]);
		expect(compiledValidate.errors).not.toBe(untouched);
	});

	it("compiles a loaded 1,000-rule file with the index its shadowed-rule check filled: no pattern is filed twice", () => {
		const loaded = loadConfigText(JSON.stringify(generateConfig(1000, 4242).raw, null, "\t"), "big.json");
		const sets = vi.spyOn(Map.prototype, "set");
		try {
			const table = compile(loaded.config);
			// Indexing its 5,000 patterns again set a few thousand map keys.
			expect(sets.mock.calls.length).toBeLessThan(20);
			expect(table.siteIndex.size).toBe(loaded.config.rules.reduce((n, rule) => n + (rule.sites?.length ?? 0), 0));
		} finally {
			sets.mockRestore();
		}
	});

	it("compiles a config layered from a project file with the patterns both loads parsed: none is parsed again", () => {
		const root = mkdtempSync(join(tmpdir(), "pwa-load-work-"));
		try {
			const globalFile = join(root, "pi-web-access.json");
			const global = {
				providers: { exa: { type: "exa" } },
				rules: [{ name: "g", sites: ["global-layer.example/a"], search: ["exa"] }],
			};
			writeFileSync(globalFile, JSON.stringify(global));
			const cwd = join(root, "repo");
			mkdirSync(join(cwd, ".pi"), { recursive: true });
			const project = { rules: [{ name: "p", sites: ["project-layer.example/b"], search: ["exa"] }] };
			writeFileSync(projectConfigPath(cwd), JSON.stringify(project));
			const trust = { trusted: true, reason: "trusted by the test" };
			const setup = createSetup({ configFile: globalFile, env: { HOME: root }, project: { cwd, trust } });
			expect(setup.project?.state).toBe("loaded");
			expect(setup.table.rules.map((r) => r.rule.name)).toEqual(["p", "g"]);
			// Compile parsed neither site, so neither is in the requests' memo: parsing one now makes a new pattern.
			for (const compiled of setup.table.rules) {
				const again = parseSitePattern(compiled.rule.sites?.[0] ?? "");
				expect(again.ok && again.pattern).not.toBe(compiled.sites[0]);
			}
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});

	it("routes by the rules as they are at compile, when they changed after the load", () => {
		const text = JSON.stringify({
			providers: { exa: { type: "exa" } },
			rules: [
				{ name: "a", sites: ["a.example"], search: ["exa"] },
				{ name: "b", sites: ["b.example/docs"], search: ["exa"] },
			],
		});
		const route = (table: ReturnType<typeof compile>, url: string) => {
			const normalized = normalizeUrl(url);
			if (!normalized.ok) throw new Error(normalized.error);
			return table.siteIndex.candidates(normalized.url).map((m) => table.rules[m.value]?.rule.name);
		};
		const replaced = loadConfigText(text, "small.json").config;
		replaced.rules[0]!.sites = ["c.example"];
		expect(route(compile(replaced), "https://c.example/")).toEqual(["a"]);
		expect(route(compile(replaced), "https://a.example/")).toEqual([]);
		const edited = loadConfigText(text, "small.json").config;
		edited.rules[1]!.sites![0] = "b.example/blog";
		expect(route(compile(edited), "https://b.example/blog/x")).toEqual(["b"]);
		const grown = loadConfigText(text, "small.json").config;
		grown.rules.unshift({ ...grown.rules[1]!, name: "first", sites: ["b.example"] });
		expect(route(compile(grown), "https://b.example/docs/x")).toEqual(["first", "b"]);
		const siteless = loadConfigText(text, "small.json").config;
		siteless.rules[0]!.sites = undefined;
		expect(route(compile(siteless), "https://a.example/")).toEqual([]);
		expect(compile(siteless).siteless).toEqual([0]);
		const intact = loadConfigText(text, "small.json").config;
		expect(route(compile(intact), "https://b.example/docs/x")).toEqual(["b"]);
	});

	it("keeps a rule's sites and chains as written when every entry is kept, and copies only a list it cuts", () => {
		const raw = generateConfig(3, 5).raw;
		raw.rules[1]!.sites = ["ok.example", "https://bad.example", "fine.example"];
		raw.rules[2]!.search = ["exa", "nobody", "exa"];
		let parsed: typeof raw | undefined;
		const loaded = loadConfigText(JSON.stringify(raw), "rules.json", {
			prepare: (value) => {
				parsed = value as typeof raw;
				return { value, diagnostics: [] };
			},
		});
		const [first, second, third] = loaded.config.rules;
		// A first load of 1,000 rules made a second list of each rule's sites and of each of its 2,000 chains.
		expect(first?.sites).toBe(parsed?.rules[0]?.sites);
		expect(first?.search ?? first?.fetch).toBe(parsed?.rules[0]?.search ?? parsed?.rules[0]?.fetch);
		expect(second?.sites).toEqual(["ok.example", "fine.example"]);
		expect(third?.search).toEqual(["exa"]);
		expect(loaded.diagnostics.map((d) => d.path)).toEqual([
			"/rules/1/sites/1",
			"/rules/2/search/1",
			"/rules/2/search/2",
		]);
	});

	it("builds one class of letters per list of scripts, shared by the rules that name it", () => {
		const raw = generateConfig(1000, 4242).raw;
		const table = compile(loadConfigText(JSON.stringify(raw), "big.json").config);
		const han = table.rules.filter((r) => r.rule.queryScript?.join() === "Han").map((r) => r.script);
		// Each rule's `new RegExp` built the Unicode property's class from ICU's tables again.
		expect(han.length).toBeGreaterThan(10);
		expect(new Set(han).size).toBe(1);
		expect(han[0]?.test("如何")).toBe(true);
		expect(han[0]?.test("how")).toBe(false);
		const mixed = loadConfigText(
			JSON.stringify({ ...raw, rules: [{ name: "k", queryScript: ["Han", "Klingon"], search: ["exa"] }] }),
			"scripts.json",
		);
		expect(mixed.diagnostics.map((d) => d.message)).toEqual([
			'rule "k": "Klingon" is not a Unicode script name; the rule is dropped',
		]);
	});

	it("hands compile a load's parsed sites in one record, not one per rule", () => {
		const text = JSON.stringify(generateConfig(1000, 4242).raw, null, "\t");
		const sets = vi.spyOn(WeakMap.prototype, "set");
		try {
			const loaded = loadConfigText(text, "big.json");
			// A weak map's entry per rule (1,000, each an ephemeron the garbage collector treats apart) was one per load.
			expect(sets.mock.calls.length).toBe(1);
			const table = compile(loaded.config);
			expect(table.rules.map((r) => r.sites.map((p) => p.raw))).toEqual(loaded.config.rules.map((r) => r.sites ?? []));
		} finally {
			sets.mockRestore();
		}
	});
});
